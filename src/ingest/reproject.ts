import type { Executor } from '../graph/executor';
import { eventText } from '../graph/event-text';
import { Query } from '../graph/queries';
import { idPrefix } from '../ids';
import { EntityKind } from '../lineage/types';
import { recordRules } from './identity-rules';
import { projectStored } from './ingestor';
import { NO_RULES, type IdentityRules } from './naming';

/**
 * Rebuilds the projected graph from stored events, after a change to the projection: deletes the
 * Job/Run/Dataset/Field nodes of the namespaces starting with `prefix` ('' = the whole graph; Event
 * nodes are never touched), then replays the stored events of those namespaces (selected by job
 * namespace, or dataset namespace for DatasetEvents) in pages. The projection is
 * order-independent, so replaying in id order gives the graph that live ingestion gave.
 * Replays apply `rules` (the identity rules now in force). A rule can move a dataset to a namespace
 * outside `prefix`, so after a rule change reproject the whole graph ('').
 */
export interface ReprojectProgress {
  phase: 'delete' | 'replay';
  deleted: number;
  replayed: number;
  total: number;
  invalid: number;
}

export async function reproject(
  executor: Executor,
  prefix: string,
  progress: (p: ReprojectProgress) => void = () => {},
  pageSize = 500,
  rules: IdentityRules = NO_RULES,
): Promise<ReprojectProgress> {
  const state: ReprojectProgress = { phase: 'delete', deleted: 0, replayed: 0, total: 0, invalid: 0 };
  for (const phase of [1, 2]) {
    for (;;) {
      const [row] = await executor.writeTx(Query.DeleteProjection, (tx) =>
        tx.run<{ deleted: number }>(Query.DeleteProjection, { prefix, phase, limit: 5000 }),
      );
      if (!row || row.deleted === 0) break;
      state.deleted += row.deleted;
      progress({ ...state });
    }
  }
  const selection = { jobPrefix: idPrefix(EntityKind.JOB, prefix), datasetPrefix: idPrefix(EntityKind.DATASET, prefix) };
  const [count] = await executor.read<{ events: number }>(Query.CountEvents, selection);
  state.phase = 'replay';
  state.total = count?.events ?? 0;
  let after = '';
  for (;;) {
    const rows = await executor.read<{ id: string; raw: unknown }>(Query.EventsPage, { ...selection, after, limit: pageSize });
    if (rows.length === 0) break;
    const page = rows.map((r) => ({ id: r.id, raw: eventText(r.raw) ?? '' }));
    const { invalid } = await projectStored(executor, page, rules);
    state.replayed += page.length;
    state.invalid += invalid;
    after = page[page.length - 1]!.id;
    progress({ ...state });
  }
  // The whole graph now follows these rules.
  if (prefix === '') await recordRules(executor, rules);
  return state;
}
