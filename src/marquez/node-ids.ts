import { notFound } from '../errors';
import type { Executor } from '../graph/executor';
import { Query } from '../graph/queries';
import { formatId, idsOrNone, marquezIdCandidates, type NodeRef } from '../ids';
import { EntityKind } from '../lineage/types';

/**
 * Marquez's raw node ids (`dataset:postgres://db:5432:public.orders`) resolved to Tributary's nodes.
 * Namespaces and names may both hold ':', so the id is split every possible way (src/ids.ts) and the
 * graph says which readings exist: better than Marquez's own heuristic, which guesses one split. When
 * several exist, the one Marquez's heuristic would choose wins. A versioned id (`#<uuid>`) names its
 * node's current state: Tributary keeps no dataset or job versions to read lineage at.
 */
export interface ResolvedNode {
  ref: Exclude<NodeRef, { kind: EntityKind.RUN }>;
  id: string;
  version: string | null;
}

/** The node a Marquez id names; NOT_FOUND (Marquez's 404) when no reading of it exists. */
export async function resolveMarquezId(executor: Executor, raw: string): Promise<ResolvedNode> {
  const { kind, refs, version } = marquezIdCandidates(raw);
  const ids = refs.map((r) => formatId(r));
  const rows = await executor.read<{ id: string }>(Query.MarquezExistingIds, {
    datasetIds: idsOrNone(kind === EntityKind.DATASET ? ids : []),
    jobIds: idsOrNone(kind === EntityKind.JOB ? ids : []),
    fieldIds: idsOrNone(kind === EntityKind.FIELD ? ids : []),
  });
  const found = new Set(rows.map((r) => r.id));
  const i = ids.findIndex((id) => found.has(id));
  // Marquez's message names the node by its name (its own reading of the id), not by the whole id.
  const first = refs[0] as { name: string; field?: string };
  if (i < 0) throw notFound(`${kind === EntityKind.FIELD ? 'Field' : kind === EntityKind.JOB ? 'Job' : 'Dataset'} '${(first.field ?? first.name).slice(0, 500)}' not found.`);
  return { ref: refs[i] as ResolvedNode['ref'], id: ids[i]!, version };
}
