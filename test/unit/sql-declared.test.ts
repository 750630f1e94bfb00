import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { MAX_SQL_CHARS } from '../../src/sql/declared-tables';
import { dialectOf } from '../../src/sql/dialects';
import { SqlParsePool } from '../../src/sql/parse-pool';
import { repoRoot } from '../support/corpus';

/**
 * Tables declared in SQL, parsed with dt-sql-parser in the pool's worker thread: the statements
 * openlineage-spark 1.53.0 captured in the seed stack (spark.ndjson), the seed's Flink SQL
 * statement, other dialects, and hostile statements (huge, deep, slow, unknown dialect, garbage).
 */
const pool = new SqlParsePool({ timeoutMs: 10_000, coldTimeoutMs: 60_000, maxQueue: 100 });
after(() => pool.close());

/** The sql facets of the seed stack's Spark capture, by the statement's first words. */
function capturedSpark(startsWith: string): string {
  for (const line of fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'seed-stack', 'spark.ndjson'), 'utf8').split('\n')) {
    const q = line && (JSON.parse(line) as { job?: { facets?: { sql?: { query?: string } } } }).job?.facets?.sql?.query;
    if (q && q.trim().startsWith(startsWith)) return q;
  }
  throw new Error(`no captured statement starts with ${startsWith}`);
}
const tables = (r: Awaited<ReturnType<SqlParsePool['parse']>>) => (r.status === 'PARSED' ? r.tables.map((t) => [t.role, t.name]) : r);

describe('tables declared in SQL', () => {
  it("finds the Delta MERGE's source that openlineage-spark leaves out of inputs, with where the statement names it", async () => {
    const merge = capturedSpark('MERGE INTO region_targets');
    const r = await pool.parse(merge, dialectOf('spark', 'spark').dialect);
    assert.deepEqual(tables(r), [['OUTPUT', 'region_targets'], ['INPUT', 'lake.shop.revenue_summary']]);
    const source = r.status === 'PARSED' ? r.tables[1]! : null;
    assert.equal(merge.slice(source!.start, source!.end), 'lake.shop.revenue_summary', 'the position points at the name');
  });

  it('reads CREATE TABLE AS SELECT, CTEs, UPDATE with a subquery, and the Flink SQL INSERT into Iceberg', async () => {
    assert.deepEqual(tables(await pool.parse(capturedSpark('CREATE OR REPLACE TABLE region_performance'), 'spark')), [
      ['OUTPUT', 'region_performance'],
      ['INPUT', 'lake.shop.revenue_summary'],
      ['INPUT', 'region_targets'],
    ]);
    assert.deepEqual(tables(await pool.parse('WITH x AS (SELECT * FROM a.b) INSERT INTO c SELECT * FROM x JOIN d ON x.id = d.id', 'spark')), [['INPUT', 'a.b'], ['OUTPUT', 'c'], ['INPUT', 'd']], 'a CTE is no table');
    assert.deepEqual(tables(await pool.parse('UPDATE shop.audit SET ok = true WHERE r IN (SELECT r FROM shop.other)', 'spark')), [['OUTPUT', 'shop.audit'], ['INPUT', 'shop.other']]);
    const flink = "INSERT INTO lake.shop.orders_by_country\nSELECT country, region, COUNT(*) AS orders, SUM(amount) AS revenue\nFROM enriched WHERE status = 'paid' GROUP BY country, region";
    assert.deepEqual(tables(await pool.parse(flink, 'flink')), [['OUTPUT', 'lake.shop.orders_by_country'], ['INPUT', 'enriched']]);
    assert.deepEqual(tables(await pool.parse('INSERT INTO analytics.daily SELECT d, count(*) FROM public.events e JOIN public.users u ON e.uid = u.id GROUP BY d', 'postgresql')), [
      ['OUTPUT', 'analytics.daily'],
      ['INPUT', 'public.events'],
      ['INPUT', 'public.users'],
    ]);
    assert.deepEqual(tables(await pool.parse('CREATE TABLE hive.s.t AS SELECT * FROM iceberg.s.src', 'trino')), [['OUTPUT', 'hive.s.t'], ['INPUT', 'iceberg.s.src']]);
  });

  it("takes Iceberg's catalog.db.table as the target of every write, which dt-sql-parser's Spark grammar refuses, with exact positions", async () => {
    const insert = capturedSpark('INSERT OVERWRITE lake.shop.revenue_summary');
    const r = await pool.parse(insert, 'spark');
    assert.deepEqual(tables(r), [['OUTPUT', 'lake.shop.revenue_summary'], ['INPUT', 'lake.shop.orders_by_country']]);
    for (const t of r.status === 'PARSED' ? r.tables : []) assert.equal(insert.slice(t.start, t.end), t.name);
    for (const [sql, name] of [
      [capturedSpark('CREATE TABLE IF NOT EXISTS lake.shop.revenue_audit'), 'lake.shop.revenue_audit'],
      [capturedSpark('UPDATE lake.shop.revenue_audit'), 'lake.shop.revenue_audit'],
      ['DELETE FROM lake.shop.x WHERE a = 1', 'lake.shop.x'],
      ['MERGE INTO lake.shop.x t USING s ON t.a = s.a WHEN MATCHED THEN DELETE', 'lake.shop.x'],
    ] as const) assert.deepEqual((tables(await pool.parse(sql, 'spark')) as string[][])[0], ['OUTPUT', name], sql);
    // Quoted parts keep their text; a three-part column path stays a column; a string is never a name.
    assert.deepEqual(tables(await pool.parse("INSERT INTO `my cat`.shop.`a``b` SELECT s.addr.city, 'x.y.z' FROM c1.d1.t1 s JOIN d2.t2 ON 1 = 1", 'spark')), [
      ['OUTPUT', 'my cat.shop.a`b'],
      ['INPUT', 'c1.d1.t1'],
      ['INPUT', 'd2.t2'],
    ]);
  });

  it('records what does not parse as unparsed, with the reason, never a guess', async () => {
    const r = await pool.parse('INSERT INTO lake.db.out SELEC a FROM lake.db.in', 'spark');
    assert.equal(r.status === 'UNPARSED' && r.reason, 'SYNTAX');
    assert.match(r.status === 'UNPARSED' ? r.message : '', /^line 1:\d+: /);
    assert.equal((await pool.parse('SELEC nonsense FROM', 'spark')).status, 'UNPARSED');
    const duckdb = dialectOf('duckdb', 'dbt');
    assert.deepEqual(duckdb, { dialect: null, from: 'sql facet dialect duckdb' });
    // No dialect said and an engine that is none (dbt): the datasets' namespaces, when they all name one.
    assert.deepEqual(dialectOf(null, 'dbt', ['postgres']), { dialect: 'postgresql', from: 'dataset namespace postgres' });
    assert.deepEqual(dialectOf(null, 'dbt', ['awsathena']), { dialect: 'trino', from: 'dataset namespace awsathena' });
    assert.deepEqual(dialectOf(null, 'dbt', ['postgres', 's3']), { dialect: null, from: 'engine dbt' }, 'mixed namespaces name no one dialect');
    assert.deepEqual(dialectOf(null, null, ['bigquery']), { dialect: null, from: 'no dialect and no engine' });
    assert.deepEqual(dialectOf('duckdb', 'dbt', ['postgres']).dialect, null, "the facet's dialect wins");
    assert.equal((await pool.parse('select 1', duckdb.dialect)).status === 'UNPARSED' && 'UNKNOWN_DIALECT', 'UNKNOWN_DIALECT');
  });

  it('refuses a 5 MB statement and deep nesting at once, gives up a slow one at its timeout, and goes on parsing after', async () => {
    const t0 = Date.now();
    const huge = await pool.parse(`INSERT INTO t SELECT ${'x, '.repeat(1_750_000)}y FROM s`, 'spark');
    assert.equal(huge.status === 'UNPARSED' && huge.reason, 'TOO_LARGE');
    const deep = await pool.parse(`SELECT ${'('.repeat(5_000)}1${')'.repeat(5_000)} FROM t`, 'spark');
    assert.equal(deep.status === 'UNPARSED' && deep.reason, 'TOO_DEEP');
    assert.ok(Date.now() - t0 < 1_000, 'refused without parsing');
    const impatient = new SqlParsePool({ timeoutMs: 50, coldTimeoutMs: 60_000, maxQueue: 10 });
    try {
      await impatient.parse('SELECT 1 FROM warm', 'spark');
      const slow = `SELECT * FROM (${Array.from({ length: 1500 }, (_, i) => `SELECT ${i} AS a FROM t${i}`).join(' UNION ALL ')}) u`;
      assert.ok(slow.length < MAX_SQL_CHARS);
      const r = await impatient.parse(slow, 'spark');
      assert.equal(r.status === 'UNPARSED' && r.reason, 'TIMEOUT');
      // A new worker (cold again) parses the next statement.
      assert.deepEqual(tables(await impatient.parse('INSERT INTO shop.b SELECT * FROM shop.a', 'spark')), [['OUTPUT', 'shop.b'], ['INPUT', 'shop.a']]);
    } finally {
      await impatient.close();
    }
  });

  it('answers many statements sent at once in order, and BUSY beyond its queue', async () => {
    const small = new SqlParsePool({ timeoutMs: 10_000, coldTimeoutMs: 60_000, maxQueue: 5 });
    try {
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => small.parse(`INSERT INTO s.out${i} SELECT * FROM s.in${i}`, 'spark')));
      assert.deepEqual(answers.map((a) => a.status), ['PARSED', 'PARSED', 'PARSED', 'PARSED', 'PARSED', 'PARSED', 'UNPARSED', 'UNPARSED']);
      assert.deepEqual(tables(answers[3]!), [['OUTPUT', 's.out3'], ['INPUT', 's.in3']]);
      assert.equal(answers[7]!.status === 'UNPARSED' && answers[7]!.reason, 'BUSY');
    } finally {
      await small.close();
    }
  });
});
