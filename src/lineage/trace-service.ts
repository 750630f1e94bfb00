import { badInput } from '../errors';
import type { Executor, TxRunner } from '../graph/executor';
import { parseJsonProperty } from '../graph/mappers';
import { Query } from '../graph/queries';
import { NodeKind, parseIdOfKind } from '../ids';
import { findStart, normaliseAsOf } from './lineage-service';
import { Direction, EntityKind, Granularity, type EntityRef } from './types';

/**
 * The investigation query: from a field (or dataset), follow lineage hop by hop, at column level
 * where a job reports column lineage for the field, and at dataset level where it does not, so a
 * trace never silently stops at an engine without column lineage: it says where precision was lost.
 *
 * Breadth-first over items (fields, or datasets once precision is lost), one query per hop inside
 * one read transaction; each item is visited once (cycles terminate). Bounded like lineage: depth
 * capped at maxDepth, at most maxNodes items; `truncated` says when the trace goes on.
 */

export interface TraceHop {
  /** Hops from the start (1 = adjacent). */
  distance: number;
  /** Data-flow direction: data moves from `fromId` to `toId` through `jobId`. */
  fromId: string;
  toId: string;
  jobId: string;
  /** FIELD: column lineage; DATASET: dataset-level only (no column lineage on this hop). */
  granularity: Granularity;
  /** True on the hop where a field-level trace fell back to dataset level. */
  precisionLost: boolean;
  types: string[] | null;
  subtypes: string[] | null;
  transformations: unknown;
}

export interface TraceNode extends EntityRef {
  distance: number;
}

export interface TraceResult {
  start: TraceNode;
  direction: Direction.UPSTREAM | Direction.DOWNSTREAM;
  depth: number;
  asOf: string | null;
  /** Ordered by distance, then fromId, toId, jobId. */
  hops: TraceHop[];
  /** Every item reached, the start first, then by distance and id. */
  nodes: TraceNode[];
  /** The first hop (by the order of `hops`) where field precision was lost; null if never. */
  firstPrecisionLoss: TraceHop | null;
  truncated: boolean;
  truncatedBy: ('DEPTH' | 'NODE_LIMIT')[];
}

interface StepRow {
  fromId: string;
  toId: string;
  fromKind?: 'FIELD' | 'DATASET';
  toKind?: 'FIELD' | 'DATASET';
  jobId: string;
  granularity: Granularity;
  types: string[] | null;
  subtypes: string[] | null;
  transformations: string | null;
  node: EntityRef;
}

export class TraceService {
  constructor(
    private readonly executor: Executor,
    private readonly limits: { maxDepth: number; maxNodes: number },
  ) {}

  async trace(
    nodeId: string,
    direction: Direction.UPSTREAM | Direction.DOWNSTREAM,
    requestedDepth: number,
    asOfText?: string | null,
  ): Promise<TraceResult> {
    if (!Number.isInteger(requestedDepth) || requestedDepth < 1) throw badInput(`depth must be a positive integer (got ${requestedDepth})`);
    const ref = parseIdOfKind(nodeId, NodeKind.Field, NodeKind.Dataset);
    const depth = Math.min(requestedDepth, this.limits.maxDepth);
    const asOf = asOfText ? normaliseAsOf(asOfText) : null;
    return this.executor.readTx(async (tx) => {
      const start: TraceNode = { ...(await findStart(tx, nodeId, ref)), distance: 0 };
      const { hops, nodes, truncatedBy } = await this.walk(tx, start, direction, depth, asOf);
      const loss = hops.find((h) => h.precisionLost) ?? null;
      return {
        start,
        direction,
        depth,
        asOf,
        hops,
        nodes: [start, ...[...nodes.values()].filter((n) => n.id !== start.id).sort((a, b) => a.distance - b.distance || cmp(a.id, b.id))],
        firstPrecisionLoss: loss,
        truncated: truncatedBy.length > 0,
        truncatedBy,
      };
    });
  }

  private async walk(tx: TxRunner, start: TraceNode, direction: Direction, depth: number, asOf: string | null) {
    const upstream = direction === Direction.UPSTREAM;
    const nodes = new Map<string, TraceNode>([[start.id, start]]);
    const hops = new Map<string, TraceHop>();
    let frontier: EntityRef[] = [start];
    let truncatedBy: ('DEPTH' | 'NODE_LIMIT')[] = [];
    const rowLimit = this.limits.maxNodes * 4;
    for (let hop = 1; frontier.length > 0 && truncatedBy.length === 0; hop++) {
      const probing = hop > depth;
      const rows = await tx.run<StepRow>(upstream ? Query.TraceUpstreamStep : Query.TraceDownstreamStep, {
        fields: frontier.filter((n) => n.kind === EntityKind.FIELD).map((n) => ({ fieldId: n.id, datasetId: n.datasetId })),
        datasets: frontier.filter((n) => n.kind === EntityKind.DATASET).map((n) => n.id),
        asOf,
        limit: rowLimit,
      });
      const next: EntityRef[] = [];
      for (const row of rows) {
        const isNew = !nodes.has(row.node.id);
        if (probing) {
          if (isNew) truncatedBy = ['DEPTH'];
          if (isNew) break;
          continue;
        }
        if (isNew) {
          if (nodes.size > this.limits.maxNodes) {
            truncatedBy = ['NODE_LIMIT'];
            break;
          }
          nodes.set(row.node.id, { ...row.node, distance: hop });
          next.push(row.node);
        }
        const itemKind = upstream ? row.toKind : row.fromKind;
        const h: TraceHop = {
          distance: hop,
          fromId: row.fromId,
          toId: row.toId,
          jobId: row.jobId,
          granularity: row.granularity,
          precisionLost: row.granularity === Granularity.DATASET && itemKind === 'FIELD',
          types: row.types,
          subtypes: row.subtypes,
          transformations: parseJsonProperty(row.transformations),
        };
        hops.set(`${h.fromId}\u0000${h.toId}\u0000${h.jobId}`, h);
      }
      if (rows.length >= rowLimit && truncatedBy.length === 0) truncatedBy = ['NODE_LIMIT'];
      if (probing) break;
      frontier = next;
    }
    const ordered = [...hops.values()].sort(
      (a, b) => a.distance - b.distance || cmp(a.fromId, b.fromId) || cmp(a.toId, b.toId) || cmp(a.jobId, b.jobId),
    );
    return { hops: ordered, nodes, truncatedBy };
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
