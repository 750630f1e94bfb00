import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetId, jobId } from '../../src/ids';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * Search over the naming styles real producers use (dbt-ol on duckdb, Spark jobs and warehouse
 * paths, Debezium/Kafka topics, Iceberg catalog tables, BigQuery and Snowflake tables): the whole
 * name, any prefix, any segment between `.`, `/`, `:` and any word between `_`/`-` find the entity,
 * ranked EXACT > PREFIX > SEGMENT > WORD.
 */
let svc: TestService;
let ns: string;
const at = (suffix: string) => `${ns}${suffix}`;

before(async () => {
  svc = await startService();
  ns = uniquePrefix('search');
  const events = [
    // dbt-ol (dbt-duckdb): datasets and jobs named <database>.<schema>.<model>.
    runEvent(at('duckdb://eval'), { job: 'eval_shop.main.paid_orders', inputs: ['eval_shop.main.orders'], outputs: ['eval_shop.main.paid_orders'] }),
    // openlineage-spark: job <app>.<plan node>.<output>, datasets as warehouse paths.
    runEvent(at('file'), { job: 'orders_by_country.adaptive_spark_plan.warehouse_revenue_by_country', inputs: ['/tmp/sparkcap/raw/orders'], outputs: ['/tmp/sparkcap/warehouse/revenue_by_country'] }),
    // Debezium topic, Iceberg catalog table, BigQuery and Snowflake tables.
    runEvent(at('kafka://broker:9092'), { job: 'debezium-inventory-connector', outputs: ['dbserver1.inventory.orders'] }),
    runEvent(at('iceberg://catalog'), { job: 'flink-events-sink', outputs: ['db.events'] }),
    runEvent(at('bigquery'), { job: 'sessions-daily', outputs: ['my-project.analytics.daily_sessions'] }),
    runEvent(at('snowflake://acct.us-east-1.aws'), { job: 'orders-loader', outputs: ['ANALYTICS.PUBLIC.CUSTOMER_ORDERS'] }),
    // For the ranking: exact, prefix, segment and word matches of "orders".
    runEvent(at('rank'), { job: 'rank-feeder', outputs: ['orders', 'orders_daily', 'shop.orders', 'paid_orders'] }),
    // openlineage-spark over an Iceberg Hadoop catalog: the table's path, its catalog name in `symlinks`.
    runEvent(at('file'), {
      job: 'revenue_summary.append_data_exec_v1.lake_shop_revenue_summary',
      outputs: ['/seed/warehouse/shop/revenue_summary'],
      datasetFacets: {
        '/seed/warehouse/shop/revenue_summary': {
          schema: { _producer: 'test', _schemaURL: 'test', fields: [{ name: 'region', type: 'string' }, { name: 'revenue', type: 'double' }] },
          symlinks: { _producer: 'test', _schemaURL: 'test', identifiers: [{ namespace: at('file:/seed/warehouse'), name: 'shop.revenue_summary', type: 'TABLE' }] },
        },
      },
    }),
  ];
  for (const e of events) assert.equal((await svc.postEvent(e)).status, 201);
});
after(() => svc.close());

type Hit = { id: string; kind: string; match: string; namespace: string | null; otherNames: string[] };
/** Every hit of this file's namespaces, in rank order: pages through all hits (the database is shared, other files' names rank too). */
async function search(text: string, kinds = '[DATASET, JOB]'): Promise<Hit[]> {
  const hits: Hit[] = [];
  let after: string | null = null;
  for (let page = 0; page < 50; page++) {
    const res: { data?: any; errors?: unknown[] } = await svc.graphql(
      `query($t: String!, $after: String) { search(text: $t, kinds: ${kinds}, first: 100, after: $after) { hits { id kind match namespace datasetId otherNames } pageInfo { endCursor hasNextPage } } }`,
      { t: text, after },
    );
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    hits.push(...(res.data.search.hits as (Hit & { datasetId: string | null })[]).filter((h) => (h.namespace ?? h.datasetId)?.includes(ns)));
    if (!res.data.search.pageInfo.hasNextPage) return hits;
    after = res.data.search.pageInfo.endCursor;
  }
  throw new Error(`more than 5,000 hits for "${text}"`);
}
const matchOf = async (text: string, id: string) => (await search(text)).find((h) => h.id === id)?.match ?? 'not found';

describe('search across naming styles', () => {
  it('dbt: a model and its job by the model name, a segment, a prefix, or its words', async () => {
    const model = datasetId(at('duckdb://eval'), 'eval_shop.main.paid_orders');
    const job = jobId(at('duckdb://eval'), 'eval_shop.main.paid_orders');
    assert.equal(await matchOf('paid_orders', model), 'SEGMENT');
    assert.equal(await matchOf('paid_orders', job), 'SEGMENT');
    assert.equal(await matchOf('eval_shop.main.paid_orders', model), 'EXACT');
    assert.equal(await matchOf('EVAL_SHOP.main', model), 'PREFIX');
    assert.equal(await matchOf('main.orders', datasetId(at('duckdb://eval'), 'eval_shop.main.orders')), 'SEGMENT');
    assert.equal(await matchOf('paid orders', model), 'WORD');
  });

  it('Spark: a job by its plan node, a warehouse path by its last directory', async () => {
    assert.equal(await matchOf('adaptive_spark_plan', jobId(at('file'), 'orders_by_country.adaptive_spark_plan.warehouse_revenue_by_country')), 'SEGMENT');
    assert.equal(await matchOf('revenue_by_country', datasetId(at('file'), '/tmp/sparkcap/warehouse/revenue_by_country')), 'SEGMENT');
    assert.equal(await matchOf('/tmp/sparkcap/raw', datasetId(at('file'), '/tmp/sparkcap/raw/orders')), 'PREFIX');
  });

  it('Kafka, Iceberg, BigQuery, Snowflake: segments, prefixes, words; case does not matter', async () => {
    assert.equal(await matchOf('inventory.orders', datasetId(at('kafka://broker:9092'), 'dbserver1.inventory.orders')), 'SEGMENT');
    assert.equal(await matchOf('events', datasetId(at('iceberg://catalog'), 'db.events')), 'SEGMENT');
    assert.equal(await matchOf('daily_sessions', datasetId(at('bigquery'), 'my-project.analytics.daily_sessions')), 'SEGMENT');
    assert.equal(await matchOf('my-project', datasetId(at('bigquery'), 'my-project.analytics.daily_sessions')), 'PREFIX');
    assert.equal(await matchOf('customer_orders', datasetId(at('snowflake://acct.us-east-1.aws'), 'ANALYTICS.PUBLIC.CUSTOMER_ORDERS')), 'SEGMENT');
    assert.equal(await matchOf('analytics.public.customer_orders', datasetId(at('snowflake://acct.us-east-1.aws'), 'ANALYTICS.PUBLIC.CUSTOMER_ORDERS')), 'EXACT');
    assert.equal(await matchOf('inventory-connector', jobId(at('kafka://broker:9092'), 'debezium-inventory-connector')), 'WORD');
  });

  it('ranks exact, then prefix, then segment, then word matches', async () => {
    const ranked = (await search('orders')).filter((h) => h.namespace === at('rank')).map((h) => [h.id, h.match]);
    assert.deepEqual(ranked, [
      [datasetId(at('rank'), 'orders'), 'EXACT'],
      [datasetId(at('rank'), 'orders_daily'), 'PREFIX'],
      [datasetId(at('rank'), 'shop.orders'), 'SEGMENT'],
      [datasetId(at('rank'), 'paid_orders'), 'WORD'],
    ]);
  });

  it('one hit per dataset: a table path and its catalog name (symlinks) are one hit with the other name beside it, fields too', async () => {
    const path = datasetId(at('file'), '/seed/warehouse/shop/revenue_summary');
    const catalog = datasetId(at('file:/seed/warehouse'), 'shop.revenue_summary');
    const datasets = (await search('revenue_summary', '[DATASET]')).map((h) => [h.id, h.match, h.otherNames]);
    // The catalog name matches as a segment (after `.`), the path as a segment (after `/`): one hit, the better-scored name.
    assert.equal(datasets.length, 1, JSON.stringify(datasets));
    const [id, , others] = datasets[0] as [string, string, string[]];
    assert.deepEqual([id, ...others].sort(), [catalog, path].sort());
    const fields = (await search('revenue', '[FIELD]')).filter((h) => h.id.includes('revenue_summary'));
    assert.equal(fields.length, 1, JSON.stringify(fields));
    assert.deepEqual([fields[0]!.id, ...fields[0]!.otherNames].sort(), [`datasetField:${catalog.slice('dataset:'.length)}:revenue`, `datasetField:${path.slice('dataset:'.length)}:revenue`].sort());
    // The job's name holds the word too, and is a hit of its own.
    assert.equal((await search('revenue_summary', '[JOB]')).length, 1);
  });
});

describe('search on a graph of wide tables', () => {
  it('ranks among the 2,000 most relevant matches and says so (capped), names starting with the text among them; kinds without FIELD are not crowded out by fields', async () => {
    const word = `wq${Date.now().toString(36)}`;
    const wide = `${ns}wide`;
    // 2,050 fields whose names hold the word, then (indexed after them, so Lucene's ties would rank
    // it last) a table named exactly the word.
    const fields = Array.from({ length: 2_050 }, (_, i) => ({ name: `${word}_${i}`, type: 'string' }));
    const schema = { _producer: 'test', _schemaURL: 'test', fields };
    assert.equal((await svc.postEvent(runEvent(wide, { job: 'widen', outputs: ['wide_table'], datasetFacets: { wide_table: { schema } } }))).status, 201);
    assert.equal((await svc.postEvent(runEvent(wide, { job: 'name', outputs: [word] }))).status, 201);
    const ask = async (kinds: string) => {
      const res: { data?: any; errors?: unknown[] } = await svc.graphql(
        `query($t: String!) { search(text: $t, kinds: ${kinds}, first: 5) { total capped hits { id kind match } } }`,
        { t: word },
      );
      assert.equal(res.errors, undefined, JSON.stringify(res.errors));
      return res.data.search as { total: number; capped: boolean; hits: { id: string; kind: string; match: string }[] };
    };
    const all = await ask('[DATASET, JOB, FIELD]');
    assert.equal(all.capped, true);
    assert.equal(all.total, 2_000);
    assert.deepEqual(all.hits[0], { id: datasetId(wide, word), kind: 'DATASET', match: 'EXACT' });
    const tables = await ask('[DATASET]');
    assert.equal(tables.capped, false);
    assert.deepEqual(tables.hits.map((h) => h.id), [datasetId(wide, word)]);
    assert.equal(tables.total, 1);
  });
});
