import type { Executor } from './executor';
import { Query } from './queries';

/**
 * Canonical dump of a namespace subgraph: nodes sorted by id, relationships by (type, from, to,
 * props), property keys sorted. Two graphs are equal exactly when their dumps are equal strings.
 */
export interface GraphDump {
  nodes: { labels: string[]; props: Record<string, unknown> }[];
  rels: { type: string; from: string; to: string; props: Record<string, unknown> }[];
}

export async function dumpNamespaces(executor: Executor, prefix: string, limit = 100_000): Promise<GraphDump> {
  const [row] = await executor.read<GraphDump>(Query.DumpNamespaces, { prefix, limit });
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

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
