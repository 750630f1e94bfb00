import fs from 'node:fs';
import path from 'node:path';

/**
 * `npm run bench:curve`: the scale curve, from the results-<size>.json files that `npm run bench`
 * wrote (S, M, L, XL, whichever exist): per size the graph, the ingest rate, and per query the median
 * result size and p50/p95 latency, so that latency can be read against graph size at a given result
 * size. Writes bench/CURVE.md and prints it.
 */
interface Result {
  size: string;
  date: string;
  events: number;
  graph: { nodes: number; relationships: number; fields: number };
  ingest: { seconds: number; eventsPerSecond: number; lowerBoundSeconds: number | null };
  queries: { name: string; size: number; p50: number; p95: number; bareP50: number | null }[];
  memory: { phase: string; rssMiB: number; heapMiB: number; neo4jRssMiB?: number }[];
  storeBytes?: number | null;
}

const dir = path.join(__dirname, '..', '..', 'bench');
const results: Result[] = ['S', 'M', 'L', 'XL']
  .map((s) => path.join(dir, `results-${s}.json`))
  .filter((f) => fs.existsSync(f))
  .map((f) => JSON.parse(fs.readFileSync(f, 'utf8')) as Result);
if (results.length === 0) throw new Error('no bench/results-*.json: run `npm run bench -- S` first');

const lines: string[] = ['# Tributary scale curve', ''];
lines.push('| size | nodes | relationships | events | ingest events/s | ratio to lower bound | peak Neo4j heap MiB | peak Neo4j RSS MiB | peak service RSS MiB | store MiB | measured |');
lines.push('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  const ratio = r.ingest.lowerBoundSeconds === null ? 'not measured' : (r.ingest.lowerBoundSeconds / r.ingest.seconds).toFixed(2);
  const heap = Math.max(...r.memory.map((m) => m.heapMiB));
  const rss = Math.max(...r.memory.map((m) => m.rssMiB));
  const neo4jRss = Math.max(0, ...r.memory.map((m) => m.neo4jRssMiB ?? 0)) || '–';
  const store = r.storeBytes ? Math.round(r.storeBytes / 2 ** 20) : '–';
  lines.push(`| ${r.size} | ${r.graph.nodes.toLocaleString('en')} | ${r.graph.relationships.toLocaleString('en')} | ${r.events.toLocaleString('en')} | ${Math.round(r.ingest.eventsPerSecond)} | ${ratio} | ${heap} | ${neo4jRss} | ${rss} | ${store} | ${r.date.slice(0, 16)} |`);
}
lines.push('');
lines.push('Per query: median result size (nodes, hops or items), then p50 / p95 in ms, for each size.');
lines.push('');
lines.push(`| query | ${results.map((r) => `${r.size}: size · p50 · p95`).join(' | ')} |`);
lines.push(`|---|${results.map(() => '---').join('|')}|`);
// Every query any size measured (XL's list has path and search, added with it), in first-seen order.
const names = [...new Set(results.flatMap((r) => r.queries.map((q) => q.name)))];
for (const q of names.map((name) => ({ name }))) {
  const cells = results.map((r) => {
    const m = r.queries.find((x) => x.name === q.name);
    return m ? `${m.size} · ${m.p50.toFixed(1)} · ${m.p95.toFixed(1)}` : '–';
  });
  lines.push(`| ${q.name} | ${cells.join(' | ')} |`);
}
lines.push('');
fs.writeFileSync(path.join(dir, 'CURVE.md'), lines.join('\n'));
process.stdout.write(lines.join('\n'));
