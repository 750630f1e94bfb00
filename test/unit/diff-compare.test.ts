import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { causeOf, compare, reportsNeeded, toSnapshot, unversioned, withReports, type Provenance, type Report, type SnapshotRow } from '../../src/lineage/diff-compare';
import { ChangeCause, IoDirection } from '../../src/lineage/types';

/** The pure part of the lineage diff: snapshots from rows, changes between them, causes. */

const out = (over: Partial<SnapshotRow>): SnapshotRow => ({
  jobId: 'job:ns:j',
  namespace: 'ns',
  engine: 'spark',
  direction: IoDirection.OUTPUT,
  datasetId: 'dataset:ns:d',
  runId: 'run:1',
  recorded: true,
  decidedRunId: 'run:1',
  decidedRecorded: true,
  cllFields: ['a'],
  cllWhole: false,
  reportedFields: 2,
  anyCll: true,
  anyFields: 2,
  anyWithInputs: 1,
  ...over,
});
const T = '2024-01-01T00:00:00.000Z';
const prov = (over: Partial<Provenance>): Provenance => ({
  runId: 'run:1',
  producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.37.0/integration/spark',
  engineName: 'spark',
  engineVersion: '3.5.9',
  adapterVersion: '1.37.0',
  codeSig: 'abc',
  ...over,
});

describe('lineage diff (pure)', () => {
  it('blanks versions in producer URIs, nothing else', () => {
    assert.equal(unversioned('https://github.com/OpenLineage/OpenLineage/tree/1.53.0/integration/spark'), 'https://github.com/OpenLineage/OpenLineage/tree/*/integration/spark');
    assert.equal(unversioned('https://github.com/apache/airflow/providers-openlineage/2.1.0rc1'), 'https://github.com/apache/airflow/providers-openlineage/*');
    assert.equal(unversioned('dbt-ol@v1.2'), 'dbt-ol@*');
    assert.equal(unversioned('https://example.com/spark2/job'), 'https://example.com/spark2/job');
  });

  it('names the first difference between the deciding runs as the cause', () => {
    const a = prov({});
    assert.equal(causeOf(a, prov({ producer: a.producer!.replace('1.37.0', '1.53.0') })), ChangeCause.PRODUCER_VERSION_CHANGED);
    assert.equal(causeOf(a, prov({ producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.37.0/integration/flink' })), ChangeCause.PRODUCER_CHANGED);
    assert.equal(causeOf(a, prov({ producer: null })), ChangeCause.PRODUCER_CHANGED);
    assert.equal(causeOf(a, prov({ adapterVersion: '1.38.0' })), ChangeCause.PRODUCER_VERSION_CHANGED);
    assert.equal(causeOf(a, prov({ engineVersion: '4.0.0' })), ChangeCause.ENGINE_VERSION_CHANGED);
    assert.equal(causeOf(a, prov({ codeSig: 'def' })), ChangeCause.JOB_CODE_CHANGED);
    assert.equal(causeOf(a, prov({ runId: 'run:2' })), ChangeCause.UNKNOWN);
  });

  it('column level from the deciding run when recorded; at current time from the kept figures', () => {
    const dropped = out({ decidedRunId: 'run:2', cllFields: [], anyCll: true });
    assert.equal(toSnapshot([dropped], T, false).edges.values().next().value!.columnLevel, false);
    assert.equal(toSnapshot([dropped], null, false).edges.values().next().value!.columnLevel, true, 'at null: what coverage keeps');
    const legacy = out({ decidedRecorded: false, cllFields: null, anyCll: false });
    assert.equal(toSnapshot([legacy], T, false).edges.values().next().value!.columnLevel, false);
    const whole = out({ cllFields: [], cllWhole: true });
    const e = toSnapshot([whole], T, false).edges.values().next().value!;
    assert.deepEqual([e.columnLevel, e.outputFields, e.fieldsWithInputs], [true, 2, 2]);
    // As coverage counts it: dataset-level dependencies into an output with no known field give no field an input.
    const wholeNoFields = out({ reportedFields: 0, cllFields: [], cllWhole: true });
    assert.equal(toSnapshot([wholeNoFields], T, false).edges.values().next().value!.columnLevel, false);
  });

  const pair = JSON.stringify(['datasetField:ns:s:x', 'a']);
  const report = (runId: string, fields: string[], cllPairs: string[]): Report => ({ runId, datasetId: 'dataset:ns:d', direction: IoDirection.OUTPUT, fields, cllPairs });

  it('reads reports only where runs differ; a run that reported the same gives no change; an unrecorded run is counted, not guessed', () => {
    const a = toSnapshot([out({})], T, false);
    const same = toSnapshot([out({})], T, false);
    assert.deepEqual(reportsNeeded(a, same), [], 'same runs: nothing to read');
    const b = toSnapshot([out({ runId: 'run:2', decidedRunId: 'run:2' })], T, false);
    assert.deepEqual(reportsNeeded(a, b).map((r) => r.runId).sort(), ['run:1', 'run:2']);
    const reports = [report('run:1', ['a', 'b'], [pair]), report('run:2', ['a', 'b'], [pair])];
    withReports(a, reports);
    withReports(b, reports);
    assert.deepEqual(compare(a, b), { changes: [], unrecorded: 0 });
    const legacy = toSnapshot([out({ runId: 'run:0', recorded: false, decidedRunId: 'run:0', decidedRecorded: false })], T, false);
    assert.deepEqual(reportsNeeded(legacy, a), []);
    assert.equal(compare(legacy, a).unrecorded, 1);
  });

  it('a field and a field edge gone between two runs; an empty schema report says nothing about fields', () => {
    const a = toSnapshot([out({})], T, false);
    const b = toSnapshot([out({ runId: 'run:2', decidedRunId: 'run:2' })], T, false);
    withReports(a, [report('run:1', ['a', 'b'], [pair])]);
    withReports(b, [report('run:2', ['a'], [])]);
    assert.deepEqual(compare(a, b).changes.map((c) => [c.kind, c.field]), [['FIELD_DISAPPEARED', 'b'], ['FIELD_EDGE_DISAPPEARED', 'a']]);
    const c = toSnapshot([out({ runId: 'run:3', decidedRunId: 'run:1' })], T, false);
    withReports(c, [report('run:3', [], []), report('run:1', ['a', 'b'], [pair])]);
    assert.deepEqual(compare(a, c).changes, []);
  });
});
