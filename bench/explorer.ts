import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { startEmbeddedNeo4j } from '../src/graph/embedded/neo4j';
import { datasetId } from '../src/ids';
import { createLogger } from '../src/log';
import { launchBrowser } from '../test/support/browser';
import { generate } from './generator';

/**
 * The explorer's quality bar, measured in a real headless Chromium against the service on a
 * generated graph (3,000 jobs, 12,000 events, unless told otherwise): time from navigation to the first painted canvas for
 * a lineage of about 500 nodes, and for one of 5,000+ (drawn capped at 300 by default, and all of
 * them with &cap=), the "Show more" step, and how long a zoom takes to paint on the biggest canvas.
 * Medians of 5 loads after one warm-up load each. Writes bench/EXPLORER.md.
 * Usage: npm run bench:explorer [-- <jobs, default 3000>]
 */
async function main() {
  const jobs = Number(process.argv[2] ?? 3000);
  let config = loadConfig();
  const log = createLogger('warn');
  const home = path.join(config.embedded.home, 'bench-explorer');
  fs.rmSync(home, { recursive: true, force: true });
  const neo4j = config.neo4j ? null : await startEmbeddedNeo4j({ ...config.embedded, home, port: 0, heap: '2g', pageCache: '2g' }, log);
  if (neo4j) config = { ...config, neo4j: { uri: neo4j.uri, user: 'neo4j' } };
  const app = await createApp(
    { ...config, ingest: { ...config.ingest, spoolDir: path.join(home, 'spool') }, lineage: { ...config.lineage, maxNodes: 10_000 }, graphql: { ...config.graphql, maxComplexity: 10_000_000 } },
    log,
  );
  await app.server.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
  const lines: string[] = [];
  const out = (s = '') => {
    lines.push(s);
    process.stdout.write(`${s}\n`);
  };
  try {
    const { events, outputs } = generate({ jobs, runsPerJob: 2, layers: 40, columnLineageShare: 0.6, seed: 11 });
    for (let i = 0; i < events.length; i += 200) {
      const res = await fetch(`${base}/api/v1/lineage/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(events.slice(i, i + 200)) });
      if (!res.ok) throw new Error(`batch ${res.status}`);
    }
    while (app.projector.lagMs() > 0) await new Promise((r) => setTimeout(r, 50));
    await app.warmUp(false, false);
    const gql = async (query: string, variables: Record<string, unknown>) => ((await (await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) })).json()) as { data: any }).data; // eslint-disable-line @typescript-eslint/no-explicit-any
    // Lineage sizes (both directions, depth 20) of a sample of outputs: the one nearest 500 nodes and the largest.
    const sizes: { id: string; nodes: number }[] = [];
    for (const o of outputs.filter((_x, i) => i % 25 === 0)) {
      const id = datasetId(o.namespace, o.name);
      const d = await gql(`query($id: ID!) { u: lineage(nodeId: $id, direction: UPSTREAM, depth: 20) { nodes { id } } d: lineage(nodeId: $id, direction: DOWNSTREAM, depth: 20) { nodes { id } } }`, { id });
      if (d?.u) sizes.push({ id, nodes: new Set([...d.u.nodes, ...d.d.nodes].map((n: { id: string }) => n.id)).size });
    }
    const near500 = [...sizes].sort((a, b) => Math.abs(a.nodes - 500) - Math.abs(b.nodes - 500))[0]!;
    const largest = [...sizes].sort((a, b) => b.nodes - a.nodes)[0]!;
    const browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const url = (id: string, cap?: number) => `${base}/lineage?node=${encodeURIComponent(id)}&up=20&down=20${cap ? `&cap=${cap}` : ''}`;
    const paint = async (p: Page, u: string) => {
      await p.goto('about:blank');
      const t = Date.now();
      await p.goto(u);
      await p.waitForSelector('[data-laid-out="true"] .react-flow__node', { timeout: 300_000 });
      return { ms: Date.now() - t, drawn: await p.locator('.react-flow__node').count(), label: await p.getByTestId('node-count').innerText() };
    };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const measure = async (u: string) => {
      await paint(page, u);
      const runs = [];
      for (let i = 0; i < 5; i++) runs.push(await paint(page, u));
      return { ms: median(runs.map((r) => r.ms)), max: Math.max(...runs.map((r) => r.ms)), label: runs[0]!.label };
    };
    out('# Explorer benchmark');
    out();
    out(`Generated graph: ${jobs} jobs, ${events.length} events; headless Chromium (@sparticuz/chromium) on this machine, viewport 1400 × 900. ${new Date().toISOString()}`);
    out();
    out('| case | drawn | first paint p50 ms | max ms |');
    out('|---|---|---|---|');
    // The API's share: the canvas's two lineage requests, timed from Node.js (median of 5).
    const api: number[] = [];
    for (let i = 0; i < 6; i++) {
      const t = Date.now();
      await gql(`query($id: ID!) { u: lineage(nodeId: $id, direction: UPSTREAM, depth: 20) { nodes { id kind name namespace distance side datasetId } edges { type fromId toId columnLevel } } d: lineage(nodeId: $id, direction: DOWNSTREAM, depth: 20) { nodes { id kind name namespace distance side datasetId } edges { type fromId toId columnLevel } } }`, { id: near500.id });
      if (i > 0) api.push(Date.now() - t);
    }
    const a = await measure(url(near500.id, 1000));
    out(`| lineage of ${near500.nodes} nodes (both directions, depth 20), all drawn | ${a.label} | ${a.ms} | ${a.max} |`);
    out(`| of which the GraphQL answer (both directions, measured from Node.js) | | ${median(api)} | ${Math.max(...api)} |`);
    const b = await measure(url(largest.id));
    out(`| lineage of ${largest.nodes} nodes, default cap | ${b.label} | ${b.ms} | ${b.max} |`);
    const c = await measure(url(largest.id, 10_000));
    out(`| lineage of ${largest.nodes} nodes, all drawn (&cap=10000) | ${c.label} | ${c.ms} | ${c.max} |`);
    // Show more, then a zoom on the full canvas: time until the next frame after the click.
    await paint(page, url(largest.id));
    const t = Date.now();
    await page.getByRole('button', { name: 'Show more' }).click();
    await page.getByTestId('node-count').filter({ hasText: /^600 of/ }).waitFor({ timeout: 120_000 });
    await page.waitForSelector('[data-laid-out="true"] .react-flow__node');
    out(`| "Show more" on that lineage (300 → 600 drawn) | ${await page.getByTestId('node-count').innerText()} | ${Date.now() - t} | |`);
    await paint(page, url(largest.id, 10_000));
    const zooms: number[] = [];
    for (let i = 0; i < 5; i++) {
      const z = Date.now();
      await page.locator('.react-flow__controls-zoomout').click();
      await page.evaluate(() => new Promise((r) => (globalThis as any).requestAnimationFrame(() => (globalThis as any).requestAnimationFrame(r)))); // eslint-disable-line @typescript-eslint/no-explicit-any
      zooms.push(Date.now() - z);
    }
    out(`| zoom out on the ${largest.nodes}-node canvas (click to painted frame) | all | ${median(zooms)} | ${Math.max(...zooms)} |`);
    out();
    out('Bundle (dist/web/assets): ' + fs.readdirSync(path.join(__dirname, '..', 'web', 'assets')).map((f) => `${f} ${(fs.statSync(path.join(__dirname, '..', 'web', 'assets', f)).size / 1024).toFixed(0)} KiB`).join(', '));
    await browser.close();
    fs.writeFileSync(path.join(__dirname, '..', '..', 'bench', 'EXPLORER.md'), `${lines.join('\n')}\n`);
  } finally {
    await app.close();
    await neo4j?.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
