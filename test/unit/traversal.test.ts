import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TxRunner } from '../../src/graph/executor';
import { Query } from '../../src/graph/queries';
import { NO_NODE_ID } from '../../src/ids';
import { DATASET_LINEAGE, pathTo, traverse, type ExpandRow } from '../../src/lineage/traversal';
import { Direction, EdgeEvidence, EdgeType, EntityKind, TruncationReason, type EntityRef } from '../../src/lineage/types';

/**
 * The engine's contract (src/lineage/traversal.ts) on an in-memory graph: a fake TxRunner answers
 * each step as expand-downstream.cypher does (ALIAS rows first, then FEEDS/PRODUCES; honouring
 * $follow and $limit). The Cypher itself is tested against Neo4j in test/cypher.
 */
type Edge = [from: string, to: string, type: EdgeType];

function graph(edges: Edge[]) {
  const steps: { query: unknown; frontier: string[]; follow: string[] }[] = [];
  const node = (id: string): EntityRef => ({ id, kind: id.startsWith('j') ? EntityKind.JOB : EntityKind.DATASET, namespace: 'ns', name: id });
  const tx: TxRunner = {
    run: async <Row>(query: unknown, params: Record<string, unknown> = {}) => {
      // Never an empty list (one plan whatever a frontier holds): an empty side is [NO_NODE_ID], which matches no node.
      assert.ok((params.datasetIds as string[]).length > 0 && (params.jobIds as string[]).length > 0, JSON.stringify(params));
      const frontier = [...(params.datasetIds as string[]), ...(params.jobIds as string[])].filter((id) => id !== NO_NODE_ID);
      const follow = params.follow as string[];
      steps.push({ query, frontier, follow });
      const row = (from: string, to: string, type: EdgeType, reached: string): ExpandRow => ({
        fromId: from, toId: to, type, firstSeen: null, lastSeen: null, declared: true, current: true, node: node(reached),
      });
      const aliases = follow.includes(EdgeType.ALIAS)
        ? frontier.flatMap((f) => edges.filter(([a, b, t]) => t === EdgeType.ALIAS && (a === f || b === f)).map(([a, b]) => row(f, a === f ? b : a, EdgeType.ALIAS, a === f ? b : a)))
        : [];
      const names = (f: string) => [f, ...aliases.filter((r) => r.fromId === f).map((r) => r.toId)];
      const flows = frontier.flatMap((f) =>
        names(f).flatMap((m) => edges.filter(([a, , t]) => a === m && t !== EdgeType.ALIAS && follow.includes(t)).map(([a, b, t]) => row(a, b, t, b))),
      );
      return [...aliases, ...flows].slice(0, params.limit as number) as Row[];
    },
  };
  return { tx, steps, node };
}

const F = EdgeType.FEEDS;
const P = EdgeType.PRODUCES;
const A = EdgeType.ALIAS;

describe('traversal engine', () => {
  it('reaches each node once at its shortest distance, with the first row as parent, through a diamond and a cycle', async () => {
    const g = graph([['d0', 'j1', F], ['d0', 'j2', F], ['j1', 'd1', P], ['j2', 'd1', P], ['d1', 'j3', F], ['j3', 'd0', P]]);
    const t = await traverse(g.tx, DATASET_LINEAGE, { starts: [g.node('d0')], direction: Direction.DOWNSTREAM, depth: 10, asOf: null, maxNodes: 100 });
    assert.deepEqual([...t.reached.values()].map((r) => [r.node.id, r.distance]), [['d0', 0], ['j1', 1], ['j2', 1], ['d1', 2], ['j3', 3]]);
    assert.deepEqual(pathTo(t, 'j3').map((r) => `${r.fromId}>${r.toId}`), ['d0>j1', 'j1>d1', 'd1>j3']);
    assert.deepEqual(t.truncatedBy, []);
    assert.equal(t.openFrom, null);
    // The cycle's closing edge is seen (both ends reached) at the hop that expanded j3.
    assert.ok(t.edges.some((e) => e.row.fromId === 'j3' && e.row.toId === 'd0' && e.hop === 4));
  });

  it('joins an alias at the distance of its dataset, at no hop, and walks on from what it feeds', async () => {
    const g = graph([['d0', 'j1', F], ['j1', 'path', P], ['path', 'table', A], ['table', 'j2', F], ['j2', 'out', P]]);
    const t = await traverse(g.tx, DATASET_LINEAGE, { starts: [g.node('d0')], direction: Direction.DOWNSTREAM, depth: 10, asOf: null, maxNodes: 100 });
    assert.deepEqual([...t.reached.values()].map((r) => [r.node.id, r.distance]), [['d0', 0], ['j1', 1], ['path', 2], ['table', 2], ['j2', 3], ['out', 4]]);
    assert.deepEqual(pathTo(t, 'out').map((r) => r.type), [F, P, A, F, P]);
    // Without ALIAS in `follow`, the symlinked name is another dataset: lineage stops at the path.
    const plain = await traverse(g.tx, DATASET_LINEAGE, { starts: [g.node('d0')], direction: Direction.DOWNSTREAM, depth: 10, asOf: null, maxNodes: 100, follow: [F, P] });
    assert.deepEqual([...plain.reached.keys()], ['d0', 'j1', 'path']);
    assert.deepEqual(g.steps.at(-1)!.follow, [F, P, EdgeEvidence.COLLECTED], 'collected edges are followed unless the request leaves them out');
  });

  it('follows the evidence asked for: collected edges unless left out; DECLARED rows from their own step, after the reported ones, current lineage only', async () => {
    const g = graph([['d0', 'j1', F], ['j1', 'd1', P]]);
    const declaredRows: Record<string, ExpandRow[]> = {
      d0: [{ fromId: 'd0', toId: 'j1', type: F, firstSeen: null, lastSeen: null, declared: true, current: true, node: g.node('j1'), evidence: EdgeEvidence.DECLARED }],
      j1: [{ fromId: 'j1', toId: 'd9', type: P, firstSeen: null, lastSeen: null, declared: true, current: true, node: g.node('d9'), evidence: EdgeEvidence.DECLARED }],
    };
    const declaredQueries: unknown[] = [];
    const tx: TxRunner = {
      run: async <Row>(query: unknown, params: Record<string, unknown> = {}) => {
        if (query !== 'declared-down') return g.tx.run<Row>(query as never, params);
        declaredQueries.push(params);
        return [...(params.datasetIds as string[]), ...(params.jobIds as string[])].flatMap((f) => declaredRows[f] ?? []) as Row[];
      },
    };
    const mode = { ...DATASET_LINEAGE, declaredSteps: { [Direction.UPSTREAM]: 'declared-up', [Direction.DOWNSTREAM]: 'declared-down' } } as unknown as typeof DATASET_LINEAGE;
    const base = { starts: [g.node('d0')], direction: Direction.DOWNSTREAM, depth: 10, maxNodes: 100 } as const;
    const reported = await traverse(tx, mode, { ...base, asOf: null, evidence: [EdgeEvidence.REPORTED] });
    assert.deepEqual([...reported.reached.keys()], ['d0', 'j1', 'd1']);
    assert.deepEqual(g.steps.at(-1)!.follow, [F, P, A]);
    assert.equal(declaredQueries.length, 0);
    const all = await traverse(tx, mode, { ...base, asOf: null, evidence: [EdgeEvidence.REPORTED, EdgeEvidence.COLLECTED, EdgeEvidence.DECLARED] });
    assert.deepEqual([...all.reached.keys()], ['d0', 'j1', 'd1', 'd9']);
    assert.equal(all.reached.get('j1')!.parent!.evidence, undefined, 'a node reached both ways keeps its reported parent');
    assert.equal(all.reached.get('d9')!.parent!.evidence, EdgeEvidence.DECLARED);
    assert.ok(declaredQueries.length >= 2);
    const before = declaredQueries.length;
    const past = await traverse(tx, mode, { ...base, asOf: '2020-01-01T00:00:00.000Z', evidence: [EdgeEvidence.DECLARED] });
    assert.deepEqual([[...past.reached.keys()], declaredQueries.length], [['d0', 'j1', 'd1'], before], 'declarations are not dated: none as of a past time');
  });

  it('walks as of a time with the as-of step queries, current lineage with the current ones', async () => {
    const g = graph([['d0', 'j1', F], ['j1', 'd1', P]]);
    const base = { starts: [g.node('d0')], depth: 10, maxNodes: 100 } as const;
    for (const [direction, asOf, query] of [
      [Direction.DOWNSTREAM, null, Query.ExpandDownstream],
      [Direction.DOWNSTREAM, '2020-01-01T00:00:00.000Z', Query.ExpandDownstreamAsOf],
      [Direction.UPSTREAM, null, Query.ExpandUpstream],
      [Direction.UPSTREAM, '2020-01-01T00:00:00.000Z', Query.ExpandUpstreamAsOf],
    ] as const) {
      g.steps.length = 0;
      await traverse(g.tx, DATASET_LINEAGE, { ...base, direction, asOf });
      assert.ok(g.steps.length > 0 && g.steps.every((s) => s.query === query), `${direction} ${asOf}: ${g.steps.map((s) => s.query).join(', ')}`);
    }
  });

  it('probes one hop past the depth: DEPTH when lineage goes on, not when it ends there', async () => {
    const g = graph([['d0', 'j1', F], ['j1', 'd1', P], ['d1', 'j2', F]]);
    const deep = await traverse(g.tx, DATASET_LINEAGE, { starts: [g.node('d0')], direction: Direction.DOWNSTREAM, depth: 2, asOf: null, maxNodes: 100 });
    assert.deepEqual([...deep.reached.keys()], ['d0', 'j1', 'd1']);
    assert.deepEqual(deep.truncatedBy, [TruncationReason.DEPTH]);
    assert.equal(deep.openFrom, 2);
    const exact = await traverse(g.tx, DATASET_LINEAGE, { starts: [g.node('d0')], direction: Direction.DOWNSTREAM, depth: 3, asOf: null, maxNodes: 100 });
    assert.deepEqual(exact.truncatedBy, []);
  });

  it('stops at the node limit and at a full step, saying NODE_LIMIT', async () => {
    const fan: Edge[] = Array.from({ length: 10 }, (_, i) => ['d0', `j${i}`, F] as Edge);
    const g = graph(fan);
    const t = await traverse(g.tx, DATASET_LINEAGE, { starts: [g.node('d0')], direction: Direction.DOWNSTREAM, depth: 5, asOf: null, maxNodes: 4 });
    assert.equal(t.reached.size, 5);
    assert.deepEqual(t.truncatedBy, [TruncationReason.NODE_LIMIT]);
    assert.equal(t.openFrom, 0);
    const rows = await traverse(g.tx, DATASET_LINEAGE, { starts: [g.node('d0')], direction: Direction.DOWNSTREAM, depth: 5, asOf: null, maxNodes: 100, maxRowsPerHop: 10 });
    assert.deepEqual(rows.truncatedBy, [TruncationReason.NODE_LIMIT]);
  });

  it('walks from several starts at once, each at distance 0, one step query per hop', async () => {
    const g = graph([['a', 'j1', F], ['b', 'j2', F], ['j1', 'c', P], ['j2', 'c', P]]);
    const t = await traverse(g.tx, DATASET_LINEAGE, { starts: [g.node('a'), g.node('b')], direction: Direction.DOWNSTREAM, depth: 5, asOf: null, maxNodes: 100 });
    assert.deepEqual([...t.reached.values()].map((r) => [r.node.id, r.distance]), [['a', 0], ['b', 0], ['j1', 1], ['j2', 1], ['c', 2]]);
    assert.deepEqual(g.steps.map((s) => s.frontier), [['a', 'b'], ['j1', 'j2'], ['c']]);
  });

  it('ends early, not truncated, when the caller has what it needs', async () => {
    const g = graph([['d0', 'j1', F], ['j1', 'd1', P], ['d1', 'j2', F], ['j2', 'd2', P]]);
    const asked: number[] = [];
    const t = await traverse(g.tx, DATASET_LINEAGE, {
      starts: [g.node('d0')], direction: Direction.DOWNSTREAM, depth: 10, asOf: null, maxNodes: 100,
      until: (hop, w) => (asked.push(hop), w.reached.has('d1')),
    });
    assert.deepEqual(asked, [1, 2]);
    assert.deepEqual([...t.reached.keys()], ['d0', 'j1', 'd1']);
    assert.deepEqual(t.truncatedBy, []);
    assert.equal(t.openFrom, 2);
    assert.equal(g.steps.length, 2);
  });
});
