import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j from 'neo4j-driver';
import { PlanCompileWatch, StatementNames, type PlanCompile } from '../../src/graph/plan-compiles';
import { loadQueries, Query } from '../../src/graph/queries';
import { createLogger } from '../../src/log';
import { uniquePrefix } from '../support/isolate';
import { startService, type TestService } from '../support/app';

let svc: TestService;
before(async () => {
  svc = await startService();
});
after(() => svc.close());

/**
 * The embedded Neo4j's log of plan compiles (tools/neo4j/Launcher.java, tributary.planCompiles),
 * read by name (src/graph/plan-compiles.ts). Each case sends a parameter type no code sends (Neo4j
 * keys plans by parameter types), so its plan cannot be cached yet; other files compile meanwhile,
 * which only adds entries, so each assertion looks for its own.
 */
describe('plan compiles by name (against Neo4j)', () => {
  const lineageStart = { datasetId: null, jobId: null, fieldId: null, fieldDatasetId: null, fieldName: null };

  it('names the query that met a compile, in a clean transaction and after a write, and shows another client\'s statement as such', async (t) => {
    const seen: PlanCompile[] = [];
    const watch = new PlanCompileWatch(svc.app.executor, new StatementNames(loadQueries()), createLogger('error'), { intervalMs: 3_600_000, onCompile: (c) => void seen.push(c) });
    const baseline = await watch.check();
    if (baseline === null) return t.skip('this Neo4j keeps no log of plan compiles (NEO4J_URI names a server other than the embedded one)');
    assert.deepEqual(baseline, [], 'the first check only takes the baseline');

    // An integer and a date where the warm-up and every caller send strings or null.
    const unusual = new neo4j.types.Date(2024, 2, 29);
    await svc.app.executor.read(Query.NodeExists, { ...lineageStart, datasetId: neo4j.int(7), jobId: unusual });
    const session = svc.app.driver.session({ defaultAccessMode: neo4j.session.WRITE });
    try {
      const tx = session.beginTransaction();
      await tx.run(loadQueries()[Query.UncommittedWrite]);
      await tx.run(loadQueries()[Query.NodeExists], { ...lineageStart, datasetId: neo4j.int(7), jobId: unusual });
      await tx.rollback();
    } finally {
      await session.close();
    }
    const alias = uniquePrefix('planCompiles').replace(/[^A-Za-z0-9]/g, '_');
    await svc.app.driver.executeQuery(`RETURN $x AS ${alias}`, { x: 1 });

    const compiles = (await watch.check())!;
    assert.deepEqual(compiles, seen, 'each compile is reported');
    const mine = compiles.filter((c) => c.query === Query.NodeExists);
    assert.ok(mine.some((c) => !c.afterWrite && c.staleReason === null && /datasetId/.test(c.parameters)), JSON.stringify(compiles));
    assert.ok(mine.some((c) => c.afterWrite), `after a write: ${JSON.stringify(compiles)}`);
    const other = compiles.find((c) => c.statement.includes(alias));
    assert.ok(other, JSON.stringify(compiles));
    assert.equal(other.query, null);
    assert.ok(!compiles.some((c) => c.query?.startsWith('health/')), 'its own reading is not reported');
    assert.equal(watch.missed, 0);

    // Compiled once: the same shapes again compile nothing of theirs.
    await svc.app.executor.read(Query.NodeExists, { ...lineageStart, datasetId: neo4j.int(8), jobId: unusual });
    const again = (await watch.check())!;
    assert.ok(!again.some((c) => c.query === Query.NodeExists && !c.afterWrite), JSON.stringify(again));
    await watch.stop();
    assert.deepEqual(await watch.check(), [], 'nothing once stopped');
  });

  it('keys a call by the parameters its query uses: one the query does not name adds no plan', async (t) => {
    const watch = new PlanCompileWatch(svc.app.executor, new StatementNames(loadQueries()), createLogger('error'), { intervalMs: 3_600_000 });
    if ((await watch.check()) === null) return t.skip('this Neo4j keeps no log of plan compiles (NEO4J_URI names a server other than the embedded one)');
    // A shape of its own (a float where callers send strings or null), then the same call with
    // parameters node-exists does not name, of types nothing sends: Neo4j would key it apart.
    const params = { ...lineageStart, datasetId: 7.25 };
    await svc.app.executor.read(Query.NodeExists, params);
    const first = (await watch.check())!.filter((c) => c.query === Query.NodeExists && !c.afterWrite);
    assert.ok(first.some((c) => !/asOf|extra/.test(c.parameters)), JSON.stringify(first));
    await svc.app.executor.read(Query.NodeExists, { ...params, asOf: new neo4j.types.Date(2024, 2, 29), extra: [true] });
    const again = (await watch.check())!.filter((c) => c.query === Query.NodeExists);
    assert.deepEqual(again, [], 'the unused parameters were not sent');
    await watch.stop();
  });

  it('a /metrics scrape names every compile its counters count, not what the watch read up to 10 s before', async (t) => {
    const scrape = async () => (await fetch(`${svc.baseUrl}/metrics`)).text();
    const named = (text: string) => Number(/^tributary_plans_compiled_after_warmup_total\{query="lineage\/node-exists",cause="new"\} (\d+)/m.exec(text)?.[1] ?? 0);
    const plans = (text: string) => Number(/^tributary_neo4j_plans_compiled\{kind="plan"\} (\d+)/m.exec(text)?.[1] ?? NaN);
    if (!(await svc.app.compiles.start())) return t.skip('this Neo4j keeps no log of plan compiles (NEO4J_URI names a server other than the embedded one)');
    const before = await scrape();
    // A shape nothing else sends (a boolean where callers send strings or null): a compile of its own,
    // then at once a scrape, well inside the watch's 10 s between checks.
    await svc.app.executor.read(Query.NodeExists, { ...lineageStart, fieldName: true, datasetId: uniquePrefix('scrape') });
    const after = await scrape();
    assert.ok(plans(after) > plans(before), 'Neo4j counted the compile');
    assert.equal(named(after) - named(before), 1, 'the same scrape names it');
    const again = await scrape();
    assert.equal(named(again), named(after), 'counted once');

    // Concurrent scrapes right after another compile: each names it, none counts it twice.
    await svc.app.executor.read(Query.NodeExists, { ...lineageStart, fieldName: 1.5, datasetId: uniquePrefix('scrape') });
    const texts = await Promise.all(Array.from({ length: 10 }, scrape));
    assert.deepEqual(texts.map(named), texts.map(() => named(after) + 1));
  });
});
