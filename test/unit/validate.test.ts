import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError, ErrorCode } from '../../src/errors';
import { eventKindOf, normaliseEventTime, specVersionOf, validateEvent } from '../../src/ingest/validate';
import { docsOf, manifest } from '../support/corpus';
import { reasonOf } from '../../src/ingest/ndjson';
import { COMPLETE_REJECTIONS, CORPUS_OUTCOMES, REASON_CODES } from '../support/policy';

const minimal = () => ({
  eventType: 'START',
  eventTime: '2024-05-01T12:00:00Z',
  producer: 'https://example.com/producer',
  run: { runId: '3f5e83fa-3480-44ff-99c5-ff943904e5e8' },
  job: { namespace: 'ns', name: 'job' },
});

const problems = (doc: unknown): string[] => {
  try {
    validateEvent(doc);
    return [];
  } catch (e) {
    assert.ok(e instanceof AppError && e.code === ErrorCode.BAD_INPUT, 'validation fails only with BAD_INPUT');
    return e.details.map((d) => d.path);
  }
};

describe('event time normalisation (tolerance policy)', () => {
  it('converts offsets to UTC and keeps milliseconds', () => {
    assert.equal(normaliseEventTime('2020-12-28T19:52:00.001+10:00'), '2020-12-28T09:52:00.001Z');
    assert.equal(normaliseEventTime('2020-12-28T19:52:00.001-0530'), '2020-12-29T01:22:00.001Z');
    assert.equal(normaliseEventTime('2020-12-28T19:52:00Z'), '2020-12-28T19:52:00.000Z');
  });

  it('reads a time without an offset as UTC, as Marquez does', () => {
    assert.equal(normaliseEventTime('2020-12-28T19:51:01.641499'), '2020-12-28T19:51:01.641Z');
  });

  it('truncates nanoseconds to milliseconds', () => {
    assert.equal(normaliseEventTime('2020-12-28T19:51:01.641499123Z'), '2020-12-28T19:51:01.641Z');
  });

  it('rejects impossible dates', () => {
    assert.throws(() => normaliseEventTime('2020-13-28T19:51:01Z'), /invalid eventTime/);
    assert.deepEqual(problems({ ...minimal(), eventTime: 'yesterday' }), ['eventTime']);
  });
});

describe('event validation', () => {
  it('accepts the required-only event and reports its kind and spec version', () => {
    const v = validateEvent({ ...minimal(), schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent' });
    assert.equal(v.kind, 'RunEvent');
    assert.equal(v.specVersion, '2-0-2');
    assert.equal(v.eventTimeUtc, '2024-05-01T12:00:00.000Z');
  });

  it('accepts a dataset with an empty namespace (openlineage-flink 1.53 on Flink 2.2: an Iceberg sink table), never a job', () => {
    const doc = { ...minimal(), outputs: [{ namespace: '', name: 'lake.shop.orders_by_country' }] };
    assert.deepEqual(problems(doc), []);
    assert.deepEqual(problems({ ...doc, outputs: [{ namespace: '', name: '' }] }), ['outputs[0].name']);
  });

  it('names every offending field path', () => {
    const doc = { ...minimal(), run: { runId: 'run_id' }, job: { namespace: '', name: 'x' }, producer: 3 };
    assert.deepEqual(problems(doc).sort(), ['job.namespace', 'producer', 'run.runId']);
  });

  it('checks standard facets where Tributary reads them and keeps unknown facets opaque', () => {
    const withFacets = (facets: unknown) => ({ ...minimal(), outputs: [{ namespace: 'n', name: 'd', facets }] });
    assert.deepEqual(problems(withFacets({ schema: { fields: [{ type: 'int' }] } })), ['outputs[0].facets.schema.fields[0].name']);
    assert.deepEqual(problems(withFacets({ myCompanyFacet: { anything: [1, 2] } })), []);
    assert.deepEqual(problems(withFacets({ myCompanyFacet: 'not an object' })), ['outputs[0].facets.myCompanyFacet']);
    assert.deepEqual(problems(withFacets({ schema: { _deleted: true } })), []);
  });

  it('dispatches by schemaURL, then by shape', () => {
    assert.equal(eventKindOf({ schemaURL: 'https://openlineage.io/spec/2-0-0/OpenLineage.json#/$defs/JobEvent', run: {} }), 'JobEvent');
    assert.equal(eventKindOf({ dataset: {} }), 'DatasetEvent');
    assert.equal(eventKindOf({ job: {} }), 'JobEvent');
    assert.equal(eventKindOf({ run: {}, job: {} }), 'RunEvent');
    assert.equal(specVersionOf('https://openlineage.io/spec/1-0-5/OpenLineage.json#/definitions/RunEvent'), '1-0-5');
    assert.equal(specVersionOf(undefined), null);
  });
});

describe('corpus: complete events (tolerance policy)', () => {
  const complete = manifest().filter((r) => r.complete);

  it('has the 91 complete events the corpus README announces', () => {
    assert.equal(complete.reduce((n, r) => n + r.nEvents, 0), 91);
  });

  for (const row of complete) {
    const expected = COMPLETE_REJECTIONS[row.file];
    it(`${row.file}: ${expected ? `rejected at ${expected}` : 'accepted'}`, () => {
      for (const doc of docsOf(row.file)) {
        const paths = problems(doc.value);
        assert.deepEqual(paths, expected ? [expected] : []);
      }
    });
  }
});

describe('corpus: every event', () => {
  it('each of the 932 events is accepted or rejected with a documented reason, as the README tables say', () => {
    const counts: Record<string, number> = {};
    for (const row of manifest()) {
      for (const doc of docsOf(row.file)) {
        let key: string;
        try {
          key = `accepted ${validateEvent(doc.value).kind}`;
        } catch (e) {
          assert.ok(e instanceof AppError && e.code === ErrorCode.BAD_INPUT);
          assert.ok(e.details.every((d) => REASON_CODES.includes(d.reason!)), JSON.stringify(e.details));
          key = `rejected ${reasonOf(e.message, e.details)}`;
        }
        counts[key] = (counts[key] ?? 0) + 1;
      }
    }
    assert.equal(Object.values(counts).reduce((a, b) => a + b, 0), 932);
    assert.deepEqual(counts, CORPUS_OUTCOMES);
  });
});
