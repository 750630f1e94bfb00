import { badInput, notFound } from '../errors';
import type { Executor } from '../graph/executor';
import { Query } from '../graph/queries';
import { datasetId, marquezId, NO_NODE_ID, parseId } from '../ids';
import { cmp } from '../lineage/common';
import { groupBy } from '../lineage/group';
import { FIELD_LINEAGE, traverse, UNDIRECTED_LINEAGE, type ExpandRow, type Traversal } from '../lineage/traversal';
import { Direction, EdgeType, EntityKind, TruncationReason, type EntityRef, type FlowDirection } from '../lineage/types';
import { resolveMarquezId } from './node-ids';
import type { MarquezService } from './service';
import { datasetFromRow, jobFromRow, type LineageDatasetRow, type LineageJobRow } from './lineage-rows';
import { datasetData, datasetVersionUuid, jobData, runShape, transformationOf, type Json } from './shapes';

/**
 * Marquez's two lineage reads on Tributary's traversal engine, bounded by Tributary's caps:
 * - table lineage (`GET /api/v1/lineage`): the jobs within `depth` job hops of the start, whichever
 *   way data flows (UNDIRECTED_LINEAGE: siblings included), with every dataset they read or write,
 *   sorted by id. A job hop is two edges (job, dataset, job), so the walk goes 2·depth + 1 edges
 *   from a job. Marquez starts a dataset's lineage from one arbitrary job that touches it; Tributary
 *   starts from all of them (2·depth + 2 edges from the dataset), so the answer holds what Marquez
 *   answers for any job it might pick, and is the same on every call.
 * - column lineage (`GET /api/v1/column-lineage`): the fields upstream (and downstream with
 *   `withDownstream`) of a dataset's fields, one field, or a job's output fields, `depth` DERIVES
 *   edges deep, with Marquez's reversed `inEdges` (origin: the node itself; destination: its input).
 * Both say how they were cut (`truncatedBy`: NODE_LIMIT when TRIBUTARY_MAX_NODES was reached) and
 * the depth they used (requested depths over TRIBUTARY_MAX_DEPTH are capped).
 */
export interface LineageAnswer {
  graph: Json[];
  truncatedBy: TruncationReason[];
  depth: number;
}

/** Table lineage: its nodes are built one by one as `graph` is read (once), so that a 20,000-node answer is written as it is made. */
export interface StreamedLineageAnswer extends Omit<LineageAnswer, 'graph'> {
  graph: Iterable<Json>;
}

export interface LineageCaps {
  maxDepth: number;
  maxNodes: number;
}

export class MarquezLineage {
  constructor(
    private readonly executor: Executor,
    private readonly service: MarquezService,
    private readonly caps: LineageCaps,
  ) {}

  async table(nodeId: string, requestedDepth: number): Promise<StreamedLineageAnswer> {
    const node = await resolveMarquezId(this.executor, nodeId);
    if (node.ref.kind === EntityKind.FIELD) throw badInput(`nodeId must be a dataset or job id (got a datasetField id)`);
    const depth = Math.min(requestedDepth, this.caps.maxDepth);
    const start: EntityRef = { id: node.id, kind: node.ref.kind, namespace: node.ref.namespace, name: node.ref.name };
    const walk = await this.executor.readTx('marquez lineage', (tx) =>
      traverse(tx, UNDIRECTED_LINEAGE, {
        starts: [start],
        direction: Direction.DOWNSTREAM,
        depth: 2 * depth + (start.kind === EntityKind.JOB ? 1 : 2),
        asOf: null,
        maxNodes: this.caps.maxNodes,
      }),
    );
    const ids = [...walk.reached.values()].map((r) => r.node);
    const jobIds = ids.filter((n) => n.kind === EntityKind.JOB).map((n) => n.id);
    const datasetIds = ids.filter((n) => n.kind === EntityKind.DATASET).map((n) => n.id);
    const [jobs, datasets] = await Promise.all([
      jobIds.length ? this.executor.read<LineageJobRow>(Query.MarquezLineageJobs, { ids: jobIds }) : [],
      datasetIds.length ? this.executor.read<LineageDatasetRow>(Query.MarquezLineageDatasets, { ids: datasetIds }) : [],
    ]).then(([j, d]) => [j.map(jobFromRow), d.map(datasetFromRow)] as const);
    // Each id is converted once (a node is on many edges).
    const marquezIds = new Map<string, string>();
    const mq = (id: string) => {
      let m = marquezIds.get(id);
      if (m === undefined) marquezIds.set(id, (m = toMarquez(id)));
      return m;
    };
    const edges = new Map<string, { origin: string; destination: string }>();
    for (const { row } of walk.edges) {
      if (row.type !== EdgeType.FEEDS && row.type !== EdgeType.PRODUCES) continue;
      const key = `${row.fromId}\u0000${row.toId}`;
      if (!edges.has(key)) edges.set(key, { origin: mq(row.fromId), destination: mq(row.toId) });
    }
    // Sorted once: every group keeps that order (Marquez's, by origin then destination).
    const sorted = [...edges.values()].sort((a, b) => cmp(a.origin, b.origin) || cmp(a.destination, b.destination));
    const byOrigin = groupBy(sorted, (e) => e.origin);
    const byDestination = groupBy(sorted, (e) => e.destination);
    const edgesOf = (list: { origin: string; destination: string }[] | undefined) => list ?? [];
    // Nodes are built as they are written (graph), in Marquez's order: by id.
    const order: { id: string; type: 'JOB' | 'DATASET'; data: () => Json }[] = [
      ...jobs.map((j) => ({ id: mq(j.job.id), type: 'JOB' as const, data: () => jobData(j, j.latest ? runShape(j.latest) : null) })),
      ...datasets.map((d) => ({ id: mq(d.dataset.id), type: 'DATASET' as const, data: () => datasetData(d) })),
    ].sort((a, b) => cmp(a.id, b.id));
    function* graph(): Generator<Json> {
      for (const { id, type, data } of order) yield { id, type, data: data(), inEdges: edgesOf(byDestination.get(id)), outEdges: edgesOf(byOrigin.get(id)) };
    }
    return { graph: graph(), truncatedBy: nodeLimitOnly(walk), depth };
  }

  async column(nodeId: string, requestedDepth: number, withDownstream: boolean): Promise<LineageAnswer> {
    const node = await resolveMarquezId(this.executor, nodeId);
    if (node.version !== null && withDownstream) throw badInput('a versioned nodeId cannot be combined with withDownstream=true');
    const depth = Math.min(requestedDepth, this.caps.maxDepth);
    const starts = await this.executor.read<{ id: string; namespace: string; name: string; datasetId: string }>(Query.MarquezColumnLineageStarts, {
      datasetId: node.ref.kind === EntityKind.DATASET ? node.id : NO_NODE_ID,
      fieldId: node.ref.kind === EntityKind.FIELD ? node.id : NO_NODE_ID,
      jobId: node.ref.kind === EntityKind.JOB ? node.id : NO_NODE_ID,
      limit: this.caps.maxNodes,
    });
    if (starts.length === 0) throw notFound('Could not find node');
    const refs: EntityRef[] = starts.map((s) => ({ id: s.id, kind: EntityKind.FIELD, namespace: s.namespace, name: s.name, datasetId: s.datasetId }));
    const directions: FlowDirection[] = withDownstream ? [Direction.UPSTREAM, Direction.DOWNSTREAM] : [Direction.UPSTREAM];
    const walks: Traversal<ExpandRow>[] = [];
    if (depth > 0) {
      await this.executor.readTx('marquez column lineage', async (tx) => {
        for (const direction of directions) {
          walks.push(await traverse(tx, FIELD_LINEAGE, { starts: refs, direction, depth, asOf: null, maxNodes: this.caps.maxNodes, follow: [EdgeType.DERIVES] }));
        }
      });
    }
    const edges = new Map<string, { from: string; to: string }>();
    for (const walk of walks) for (const { row } of walk.edges) if (row.type === EdgeType.DERIVES) edges.set(`${row.fromId}\u0000${row.toId}`, { from: row.fromId, to: row.toId });
    const fieldIds = [...new Set([...edges.values()].flatMap((e) => [e.from, e.to]))];
    const fields = fieldIds.length ? await this.executor.read<FieldRow>(Query.MarquezFieldsDetail, { ids: fieldIds }) : [];
    const downstream = groupBy([...edges.values()], (e) => e.from);
    const upstream = groupBy([...edges.values()], (e) => e.to);
    // A versioned request (`#<version>`) gets versioned ids back, as Marquez answers it: each field
    // under its dataset's current version.
    const versions = node.version === null ? null : await this.currentVersions(fields.flatMap((f) => [datasetId(f.namespace, f.dataset), ...f.inputs.map((i) => datasetId(i.namespace, i.dataset))]));
    const versionOf = (namespace: string, dataset: string) => versions?.get(datasetId(namespace, dataset)) ?? null;
    const fieldMarquezId = (f: { namespace: string; dataset: string; field: string }) => {
      const id = marquezId({ kind: EntityKind.FIELD, namespace: f.namespace, name: f.dataset, field: f.field });
      const version = versionOf(f.namespace, f.dataset);
      return version ? `${id}#${version}` : id;
    };
    const byId = new Map(fields.map((g) => [g.id, fieldMarquezId(g)]));
    const graph = fields
      .map((f) => {
        const id = fieldMarquezId(f);
        const inputFields = f.inputs.map((i) => ({ namespace: i.namespace, dataset: i.dataset, datasetVersion: versionOf(i.namespace, i.dataset), field: i.field, ...transformationOf(i.transformations) }));
        return {
          id,
          type: 'DATASET_FIELD',
          data: {
            namespace: f.namespace,
            dataset: f.dataset,
            datasetVersion: versionOf(f.namespace, f.dataset),
            field: f.field,
            fieldType: f.type ?? '',
            transformationDescription: inputFields[0]?.transformationDescription ?? null,
            transformationType: inputFields[0]?.transformationType ?? null,
            inputFields,
          },
          // Marquez's quirk, which its web UI follows: inEdges run from the node to its inputs.
          inEdges: (upstream.get(f.id) ?? []).map((e) => ({ origin: id, destination: byId.get(e.from)! })).sort((a, b) => cmp(a.destination, b.destination)),
          outEdges: (downstream.get(f.id) ?? []).map((e) => ({ origin: id, destination: byId.get(e.to)! })).sort((a, b) => cmp(a.destination, b.destination)),
        };
      })
      .sort((a, b) => cmp(a.id, b.id));
    return { graph, truncatedBy: [...new Set(walks.flatMap(nodeLimitOnly))], depth };
  }

  /** The current version UUID of each dataset (its latest write; the unversioned UUID for one never written). */
  private async currentVersions(ids: string[]): Promise<Map<string, string>> {
    const unique = [...new Set(ids)];
    const rows = await this.service.datasetRows(unique, false);
    const written = new Map(rows.map((r) => [r.dataset.id, r.latestWrite?.runId ?? null]));
    return new Map(unique.map((id) => [id, datasetVersionUuid(id, written.get(id) ?? null)]));
  }
}

interface FieldRow {
  id: string;
  namespace: string;
  dataset: string;
  field: string;
  type: string | null;
  inputs: { id: string; namespace: string; dataset: string; field: string; transformations: string | null }[];
}

/** A Tributary dataset or job id as Marquez writes it (raw names). */
function toMarquez(id: string): string {
  return marquezId(parseId(id));
}

/** Marquez stops at its depth too: only the node cap is a cut Marquez would not make. */
const nodeLimitOnly = (walk: Traversal<ExpandRow>): TruncationReason[] => walk.truncatedBy.filter((r) => r === TruncationReason.NODE_LIMIT);
