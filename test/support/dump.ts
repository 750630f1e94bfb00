import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import neo4j from 'neo4j-driver';
import type { App } from '../../src/app';
import { toPlain } from '../../src/graph/mappers';
import { cmp } from '../../src/lineage/common';
import { ISOLATED_RUN_TAIL } from './isolate';

/**
 * Test support: the canonical dump of a namespace subgraph (test/support/dump-namespaces.cypher,
 * run on the app's driver in a read transaction): nodes sorted by id, relationships by (type, from,
 * to, props), property keys sorted. Two graphs are equal exactly when their dumps are equal strings.
 */
export interface GraphDump {
  nodes: { labels: string[]; props: Record<string, unknown> }[];
  rels: { type: string; from: string; to: string; props: Record<string, unknown> }[];
}

const DUMP = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'test', 'support', 'dump-namespaces.cypher'), 'utf8');

export async function dumpNamespaces(app: Pick<App, 'driver'>, prefix: string, limit = 100_000): Promise<GraphDump> {
  const session = app.driver.session({ defaultAccessMode: neo4j.session.READ, bookmarkManager: app.driver.executeQueryBookmarkManager });
  let row: GraphDump | undefined;
  try {
    const result = await session.executeRead((tx) => tx.run(DUMP, { prefix, limit }));
    row = result.records[0] ? (toPlain(result.records[0].toObject()) as GraphDump) : undefined;
  } finally {
    await session.close();
  }
  const nodes = (row?.nodes ?? [])
    .map((n) => ({ labels: [...n.labels].sort(), props: sortKeys(n.props) }))
    .sort((a, b) => cmp(String(a.props.id), String(b.props.id)));
  const rels = (row?.rels ?? [])
    .map((r) => ({ ...r, props: sortKeys(r.props) }))
    .sort((a, b) => cmp(`${a.type} ${a.from} ${a.to} ${JSON.stringify(a.props)}`, `${b.type} ${b.from} ${b.to} ${JSON.stringify(b.props)}`));
  return { nodes, rels };
}

function sortKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
}


/**
 * Each node and relationship of a dump as one line, with the isolation prefix (it has no ':', so
 * ids show it verbatim) and the ids derived from it replaced: run ids, job version hashes, and the
 * event ids symlinks record (which event declared a symlink is compared within one prefix, by
 * re-projection). Sorted, since those ids also decide the dump order.
 */
export function normalisedDump(prefix: string, dump: GraphDump): string[] {
  const strip = (x: unknown) =>
    JSON.stringify(x)
      .split(prefix)
      .join('<p>')
      .replace(ISOLATED_RUN_TAIL, '-<run>')
      .replace(/#[0-9a-f]{16}/g, '#<version>')
      .replace(/"firstEvent":"event:[0-9a-f]{64}"/g, '"firstEvent":"<event>"');
  return [...dump.nodes.map(strip), ...dump.rels.map(strip)].sort();
}

/** Two normalised dumps are equal; otherwise the first few lines only one has. */
export function assertSameGraph(a: string[], b: string[], label = 'graphs differ'): void {
  const inB = new Set(b);
  const inA = new Set(a);
  const onlyA = a.filter((x) => !inB.has(x)).slice(0, 3);
  const onlyB = b.filter((x) => !inA.has(x)).slice(0, 3);
  assert.deepEqual({ onlyA, onlyB }, { onlyA: [], onlyB: [] }, label);
  assert.equal(a.length, b.length, label);
}
