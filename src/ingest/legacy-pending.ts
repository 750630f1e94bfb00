import type { Executor } from '../graph/executor';
import { eventText } from '../graph/event-text';
import { Query } from '../graph/queries';
import type { Logger } from '../log';
import type { IdentityRules } from './naming';
import { validateEvent } from './validate';
import { projectEvents } from './write-plan';
import type { ProjectionWriter } from './writer';

/**
 * Projects one page (at most `limit`) of events an earlier version, from before the spool, stored
 * labelled Pending in Neo4j and no process projects (received before `startedAt`, this process's
 * start, or over 10 s ago: a rolling upgrade), and marks them projected; those that no longer
 * validate are marked with that error. False when there were none.
 */
export async function projectLegacyPending(
  on: { executor: Executor; writer: ProjectionWriter; rules: IdentityRules; log: Logger },
  startedAt: string,
  limit: number,
): Promise<boolean> {
  const cutoff = new Date(Date.now() - 10_000).toISOString();
  const before = cutoff > startedAt ? cutoff : startedAt;
  const rows = await on.executor.read<{ id: string; raw: unknown; receivedAt: string }>(Query.PendingEvents, { before, limit });
  if (rows.length === 0) return false;
  const valid = rows.flatMap((r) => {
    try {
      return [{ id: r.id, valid: validateEvent(JSON.parse(eventText(r.raw) ?? '')) }];
    } catch {
      return [];
    }
  });
  const validIds = new Set(valid.map((v) => v.id));
  const invalid = rows.filter((r) => !validIds.has(r.id)).map((r) => r.id);
  await on.writer.exclusive(() =>
    on.executor.writeTx('project', async (tx) => {
      await projectEvents(tx, valid, on.rules);
      const at = new Date().toISOString();
      await tx.run(Query.MarkProjected, { ids: [...validIds], error: null, at });
      if (invalid.length > 0) await tx.run(Query.MarkProjected, { ids: invalid, error: 'no longer valid', at });
    }),
  );
  on.log.info('projected events an earlier version had stored without projecting', { events: rows.length });
  return true;
}
