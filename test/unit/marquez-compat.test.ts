import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { derivedUuid, formatId, marquezId, marquezIdCandidates, MARQUEZ_ID_MAX_PARTS, UUID_PATTERN } from '../../src/ids';
import { EntityKind } from '../../src/lineage/types';
import { boolParam, enumListParam, enumParam, intParam, pageParams, ParamError, timeParam } from '../../src/marquez/params';
import { datasetShape, runState, transformationOf, type DatasetRow } from '../../src/marquez/shapes';
import { buckets, knownZone } from '../../src/marquez/stats';

/** The pure parts of Marquez's API on Tributary (src/marquez, src/ids.ts): ids, parameters, shapes, stats buckets. */
describe('Marquez node ids', () => {
  it('writes raw names and reads every split, Marquez’s URI heuristic first', () => {
    const ref = { kind: EntityKind.DATASET, namespace: 'postgres://db:5432', name: 'public.orders' } as const;
    assert.equal(marquezId(ref), 'dataset:postgres://db:5432:public.orders');
    const { kind, refs, version } = marquezIdCandidates('dataset:postgres://db:5432:public.orders');
    assert.equal(kind, EntityKind.DATASET);
    assert.equal(version, null);
    assert.deepEqual(refs[0], ref);
    assert.equal(refs.length, 3);
    assert.deepEqual(refs.map((r) => formatId(r)).includes('dataset:postgres%3A//db%3A5432:public.orders'), true);
  });

  it('splits field ids into namespace, dataset and field, names holding ":" included', () => {
    const { refs } = marquezIdCandidates('datasetField:kafka://b:9092:topic:a:b:col');
    assert.ok(refs.some((r) => r.kind === EntityKind.FIELD && r.namespace === 'kafka://b:9092' && r.name === 'topic:a:b' && r.field === 'col'));
    assert.deepEqual(refs[0], { kind: EntityKind.FIELD, namespace: 'kafka://b:9092', name: 'topic', field: 'a:b:col' });
  });

  it('keeps a version suffix apart and refuses what is no Marquez lineage id', () => {
    const uuid = '3f2a9c1e-0000-4000-8000-000000000001';
    assert.equal(marquezIdCandidates(`job:ns:etl#${uuid.toUpperCase()}`).version, uuid);
    for (const bad of ['run:' + uuid, 'foo:bar', 'dataset:onlyone', 'datasetField:a:b', '', `dataset:${'x:'.repeat(MARQUEZ_ID_MAX_PARTS)}y`]) {
      assert.throws(() => marquezIdCandidates(bad), (e: Error & { code?: string }) => e.code === 'BAD_INPUT', bad);
    }
  });

  it('derives stable version-5-style UUIDs', () => {
    assert.equal(derivedUuid('dataset:a:b#run:1'), derivedUuid('dataset:a:b#run:1'));
    assert.notEqual(derivedUuid('a'), derivedUuid('b'));
    for (const k of ['', 'a', 'ünï', 'x'.repeat(10_000)]) assert.match(derivedUuid(k), /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(derivedUuid('a'), UUID_PATTERN);
  });
});

describe('Marquez query parameters', () => {
  it('take ints with defaults, refuse negatives and garbage in Marquez’s words, cap pages', () => {
    assert.equal(intParam({}, 'depth', 20), 20);
    assert.equal(intParam({ depth: '3' }, 'depth', 20), 3);
    assert.throws(() => intParam({ limit: '-1' }, 'limit', 100), (e) => e instanceof ParamError && /greater than or equal to 0/.test(e.message));
    assert.throws(() => intParam({ limit: '1e3' }, 'limit', 100), ParamError);
    assert.deepEqual(pageParams({ limit: '5000' }), { limit: 1000, offset: 0, capped: true });
    assert.deepEqual(pageParams({}, 10), { limit: 10, offset: 0, capped: false });
  });

  it('take enums and booleans in any case, enums repeated', () => {
    assert.equal(enumParam({ type: 'job' }, 'type', ['JOB', 'RUN'] as const), 'JOB');
    assert.throws(() => enumParam({ type: 'x' }, 'type', ['JOB'] as const), ParamError);
    assert.throws(() => enumParam({}, 'type', ['JOB'] as const, true), /must not be null/);
    assert.deepEqual(enumListParam({ s: ['running', 'FAILED'] }, 's', ['RUNNING', 'FAILED'] as const), ['RUNNING', 'FAILED']);
    assert.equal(boolParam({ w: 'False' }, 'w', true), false);
    assert.equal(boolParam({ w: 'TRUE' }, 'w', false), true);
    assert.throws(() => boolParam({ w: 'yes' }, 'w', false), ParamError);
  });

  it('read times with an offset, or without one as UTC (the UI sends local time labelled Z)', () => {
    assert.equal(timeParam({ t: '2025-03-27T07:32:36+02:00' }, 't', ''), '2025-03-27T05:32:36.000Z');
    assert.equal(timeParam({ t: '2025-03-27T07:32:36' }, 't', ''), '2025-03-27T07:32:36.000Z');
    assert.equal(timeParam({}, 't', 'dflt'), 'dflt');
    assert.throws(() => timeParam({ t: 'yesterday' }, 't', ''), ParamError);
  });
});

describe('Marquez shapes', () => {
  it('maps OpenLineage event types to Marquez run states', () => {
    assert.deepEqual(['START', 'RUNNING', 'COMPLETE', 'FAIL', 'ABORT', 'OTHER', null].map(runState), ['RUNNING', 'RUNNING', 'COMPLETED', 'FAILED', 'ABORTED', 'OTHER', 'NEW']);
  });

  it('reads Marquez’s transformation type and description from the spec 1-2-0 list or the deprecated form', () => {
    assert.deepEqual(transformationOf(JSON.stringify([{ type: 'INDIRECT', subtype: 'FILTER' }, { type: 'DIRECT', subtype: 'AGGREGATION', description: 'sum' }])), {
      transformationDescription: 'sum',
      transformationType: 'AGGREGATION',
    });
    assert.deepEqual(transformationOf(JSON.stringify([{ type: 'IDENTITY', description: 'copy', deprecatedForm: true }])), { transformationDescription: 'copy', transformationType: 'IDENTITY' });
    assert.deepEqual(transformationOf(null), { transformationDescription: null, transformationType: null });
    assert.deepEqual(transformationOf('not json'), { transformationDescription: null, transformationType: null });
  });

  it('writes columnLineage null (never []) and orders fields as the schema facet lists them', () => {
    const row: DatasetRow = {
      dataset: {
        id: 'dataset:ns:t', namespace: 'ns', name: 't', description: null, sourceName: null, lifecycleState: 'DROP', firstSeen: 'a', lastSeen: 'b',
        facets: [['schema', JSON.stringify({ fields: [{ name: 'z' }, { name: 'a' }] })]],
      },
      fields: [{ name: 'a', type: null, description: null, tags: [] }, { name: 'extra', type: null, description: null, tags: [] }, { name: 'z', type: 'INT', description: null, tags: ['PII'] }],
      tags: [], hidden: false, latestWrite: null, columnLineage: [], inputFacets: [['dataQualityAssertions', JSON.stringify({ assertions: [] })], ['schema', '{}']],
    };
    const d = datasetShape(row);
    assert.equal(d.columnLineage, null);
    assert.equal(d.deleted, true);
    assert.equal(d.sourceName, 'default');
    assert.equal(d.currentVersion, null);
    assert.deepEqual((d.fields as { name: string }[]).map((f) => f.name), ['z', 'a', 'extra']);
    // Input facets of the latest read are merged in under the dataset's own.
    assert.deepEqual(Object.keys(d.facets as object).sort(), ['dataQualityAssertions', 'schema']);
    assert.deepEqual((d.facets as { schema: unknown }).schema, { fields: [{ name: 'z' }, { name: 'a' }] });
  });
});

describe('Marquez stats buckets', () => {
  it('DAY: 24 hours up to the end of the current UTC hour', () => {
    const b = buckets('DAY', new Date('2025-03-27T07:32:36Z'), null);
    assert.equal(b.length, 24);
    assert.equal(b[23]!.start, '2025-03-27T07:00:00.000Z');
    assert.equal(b[23]!.end, '2025-03-27T08:00:00.000Z');
    assert.equal(b[0]!.start, '2025-03-26T08:00:00.000Z');
  });

  it('WEEK: 7 local days in the zone, across a daylight-saving change', () => {
    const b = buckets('WEEK', new Date('2025-03-31T12:00:00Z'), 'Europe/Berlin');
    assert.equal(b.length, 7);
    assert.equal(b[6]!.start, '2025-03-30T22:00:00.000Z'); // 31 March 00:00 CEST
    assert.equal(b[6]!.end, '2025-03-31T22:00:00.000Z');
    assert.equal(b[5]!.start, '2025-03-29T23:00:00.000Z'); // 30 March 00:00 CET, a 23-hour day
    assert.equal(b[5]!.end, b[6]!.start);
    assert.equal(knownZone('Mars/Olympus'), false);
    assert.equal(knownZone('America/Los_Angeles'), true);
  });
});
