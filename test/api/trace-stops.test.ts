import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetId, jobId } from '../../src/ids';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * Why a trace stops, beyond the seed stack's OTHER_NAME and ORIGIN (test/api/seed-stack.test.ts):
 * a writer its producer does not report (a job that reads and reports no output, whose SQL names
 * the table), a job named after the table, the end of lineage downstream, and a stop that is only a
 * bound (depth) is not a stop.
 */
let svc: TestService;
let ns: string;
before(async () => {
  svc = await startService();
  ns = uniquePrefix('stops');
  const sql = (query: string) => ({ sql: { _producer: 'test', _schemaURL: 'test', query } });
  const events = [
    runEvent(ns, { job: 'report', inputs: ['lake.daily_sales'], outputs: ['out'] }),
    runEvent(ns, { job: 'loader', inputs: ['src'], jobFacets: sql('INSERT INTO `lake`.`daily_sales` SELECT * FROM src') }),
    runEvent(ns, { job: 'daily-sales-writer', inputs: ['other'] }),
    // One common word is no evidence: this job is not a candidate.
    runEvent(ns, { job: 'sales', inputs: ['other2'] }),
    runEvent(ns, { job: 'step1', inputs: ['x'], outputs: ['y'] }),
    runEvent(ns, { job: 'step2', inputs: ['y'], outputs: ['z'] }),
    // Names the search index cannot take: no letter or digit, one word of 900 characters (Lucene takes 200), unicode.
    runEvent(ns, { job: 'odd', inputs: ['!!!', 'w'.repeat(900), 'données.été'], outputs: ['odd_out'] }),
  ];
  for (const e of events) assert.equal((await svc.postEvent(e)).status, 201);
});
after(() => svc.close());

const stops = async (id: string, direction: string, depth = 5) => {
  const res = await svc.graphql(
    `query($id: ID!) { trace(nodeId: $id, direction: ${direction}, depth: ${depth}) { truncated stops { datasetId reason explanation candidates { id kind strength evidence rule } } } }`,
    { id },
  );
  assert.equal(res.errors, undefined, JSON.stringify(res.errors));
  return res.data.trace;
};

describe('where a trace stops, and why', () => {
  it('names the job whose producer does not report the output: its SQL names the table (STRONG), its name holds the words (MEDIUM)', async () => {
    const t = await stops(datasetId(ns, 'out'), 'UPSTREAM');
    assert.equal(t.stops.length, 1);
    const [s] = t.stops;
    assert.equal(s.datasetId, datasetId(ns, 'lake.daily_sales'));
    assert.equal(s.reason, 'UNREPORTED_WRITER');
    assert.deepEqual(s.candidates.map((c: any) => [c.id, c.kind, c.strength, c.rule]), [
      [jobId(ns, 'loader'), 'JOB', 'STRONG', null],
      [jobId(ns, 'daily-sales-writer'), 'JOB', 'MEDIUM', null],
    ]);
    assert.deepEqual(s.candidates[0].evidence, ['its SQL names lake.daily_sales', `it reads ${datasetId(ns, 'src')} and reports no output (other)`]);
    assert.match(s.explanation, new RegExp(`^Lineage stops at lake.daily_sales \\(${ns}\\): no job reports writing it\\. ${jobId(ns, 'loader').replace(/[.]/g, '\\.')} reads and reports no output, and its SQL names lake\\.daily_sales: its producer does not report this output\\.$`));
  });

  it('says where lineage ends downstream', async () => {
    const t = await stops(datasetId(ns, 'lake.daily_sales'), 'DOWNSTREAM');
    assert.deepEqual(t.stops.map((s: any) => [s.datasetId, s.reason]), [[datasetId(ns, 'out'), 'END']]);
    assert.match(t.stops[0].explanation, /^Lineage ends at out .*: nothing Tributary knows reads it/);
  });

  it('reports no stop where only the depth ends the trace', async () => {
    const t = await stops(datasetId(ns, 'z'), 'UPSTREAM', 1);
    assert.equal(t.truncated, true);
    assert.deepEqual(t.stops, []);
    assert.deepEqual((await stops(datasetId(ns, 'z'), 'UPSTREAM', 2)).stops.map((s: any) => [s.datasetId, s.reason]), [[datasetId(ns, 'x'), 'ORIGIN']]);
  });

  it('explains stops at names the search index cannot take (no word, a huge word, unicode) as origins, never an error', async () => {
    const t = await stops(datasetId(ns, 'odd_out'), 'UPSTREAM');
    assert.deepEqual(
      t.stops.map((s: any) => [s.datasetId, s.reason]),
      [datasetId(ns, '!!!'), datasetId(ns, 'données.été'), datasetId(ns, 'w'.repeat(900))].sort().map((id) => [id, 'ORIGIN']),
    );
  });
});
