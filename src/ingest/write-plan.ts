import { randomUUID } from 'node:crypto';
import { packEventText } from '../graph/event-text';
import type { TxRunner } from '../graph/executor';
import { Query } from '../graph/queries';
import { idsOrNone, NO_NODE_ID, rowsOrNone } from '../ids';
import { METADATA_COLUMNS } from '../lineage/metadata-columns';
import { compactPlan, type CompactPlan } from './compact';
import { RETIRED_FACET } from './derive';
import type { PreparedBatch } from './ingestor';
import type { IdentityRules } from './naming';
import { planEvent } from './plan';
import { emptyPlan } from './plan-rows';
import type { ValidEvent } from './validate';
import { refreshJobVersions, type RunIo } from './versions';

/** Writing a prepared batch inside a projection transaction: its events stored, its compact plan projected. */

/**
 * Stores the events and writes the projection of all of them; returns the ids it created (the
 * others were stored before). An event stored before is projected again: the projection is
 * idempotent, so this costs work and changes nothing, and it lets the store and the projection go
 * out in one pipelined round trip instead of waiting for the store's answer.
 */
export async function storeAndProject(tx: TxRunner, prepared: PreparedBatch): Promise<Set<string>> {
  const projectedAt = new Date().toISOString();
  const stored = tx.run<{ id: string; created: boolean }>(Query.StoreEvents, {
    events: prepared.events.map((e, i) => ({ ...e.row, raw: prepared.packed?.[i] ?? packEventText(e.row.raw), projectedAt })),
    token: randomUUID(),
    receivedAt: new Date().toISOString(),
  });
  const written = writePlan(tx, prepared.plan);
  const [rows] = await Promise.all([stored, written]);
  return new Set(rows.filter((r) => r.created).map((r) => r.id));
}

/** Plans validated events (each under its stored id) as one compact plan and writes it: every projection goes through here. */
export async function projectEvents(tx: TxRunner, events: { id: string; valid: ValidEvent }[], rules: IdentityRules): Promise<void> {
  const plan = emptyPlan();
  for (const e of events) planEvent(plan, e.valid, { rules, eventId: e.id });
  await writePlan(tx, compactPlan(plan));
}

/**
 * Writes a compact plan: first the locks of what its derived values read and write
 * (lock-projection.cypher: concurrent projectors serialise there), nodes before the edges that MATCH
 * them; facets, current-IO flags and the coverage figures of output edges last.
 * The queries are issued without waiting for each other: the driver pipelines them over one
 * connection and the server runs them in order, so a plan costs one round trip, not twelve.
 * A query taking several lists gets none of them empty (rowsOrNone): whatever an event leaves out
 * (its inputs, its job's facets), its parameters have the types the warm-up compiled plans for.
 */
export async function writePlan(tx: TxRunner, p: CompactPlan): Promise<void> {
  const pending: Promise<unknown>[] = [];
  const run = (query: Query, params: Record<string, unknown>, nonEmpty: boolean) => {
    if (nonEmpty) pending.push(tx.run(query, params));
  };
  const rows = (query: Query, list: unknown[]) => run(query, { rows: list }, list.length > 0);
  const noFacets = <T extends { facets: unknown }>(list: T[]) => list.map(({ facets: _facets, ...rest }) => rest);
  // Every dataset an edge, field or symlink of the plan names is one of its datasets (plan.ts datasetRef).
  const lock = { jobIds: p.jobs.map((j) => j.id), datasetIds: p.datasets.map((d) => d.id), runIds: p.runs.map((r) => r.id) };
  run(
    Query.LockProjection,
    { jobIds: idsOrNone(lock.jobIds), datasetIds: idsOrNone(lock.datasetIds), runIds: idsOrNone(lock.runIds) },
    lock.jobIds.length + lock.datasetIds.length + lock.runIds.length > 0,
  );
  rows(Query.MergeJobs, noFacets(p.jobs));
  rows(Query.MergeDatasets, noFacets(p.datasets));
  rows(Query.MergeFields, p.fields);
  rows(Query.MergeRuns, noFacets(p.runs));
  rows(Query.MergeInputs, noFacets(p.inputs));
  rows(Query.MergeOutputs, noFacets(p.outputs));
  rows(Query.MergeColumnLineage, p.columnEdges);
  rows(Query.MergeDatasetDependencies, p.datasetDependencies);
  rows(Query.MergeSymlinks, p.symlinks);
  rows(Query.MergeParents, p.parents);
  const withFacets = <T extends { facets: unknown[] }>(list: T[]) => list.filter((r) => r.facets.length > 0);
  const facets = {
    jobs: withFacets(p.jobs).map((r) => ({ id: r.id, facets: r.facets })),
    datasets: withFacets(p.datasets).map((r) => ({ id: r.id, facets: r.facets })),
    runs: withFacets(p.runs).map((r) => ({ id: r.id, facets: r.facets })),
    inputs: withFacets(p.inputs).filter((r) => r.runId !== null),
    outputs: withFacets(p.outputs).filter((r) => r.runId !== null),
  };
  const nodeNone = { id: NO_NODE_ID, facets: [] };
  const edgeNone = { runId: NO_NODE_ID, datasetId: NO_NODE_ID, facets: [] };
  run(
    Query.MergeFacets,
    {
      jobs: rowsOrNone(facets.jobs, nodeNone),
      datasets: rowsOrNone(facets.datasets, nodeNone),
      runs: rowsOrNone(facets.runs, nodeNone),
      inputs: rowsOrNone<object>(facets.inputs, edgeNone),
      outputs: rowsOrNone<object>(facets.outputs, edgeNone),
    },
    Object.values(facets).some((l) => l.length > 0),
  );
  // A job's current IO changes with its IO reports, and with its retirement (derive.ts RETIRED_FACET).
  const ioJobs = [...new Set(p.jobs.filter((j) => j.ioAt !== null || j.facets.some((f) => f.key === RETIRED_FACET)).map((j) => j.id))];
  run(Query.RefreshCurrentIo, { jobIds: ioJobs }, ioJobs.length > 0);
  // Coverage figures (refresh-output-coverage.cypher, maintained incrementally): counts change with
  // column lineage or dataset-level dependencies into a dataset, a symlink, a storage facet (which
  // says which fields are metadata columns), or a field created (merge-fields flags its dataset);
  // decisions with the batch's runs and output edges.
  const fieldDatasets = new Map(p.fields.map((f) => [f.id, f.datasetId]));
  const countDatasetIds = [
    ...new Set([
      ...p.columnEdges.flatMap((c) => fieldDatasets.get(c.toId) ?? []),
      ...p.datasetDependencies.map((c) => c.toId),
      ...p.symlinks.flatMap((l) => [l.datasetId, l.aliasId]),
      ...p.datasets.filter((d) => d.facets.some((f) => f.key === 'storage')).map((d) => d.id),
    ]),
  ];
  const fieldDatasetIds = [...new Set(fieldDatasets.values())];
  const edges = [...new Map(p.outputs.map((o) => [`${o.jobId}\n${o.datasetId}`, { jobId: o.jobId, datasetId: o.datasetId }])).values()];
  const runIds = p.runs.map((r) => r.id);
  run(
    Query.RefreshOutputCoverage,
    {
      countDatasetIds: idsOrNone(countDatasetIds),
      fieldDatasetIds: idsOrNone(fieldDatasetIds),
      edges: rowsOrNone(edges, { jobId: NO_NODE_ID, datasetId: NO_NODE_ID }),
      runIds: idsOrNone(runIds),
      metadata: METADATA_COLUMNS,
    },
    countDatasetIds.length + fieldDatasetIds.length + edges.length + runIds.length > 0,
  );
  // Read behind the writes above (the server runs a transaction's statements in order).
  const runIo = runIds.length > 0 ? tx.run<RunIo>(Query.RunIoForVersions, { runIds }) : Promise.resolve([]);
  await Promise.all([...pending, runIo]);
  // Last: a namespace's lock is then held only while this transaction commits (merge-namespaces.cypher).
  const namespaces = namespaceRows(p);
  await refreshJobVersions(tx, runIo, namespaces.length > 0 ? () => tx.run(Query.MergeNamespaces, { rows: namespaces }) : undefined);
}

/**
 * The namespaces a plan names (its jobs', datasets', parent and root jobs'), each with the earliest
 * and latest time of the plan's rows in it, sorted by name (the order concurrent projectors lock them in).
 */
export function namespaceRows(p: CompactPlan): { name: string; firstSeen: string; lastSeen: string }[] {
  const seen = new Map<string, { name: string; firstSeen: string; lastSeen: string }>();
  const add = (name: string | null | undefined, firstSeen: string, lastSeen: string) => {
    if (name === null || name === undefined) return;
    const s = seen.get(name);
    if (!s) seen.set(name, { name, firstSeen, lastSeen });
    else {
      if (firstSeen < s.firstSeen) s.firstSeen = firstSeen;
      if (lastSeen > s.lastSeen) s.lastSeen = lastSeen;
    }
  };
  for (const r of [...p.jobs, ...p.datasets]) add(r.namespace, r.firstSeen, r.lastSeen);
  for (const r of p.parents) {
    add(r.parentJobNamespace, r.firstSeen, r.lastSeen);
    add(r.rootJobNamespace, r.firstSeen, r.lastSeen);
  }
  return [...seen.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
