import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetId, fieldId, jobId } from '../../src/ids';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * Browsing without knowing a name (namespaces, datasets, jobs) and Relay's node(id), against
 * events ingested into namespaces of this test only: one with ':' and '%' in it (escaped in ids),
 * one that is a prefix of another, and one in Japanese.
 */
let svc: TestService;
let root: string;
let warehouse: string; // a namespace that is a string prefix of `warehouseArchive`
let warehouseArchive: string;
let kafka: string;
let unicode: string;
const runIds: string[] = [];

before(async () => {
  svc = await startService();
  root = uniquePrefix('browse');
  warehouse = `${root}wh`;
  warehouseArchive = `${root}wh:archive`;
  kafka = `${root}kafka://b%1:9092`;
  unicode = `${root}倉庫`;
  const events = [
    runEvent(warehouse, { job: 'load_b', outputs: ['b_table', 'a_table'], eventTime: '2024-05-01T10:00:00.000Z' }),
    runEvent(warehouse, { job: 'load_c', inputs: ['a_table'], outputs: ['c_table'], eventTime: '2024-05-03T10:00:00.000Z', columns: { c_table: { id: ['a_table.id'] } } }),
    runEvent(warehouse, { job: 'load_d', inputs: ['c_table'], outputs: ['d_table'], eventTime: '2024-05-02T10:00:00.000Z' }),
    runEvent(warehouseArchive, { job: 'archive', outputs: ['old'] }),
    runEvent(kafka, { job: 'connector', outputs: ['orders:v1'] }),
    runEvent(unicode, { job: '集計', outputs: ['売上'] }),
  ];
  for (const e of events) {
    runIds.push(e.run.runId);
    assert.equal((await svc.postEvent(e)).status, 201);
  }
});
after(() => svc.close());

type Page<T> = { total: number; items: T[]; pageInfo: { endCursor: string | null; hasNextPage: boolean } };

async function gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await svc.graphql(query, variables);
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  return res.data as T;
}

/** Every page of a paged query, following endCursor. */
async function allPages<T>(query: string, field: string, variables: Record<string, unknown>): Promise<{ items: T[]; pages: number; totals: number[] }> {
  const items: T[] = [];
  const totals: number[] = [];
  let after: string | null = null;
  let pages = 0;
  for (;;) {
    const page: Page<T> = (await gql<Record<string, Page<T>>>(query, { ...variables, after }))[field]!;
    pages++;
    items.push(...page.items);
    totals.push(page.total);
    if (!page.pageInfo.hasNextPage) break;
    assert.ok(page.pageInfo.endCursor, 'a page followed by more has an endCursor');
    after = page.pageInfo.endCursor;
    assert.ok(pages < 10_000, 'paging ends');
  }
  return { items, pages, totals };
}

const DATASETS = `query($ns: String, $first: Int!, $after: String, $order: BrowseOrder!) {
  datasets(namespace: $ns, first: $first, after: $after, orderBy: $order) { total items { id name namespace lastSeen } pageInfo { endCursor hasNextPage } } }`;
const JOBS = `query($ns: String, $first: Int!, $after: String, $order: BrowseOrder!) {
  jobs(namespace: $ns, first: $first, after: $after, orderBy: $order) { total items { id name namespace lastSeen } pageInfo { endCursor hasNextPage } } }`;

describe('browse: namespaces, datasets, jobs', () => {
  it('namespaces: every page in name order, ours with their dataset and job counts', async () => {
    const { items } = await allPages<{ name: string; datasetCount: number; jobCount: number }>(
      `query($first: Int!, $after: String) { namespaces(first: $first, after: $after) { total items { name datasetCount jobCount } pageInfo { endCursor hasNextPage } } }`,
      'namespaces',
      { first: 1000 },
    );
    const names = items.map((n) => n.name);
    assert.deepEqual(names, [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), 'ordered by name');
    assert.equal(new Set(names).size, names.length, 'each once');
    const ours = Object.fromEntries(items.filter((n) => n.name.startsWith(root)).map((n) => [n.name, [n.datasetCount, n.jobCount]]));
    assert.deepEqual(ours, { [warehouse]: [4, 3], [warehouseArchive]: [1, 1], [kafka]: [1, 1], [unicode]: [1, 1] });
  });

  it('datasets of one namespace (exact: not those of a namespace it prefixes), by name, in pages of 1 and of 500', async () => {
    const expected = ['a_table', 'b_table', 'c_table', 'd_table'].map((n) => datasetId(warehouse, n));
    const small = await allPages<{ id: string }>(DATASETS, 'datasets', { ns: warehouse, first: 1, order: 'NAME' });
    assert.deepEqual(small.items.map((d) => d.id), expected);
    assert.equal(small.pages, 4);
    assert.deepEqual(small.totals, [4, 4, 4, 4]);
    const big = await allPages<{ id: string }>(DATASETS, 'datasets', { ns: warehouse, first: 500, order: 'NAME' });
    assert.deepEqual(big.items.map((d) => d.id), expected);
    const archive = await gql<{ datasets: Page<{ id: string; name: string; namespace: string }> }>(DATASETS, { ns: warehouseArchive, first: 10, order: 'NAME' });
    assert.deepEqual(archive.datasets.items.map((d) => [d.namespace, d.name]), [[warehouseArchive, 'old']]);
  });

  it('LAST_SEEN orders by the latest event naming the dataset, newest first', async () => {
    const { items } = await allPages<{ name: string; lastSeen: string }>(DATASETS, 'datasets', { ns: warehouse, first: 3, order: 'LAST_SEEN' });
    // a_table and c_table last named on May 3 (ties by id), d_table on May 2, b_table only on May 1.
    assert.deepEqual(items.map((d) => d.name), ['a_table', 'c_table', 'd_table', 'b_table']);
    assert.ok(items[0]!.lastSeen >= items[1]!.lastSeen);
  });

  it('namespaces with ":" "%" and unicode, and jobs by name', async () => {
    const k = await gql<{ datasets: Page<{ id: string; name: string }> }>(DATASETS, { ns: kafka, first: 5, order: 'NAME' });
    assert.deepEqual(k.datasets.items.map((d) => d.id), [datasetId(kafka, 'orders:v1')]);
    const u = await gql<{ jobs: Page<{ id: string; name: string }> }>(JOBS, { ns: unicode, first: 5, order: 'NAME' });
    assert.deepEqual(u.jobs.items.map((j) => [j.id, j.name]), [[jobId(unicode, '集計'), '集計']]);
    const w = await allPages<{ id: string }>(JOBS, 'jobs', { ns: warehouse, first: 2, order: 'NAME' });
    assert.deepEqual(w.items.map((j) => j.id), ['load_b', 'load_c', 'load_d'].map((n) => jobId(warehouse, n)));
  });

  it('all datasets (no namespace): ours among them, in id order across pages', async () => {
    const page = await gql<{ datasets: Page<{ id: string }> }>(DATASETS, { ns: null, first: 500, order: 'NAME' });
    const ids = page.datasets.items.map((d) => d.id);
    assert.deepEqual(ids, [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    assert.ok(page.datasets.total >= 7, `total ${page.datasets.total}`);
    const ours = ids.filter((id) => id.startsWith(`dataset:${root}`));
    if (page.datasets.total <= 500) assert.equal(ours.length, 7, 'every dataset of this test is listed');
  });

  it('an unknown namespace is an empty page, not an error', async () => {
    const empty = await gql<{ datasets: Page<unknown> }>(DATASETS, { ns: `${root}nothing`, first: 5, order: 'NAME' });
    assert.deepEqual(empty.datasets, { total: 0, items: [], pageInfo: { endCursor: null, hasNextPage: false } });
  });

  it('refuses page sizes out of range and cursors it did not make, with BAD_INPUT and a reason', async () => {
    for (const [query, variables, pattern] of [
      [DATASETS, { ns: warehouse, first: 0, order: 'NAME' }, /first must be between 1 and 500/],
      [DATASETS, { ns: warehouse, first: 501, order: 'NAME' }, /first must be between 1 and 500/],
      [JOBS, { ns: warehouse, first: -1, order: 'NAME' }, /first must be between 1 and 500/],
      [`query { namespaces(first: 1001) { total } }`, {}, /first must be between 1 and 1000/],
      [DATASETS, { ns: warehouse, first: 5, order: 'NAME', after: 'bm9wZQ' }, /invalid cursor/],
      [DATASETS, { ns: warehouse, first: 5, order: 'NAME', after: Buffer.from('offset:99999999999999999999').toString('base64url') }, /invalid cursor/],
    ] as [string, Record<string, unknown>, RegExp][]) {
      const res = await svc.graphql(query, variables);
      assert.equal(res.errors?.[0]?.extensions?.code, 'BAD_INPUT', JSON.stringify(res));
      assert.match(res.errors![0].message, pattern);
    }
    const order = await svc.graphql(DATASETS, { ns: warehouse, first: 5, order: 'SIZE' });
    assert.ok(order.errors?.[0], 'an unknown order is refused by validation');
  });

  it('a cursor past the end gives an empty last page', async () => {
    const res = await gql<{ datasets: Page<unknown> }>(DATASETS, { ns: warehouse, first: 5, order: 'NAME', after: Buffer.from('offset:1000').toString('base64url') });
    assert.deepEqual(res.datasets, { total: 4, items: [], pageInfo: { endCursor: null, hasNextPage: false } });
  });
});

describe('node(id)', () => {
  const NODE = `query($id: ID!) { node(id: $id) { __typename id ... on Dataset { name namespace } ... on Job { name } ... on Run { state } ... on DatasetField { name dataset { id } } } }`;

  it('answers any kind by its exact id, with its type', async () => {
    const cases: [string, string][] = [
      [datasetId(kafka, 'orders:v1'), 'Dataset'],
      [jobId(unicode, '集計'), 'Job'],
      [`run:${runIds[1]}`, 'Run'],
      [fieldId(warehouse, 'c_table', 'id'), 'DatasetField'],
    ];
    for (const [id, type] of cases) {
      const { node } = await gql<{ node: { __typename: string; id: string } }>(NODE, { id });
      assert.equal(node?.__typename, type, id);
      assert.equal(node.id, id);
    }
    const field = await gql<{ node: { dataset: { id: string } } }>(NODE, { id: fieldId(warehouse, 'c_table', 'id') });
    assert.equal(field.node.dataset.id, datasetId(warehouse, 'c_table'));
  });

  it('null for a well-formed id of nothing; BAD_INPUT for a malformed one', async () => {
    for (const id of [datasetId(root, 'missing'), jobId(root, 'missing'), 'run:00000000-0000-4000-8000-000000000000', fieldId(warehouse, 'c_table', 'missing')]) {
      assert.equal((await gql<{ node: unknown }>(NODE, { id })).node, null, id);
    }
    for (const id of ['dataset:only-one', 'table:x:y', '', 'run:not-a-uuid', 'x'.repeat(100_000)]) {
      const res = await svc.graphql(NODE, { id });
      assert.equal(res.errors?.[0]?.extensions?.code, 'BAD_INPUT', `${id.slice(0, 40)}: ${JSON.stringify(res).slice(0, 300)}`);
    }
  });

  it('several lookups of different kinds in one request each answer their own id', async () => {
    const ids = [datasetId(warehouse, 'a_table'), datasetId(warehouse, 'b_table'), jobId(warehouse, 'load_c'), fieldId(warehouse, 'c_table', 'id')];
    const query = `query { ${ids.map((id, i) => `n${i}: node(id: ${JSON.stringify(id)}) { id }`).join(' ')} }`;
    const data = await gql<Record<string, { id: string }>>(query);
    assert.deepEqual(ids.map((_, i) => data[`n${i}`]!.id), ids);
  });
});
