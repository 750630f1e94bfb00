import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { loadQueries, Query } from '../../src/graph/queries';
import { datasetId, jobId } from '../../src/ids';
import { Metrics } from '../../src/metrics';
import { SqlDeclarer } from '../../src/sql/declarer';
import { SqlParsePool } from '../../src/sql/parse-pool';
import { startService, type TestService } from '../support/app';
import { dumpNamespaces } from '../support/dump';
import { seedDelivery, type SeedDelivery } from '../support/seed-stack';

/**
 * The SQL declarer on the real graph: the seed stack's openlineage-spark 1.53 capture (a Delta
 * MERGE whose source subquery reads an Iceberg table openlineage-spark names only in column lineage), then hostile
 * statements (5 MB, nested 10,000 deep, a dialect without a grammar, a syntax error, unicode names),
 * a statement that changes and one that goes away. Each round runs on the test's own job namespaces.
 */
let svc: TestService;
let seed: SeedDelivery;
let declarer: SqlDeclarer;
const metrics = new Metrics(false);
const ns = `t-sql-${randomBytes(4).toString('hex')}`;
/** The namespace as an unquoted SQL identifier (Trino's grammar has no '-' in one). */
const db = `${ns.replace(/-/g, '_')}_db`;

const DECL = `query($id: ID!) { job(id: $id) { sql sqlDeclaration { status dialect dialectFrom reason message parsedAt
  tables { role name line column start end reported resolved { datasetId strength dataset { id } } } } } }`;
async function declaration(id: string): Promise<any> {
  const r = await svc.graphql(DECL, { id });
  assert.equal(r.errors, undefined, JSON.stringify(r.errors));
  return r.data.job.sqlDeclaration;
}
const sqlEvent = (name: string, sqlFacet: Record<string, unknown> | null, extra: Record<string, unknown> = {}) => ({
  eventType: 'COMPLETE',
  eventTime: new Date().toISOString(),
  producer: 'https://tributary.test/sql',
  schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
  run: { runId: randomUUID() },
  job: { namespace: ns, name, facets: sqlFacet ? { sql: { _producer: 'https://tributary.test/sql', _schemaURL: 'https://openlineage.io/spec/facets/1-1-0/SQLJobFacet.json', ...sqlFacet } } : {} },
  inputs: [],
  outputs: [],
  ...extra,
});
async function send(events: unknown[]): Promise<void> {
  const res = await svc.post('/api/v1/lineage/batch', JSON.stringify(events), { 'Tributary-Wait': 'projected' });
  assert.equal(res.body.summary?.failed, 0, JSON.stringify(res.body));
}

before(async () => {
  svc = await startService();
  seed = seedDelivery(randomBytes(3).toString('hex'));
  await send(seed.events);
  declarer = new SqlDeclarer(svc.app.executor, new SqlParsePool({ timeoutMs: 20_000, coldTimeoutMs: 60_000, maxQueue: 100 }), 0, metrics);
});
after(async () => {
  await declarer?.stop();
  await svc?.close();
});

describe('the SQL declarer', () => {
  it("declares the Iceberg table a Delta MERGE reads in its USING subquery (absent from the event's inputs, named by its column lineage), with its position; reported tables are marked so; the graph's reported lineage is untouched", async () => {
    const spark = `spark-batch-${seed.tag}`;
    const before = await dumpNamespaces(svc.app, spark);
    const out = await declarer.round(spark);
    assert.ok(out && out.parsed >= 7 && out.unparsed === 0, JSON.stringify(out));
    assert.deepEqual(await dumpNamespaces(svc.app, spark), before, 'declared lineage is kept apart: the projected subgraph is the same');

    const merge = await declaration(jobId(spark, 'region_targets.execute_merge_into_command.region_targets'));
    assert.deepEqual([merge.status, merge.dialect, merge.dialectFrom, merge.reason], ['PARSED', 'spark', 'sql facet dialect spark', null]);
    const byName = Object.fromEntries(merge.tables.map((t: any) => [t.name, t]));
    assert.deepEqual(Object.keys(byName).sort(), [`lake${seed.tag}.shop.revenue_summary`, 'region_targets']);
    const target = byName.region_targets;
    assert.deepEqual([target.role, target.line, target.column, target.reported], ['OUTPUT', 1, 11, true], 'the MERGE target, which the event lists');
    const source = byName[`lake${seed.tag}.shop.revenue_summary`];
    // Not in the event's `inputs`, but its columnLineage names the table's fields, so Tributary projects it as read: reported.
    assert.deepEqual([source.role, source.line, source.reported], ['INPUT', 2, true], JSON.stringify(source));
    const sql: string = (await svc.graphql(DECL, { id: jobId(spark, 'region_targets.execute_merge_into_command.region_targets') })).data.job.sql;
    assert.equal(sql.slice(source.start, source.end), `lake${seed.tag}.shop.revenue_summary`, 'the position is the evidence');
    // Resolved by qualified name (shop.revenue_summary): the Iceberg table under its path and its catalog name
    // (one logical dataset: STRONG). Other deliveries in the shared database hold a shop.revenue_summary too:
    // then the name is ambiguous and every candidate MEDIUM.
    const own = [datasetId('file', seed.name('<wd>/warehouse/shop/revenue_summary')), datasetId(`file:${seed.name('<wd>/warehouse')}`, 'shop.revenue_summary')];
    const ids = source.resolved.map((r: any) => r.datasetId);
    assert.ok(own.every((id) => ids.includes(id)), JSON.stringify(ids));
    const expected = ids.every((id: string) => own.includes(id)) ? 'STRONG' : 'MEDIUM';
    assert.ok(source.resolved.every((r: any) => r.strength === expected), JSON.stringify(source.resolved));
    assert.ok(source.resolved.every((r: any) => r.dataset?.id === r.datasetId));
    // A one-part name resolves by the table name alone (MEDIUM): Spark's current database is not in the statement.
    assert.ok(target.resolved.length > 0 && target.resolved.every((r: any) => r.strength === 'MEDIUM'), JSON.stringify(target.resolved));

    const ctas = await declaration(jobId(spark, 'region_performance.atomic_replace_table_as_select.default_region_performance'));
    assert.deepEqual(
      ctas.tables.map((t: any) => [t.role, t.name, t.reported]),
      [['OUTPUT', 'region_performance', true], ['INPUT', `lake${seed.tag}.shop.revenue_summary`, true], ['INPUT', 'region_targets', true]],
    );
    // Nothing changed: the next round parses nothing and rewrites no resolution.
    const again = await declarer.round(spark);
    assert.deepEqual([again?.parsed, again?.unparsed, again?.removed], [0, 0, 0]);
  });

  it('records what it cannot parse with the reason, never a guess: 5 MB, 10,000 brackets deep, a dialect without a grammar, a syntax error', async () => {
    const huge = `SELECT * FROM t WHERE x IN (${'1,'.repeat(2_600_000)}1)`;
    const deep = `SELECT ${'('.repeat(10_000)}1${')'.repeat(10_000)}`;
    await send([
      sqlEvent('huge', { query: huge, dialect: 'spark' }),
      sqlEvent('deep', { query: deep, dialect: 'spark' }),
      sqlEvent('duck', { query: 'CREATE TABLE main.orders AS SELECT * FROM read_csv_auto(\'o.csv\')', dialect: 'duckdb' }),
      sqlEvent('broken', { query: 'INSERT INTO lake.db.out SELEC a FROM lake.db.in', dialect: 'spark' }),
      sqlEvent('unicode', { query: 'INSERT INTO `données`.`résumé_ventes` SELECT * FROM `données`.`ventes_日本`', dialect: 'spark' }),
    ]);
    assert.ok(huge.length > 5_000_000);
    const out = await declarer.round(ns);
    assert.deepEqual([out?.parsed, out?.unparsed], [1, 4], JSON.stringify(out));
    const reasons: Record<string, unknown[]> = {};
    for (const name of ['huge', 'deep', 'duck', 'broken']) {
      const d = await declaration(jobId(ns, name));
      reasons[name] = [d.status, d.reason, d.tables.length];
      assert.ok(d.message, name);
    }
    assert.deepEqual(reasons, {
      huge: ['UNPARSED', 'TOO_LARGE', 0],
      deep: ['UNPARSED', 'TOO_DEEP', 0],
      duck: ['UNPARSED', 'UNKNOWN_DIALECT', 0],
      broken: ['UNPARSED', 'SYNTAX', 0],
    });
    assert.match((await declaration(jobId(ns, 'duck'))).message, /sql facet dialect duckdb/);
    const uni = await declaration(jobId(ns, 'unicode'));
    assert.deepEqual(uni.tables.map((t: any) => [t.role, t.name, t.resolved]), [['OUTPUT', 'données.résumé_ventes', []], ['INPUT', 'données.ventes_日本', []]]);
    const text = await metrics.registry.metrics();
    assert.match(text, /tributary_sql_statements_total\{status="unparsed",reason="TOO_LARGE"\} [1-9]/);
    assert.match(text, /tributary_sql_declarer_rounds_total\{outcome="ok"\} [1-9]/);

    // No dialect said, no engine that is one: the namespaces of the datasets it reads and writes name it.
    const pg = `postgres://${ns}:5432`;
    await send([sqlEvent('pg', { query: 'INSERT INTO s.daily SELECT d, count(*) FROM s.events GROUP BY d' }, { inputs: [{ namespace: pg, name: 'db.s.events' }], outputs: [{ namespace: pg, name: 'db.s.daily' }] })]);
    await declarer.round(ns);
    const byPg = await declaration(jobId(ns, 'pg'));
    assert.deepEqual([byPg.status, byPg.dialect, byPg.dialectFrom, byPg.tables.map((t: any) => [t.role, t.name, t.reported])], [
      'PARSED', 'postgresql', 'dataset namespace postgres', [['OUTPUT', 's.daily', true], ['INPUT', 's.events', true]],
    ]);
  });

  it('follows the statement: a new version is parsed again, a table that appears later is resolved then, a deleted facet takes its declaration away', async () => {
    await send([sqlEvent('moving', { query: `INSERT INTO ${db}.${db}_later SELECT * FROM ${db}.${db}_first`, dialect: 'trino' })]);
    await declarer.round(ns);
    const v1 = await declaration(jobId(ns, 'moving'));
    assert.deepEqual(v1.tables.map((t: any) => [t.role, t.name, t.resolved.length]), [['OUTPUT', `${db}.${db}_later`, 0], ['INPUT', `${db}.${db}_first`, 0]]);
    // Another producer reports the output table (its own namespace): the next round resolves the name.
    await send([sqlEvent('writer', null, { outputs: [{ namespace: `${ns}-warehouse`, name: `${db}.${db}_later` }] })]);
    const r = await declarer.round(ns);
    assert.ok(r && r.resolved >= 1, JSON.stringify(r));
    const v1b = await declaration(jobId(ns, 'moving'));
    assert.deepEqual(v1b.tables[0].resolved.map((x: any) => [x.datasetId, x.strength]), [[datasetId(`${ns}-warehouse`, `${db}.${db}_later`), 'STRONG']]);

    // A second warehouse holds the same db.table: the name is ambiguous, so MEDIUM, and not followed.
    await send([sqlEvent('writer2', null, { outputs: [{ namespace: `${ns}-warehouse2`, name: `${db}.${db}_later` }] })]);
    await declarer.round(ns);
    assert.deepEqual((await declaration(jobId(ns, 'moving'))).tables[0].resolved.map((x: any) => [x.datasetId, x.strength]), [
      [datasetId(`${ns}-warehouse2`, `${db}.${db}_later`), 'MEDIUM'],
      [datasetId(`${ns}-warehouse`, `${db}.${db}_later`), 'MEDIUM'],
    ]);

    await send([sqlEvent('moving', { query: `INSERT INTO ${db}.${db}_other SELECT 1`, dialect: 'trino' })]);
    assert.equal(await declaration(jobId(ns, 'moving')), null, 'not parsed yet: the old statement is not shown for the new one');
    await declarer.round(ns);
    assert.deepEqual((await declaration(jobId(ns, 'moving'))).tables.map((t: any) => t.name), [`${db}.${db}_other`]);

    const gone = sqlEvent('moving', null);
    (gone.job.facets as Record<string, unknown>).sql = { _producer: 'https://tributary.test/sql', _schemaURL: 'https://openlineage.io/spec/facets/1-1-0/SQLJobFacet.json', _deleted: true };
    await send([gone]);
    const out = await declarer.round(ns);
    assert.equal(out?.removed, 1);
    assert.equal(await declaration(jobId(ns, 'moving')), null);
  });

  it("explains a trace's stop by the SQL that declares the missing edge, and follows it with evidence ALL (never a MEDIUM guess)", async () => {
    const wh = `${ns}-wh`;
    const sneakySql = `INSERT INTO ${db}.enriched SELECT * FROM ${db}.hidden JOIN ${db}.src USING (id)`;
    const ds = (name: string) => ({ namespace: wh, name });
    await send([
      // A sink job: reads `src`, reports no output, its statement writes `landed`.
      sqlEvent('sink', { query: `INSERT INTO ${db}.landed SELECT * FROM ${db}.src`, dialect: 'flink' }, { inputs: [ds(`${db}.src`)] }),
      sqlEvent('consumer', null, { inputs: [ds(`${db}.landed`)], outputs: [ds(`${db}.report`)] }),
      // A job whose statement reads `hidden` which its events do not list; and `hidden`'s writer.
      sqlEvent('sneaky', { query: sneakySql, dialect: 'spark' }, { inputs: [ds(`${db}.src`)], outputs: [ds(`${db}.enriched`)] }),
      sqlEvent('maker', null, { outputs: [ds(`${db}.hidden`)] }),
      // A one-part name resolves MEDIUM at most: listed as a candidate, never followed.
      sqlEvent('vague', { query: 'INSERT INTO landed SELECT 1', dialect: 'spark' }),
    ]);
    await declarer.round(ns);
    const Q = `query($report: ID!, $hidden: ID!) {
      up: trace(nodeId: $report) { hops { fromId jobId evidence } stops { datasetId reason explanation candidates { id strength evidence } } }
      upAll: trace(nodeId: $report, evidence: ALL) { hops { fromId toId jobId granularity evidence declared { role name line column } } }
      down: trace(nodeId: $hidden, direction: DOWNSTREAM) { hops { toId } stops { datasetId reason explanation candidates { id strength } } }
      downAll: trace(nodeId: $hidden, direction: DOWNSTREAM, evidence: ALL) { hops { fromId toId jobId evidence declared { role name } } }
    }`;
    const r = await svc.graphql(Q, { report: datasetId(wh, `${db}.report`), hidden: datasetId(wh, `${db}.hidden`) });
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    const { up, upAll, down, downAll } = r.data;
    const [landed, src, enriched, hidden] = ['landed', 'src', 'enriched', 'hidden'].map((n) => datasetId(wh, `${db}.${n}`));

    assert.deepEqual(up.hops.map((h: any) => [h.fromId, h.jobId, h.evidence]), [[landed, jobId(ns, 'consumer'), 'REPORTED']]);
    const [stop] = up.stops;
    assert.deepEqual([stop.datasetId, stop.reason], [landed, 'UNREPORTED_WRITER']);
    assert.equal(
      stop.explanation,
      `Lineage stops at ${db}.landed (${wh}): no job reports writing it. ${jobId(ns, 'sink')} reported no output; its SQL writes ${db}.landed (line 1, column 12): DECLARED lineage, which trace(evidence: ALL) follows.`,
    );
    const byId = Object.fromEntries(stop.candidates.map((c: any) => [c.id, c]));
    assert.equal(byId[jobId(ns, 'sink')].strength, 'STRONG');
    assert.match(byId[jobId(ns, 'sink')].evidence[0], /^its SQL writes .*\.landed \(line 1, column 12\), resolved to this dataset by its qualified name$/);
    assert.equal(byId[jobId(ns, 'vague')]?.strength, 'MEDIUM', JSON.stringify(stop.candidates));

    assert.deepEqual(upAll.hops.map((h: any) => [h.fromId, h.toId, h.jobId, h.evidence, h.declared]), [
      [landed, datasetId(wh, `${db}.report`), jobId(ns, 'consumer'), 'REPORTED', []],
      [src, landed, jobId(ns, 'sink'), 'DECLARED', [{ role: 'OUTPUT', name: `${db}.landed`, line: 1, column: 12 }]],
    ], 'the MEDIUM one-part name is not followed');

    assert.deepEqual(down.hops, []);
    assert.deepEqual([down.stops[0].datasetId, down.stops[0].reason], [hidden, 'UNREPORTED_READER']);
    assert.match(down.stops[0].explanation, /'s SQL reads .*\.hidden \(line 1, column \d+\), though its events do not list it/);
    assert.deepEqual(downAll.hops.map((h: any) => [h.fromId, h.toId, h.jobId, h.evidence, h.declared.map((d: any) => [d.role, d.name])]), [
      [hidden, enriched, jobId(ns, 'sneaky'), 'DECLARED', [['INPUT', `${db}.hidden`]]],
    ]);

    // Dataset lineage: the declared write is an edge of its own evidence, only with ALL; never the MEDIUM one.
    const L = `query($id: ID!, $ev: Evidence!) { lineage(nodeId: $id, direction: UPSTREAM, depth: 2, evidence: $ev) {
      edges { type fromId toId evidence statement { role name line column } } } }`;
    const [rep, everything] = await Promise.all(['REPORTED', 'ALL'].map((ev) => svc.graphql(L, { id: landed, ev })));
    assert.equal(everything.errors, undefined, JSON.stringify(everything.errors));
    assert.deepEqual(rep.data.lineage.edges, []);
    assert.deepEqual(everything.data.lineage.edges, [
      { type: 'FEEDS', fromId: src, toId: jobId(ns, 'sink'), evidence: 'REPORTED', statement: null },
      { type: 'PRODUCES', fromId: jobId(ns, 'sink'), toId: landed, evidence: 'DECLARED', statement: { role: 'OUTPUT', name: `${db}.landed`, line: 1, column: 12 } },
    ]);
    const downL = await svc.graphql(L.replace('UPSTREAM', 'DOWNSTREAM'), { id: hidden, ev: 'ALL' });
    assert.deepEqual(downL.data.lineage.edges.map((e: any) => [e.type, e.fromId, e.toId, e.evidence, e.statement?.role ?? null]), [
      ['FEEDS', hidden, jobId(ns, 'sneaky'), 'DECLARED', 'INPUT'],
      ['PRODUCES', jobId(ns, 'sneaky'), enriched, 'REPORTED', null],
    ]);

    // Coverage counts the declared output apart (the STRONG one only), never as a reported edge.
    const cov = await svc.graphql('query($ns: String) { coverage(scope: NAMESPACE, value: $ns) { overall { edges declaredEdges } byJob { key edges declaredEdges } } }', { ns });
    assert.equal(cov.errors, undefined, JSON.stringify(cov.errors));
    assert.equal(cov.data.coverage.overall.declaredEdges, 1);
    const byJob = Object.fromEntries(cov.data.coverage.byJob.map((f: any) => [f.key, [f.edges, f.declaredEdges]]));
    assert.deepEqual([byJob[jobId(ns, 'sink')], byJob[jobId(ns, 'vague')], byJob[jobId(ns, 'sneaky')]], [[0, 1], undefined, [1, 0]]);

    // lineageBreaks pairs the SOURCE `landed` with the sink job's statement, and the SINK `hidden` with sneaky's.
    const br = await svc.graphql('query($ns: String) { lineageBreaks(namespace: $ns) { sources { id } sinks { id } declaredJobs { datasetId role jobId direction strength name line column silent } } }', { ns: wh });
    assert.equal(br.errors, undefined, JSON.stringify(br.errors));
    const b = br.data.lineageBreaks;
    assert.ok(b.sources.some((x: any) => x.id === landed) && b.sinks.some((x: any) => x.id === hidden), JSON.stringify(b));
    assert.deepEqual(b.declaredJobs, [
      { datasetId: hidden, role: 'SINK', jobId: jobId(ns, 'sneaky'), direction: 'INPUT', strength: 'STRONG', name: `${db}.hidden`, line: 1, column: sneakySql.indexOf(`${db}.hidden`), silent: false },
      { datasetId: landed, role: 'SOURCE', jobId: jobId(ns, 'sink'), direction: 'OUTPUT', strength: 'STRONG', name: `${db}.landed`, line: 1, column: 12, silent: true },
      { datasetId: landed, role: 'SOURCE', jobId: jobId(ns, 'vague'), direction: 'OUTPUT', strength: 'MEDIUM', name: 'landed', line: 1, column: 12, silent: true },
    ]);
  });

  it('resolves a table once when two rounds write at once (two workers\' declarers)', async () => {
    // Last: its job's declared output would count in the namespace's coverage above.
    // The second transaction runs while the first is uncommitted: it must wait for the first's
    // lock and find its relationship, not create another (CREATE did: two RESOLVES).
    await send([sqlEvent('racer', { query: `INSERT INTO ${db}.${db}_raced SELECT 1`, dialect: 'trino' })]);
    await declarer.round(ns);
    await send([sqlEvent('racer-writer', null, { outputs: [{ namespace: `${ns}-warehouse3`, name: `${db}.${db}_raced` }] })]);
    const key = `${db}.${db}_raced`; // a SqlTable's key: its lower-cased name (write-declared.cypher)
    const params = { rows: [{ key, targets: [{ datasetId: datasetId(`${ns}-warehouse3`, `${db}.${db}_raced`), strength: 'STRONG' }] }], orphans: [] };
    const text = loadQueries()[Query.WriteResolutions];
    const first = svc.app.driver.session();
    const second = svc.app.driver.session();
    try {
      const tx1 = await first.beginTransaction();
      await tx1.run(text, params);
      const tx2 = await second.beginTransaction();
      const running = tx2.run(text, params).then(() => tx2.commit());
      await new Promise((r) => setTimeout(r, 300));
      await tx1.commit();
      await running;
    } finally {
      await first.close();
      await second.close();
    }
    const resolved = (await declaration(jobId(ns, 'racer'))).tables[0].resolved.map((x: any) => [x.datasetId, x.strength]);
    assert.deepEqual(resolved, [[datasetId(`${ns}-warehouse3`, `${db}.${db}_raced`), 'STRONG']]);
  });

  it('heals a table resolved twice to one dataset, as the CREATE of earlier versions left some stores', async () => {
    // After the test above: its table resolves once. A second relationship to the same dataset,
    // written here as the old query did, is rewritten by the next round to one.
    const key = `${db}.${db}_raced`;
    const target = datasetId(`${ns}-warehouse3`, key);
    const resolvedTo = async () => (await declaration(jobId(ns, 'racer'))).tables[0].resolved.map((x: any) => [x.datasetId, x.strength]);
    const session = svc.app.driver.session();
    try {
      await session.run("MATCH (s:SqlTable {key: $key}), (d:Dataset {id: $target}) CREATE (s)-[:RESOLVES {strength: 'STRONG'}]->(d)", { key, target });
    } finally {
      await session.close();
    }
    assert.deepEqual(await resolvedTo(), [[target, 'STRONG'], [target, 'STRONG']], 'the old state, made by hand');
    await declarer.round(ns);
    assert.deepEqual(await resolvedTo(), [[target, 'STRONG']]);
  });
});
