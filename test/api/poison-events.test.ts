import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetId, fieldId, jobId } from '../../src/ids';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * Poison events over HTTP (issue "Survive what production sends", points 3 and 4): each is a 400
 * with its reason and field path, costs its neighbours nothing (single requests sent together share
 * a group commit; a batch is per event), and the names at the limit are stored and found.
 */
let svc: TestService;
let ns: string;
before(async () => {
  svc = await startService();
  ns = uniquePrefix('poison');
});
after(() => svc.close());

const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const withFacetValue = (event: object, json: string) => JSON.stringify(event).replace('"v":0', `"v":${json}`);

describe('poison events', () => {
  const poisons = () => [
    ['NESTING_TOO_DEEP', 'run.facets.x.v', withFacetValue(runEvent(ns, { job: 'deep', runFacets: { x: { v: 0 } } }), deep(50_000))],
    ['NESTING_TOO_DEEP', 'run.facets.x.v', withFacetValue(runEvent(ns, { job: 'deep65', runFacets: { x: { v: 0 } } }), deep(65))],
    ['NAME_TOO_LONG', 'job.name', JSON.stringify(runEvent(ns, { job: 'n'.repeat(4096) }))],
    ['NAME_TOO_LONG', 'outputs[0].name', JSON.stringify(runEvent(ns, { job: 'colons', outputs: [':'.repeat(400)] }))],
    ['INVALID_FACET_KEY', 'run.facets.a\u0000b', JSON.stringify(runEvent(ns, { job: 'nul', runFacets: { 'a\u0000b': {} } }))],
    ['INVALID_FACET_KEY', 'job.facets.' + 'k'.repeat(201), JSON.stringify(runEvent(ns, { job: 'longkey', jobFacets: { ['k'.repeat(201)]: {} } }))],
    ['TOO_MANY_FACETS', 'run.facets', JSON.stringify(runEvent(ns, { job: 'many', runFacets: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, {}])) }))],
  ] as const;

  it('each is a 400 with its reason and path, never a 500', async () => {
    for (const [reason, path, body] of poisons()) {
      const res = await svc.post('/api/v1/lineage', body);
      assert.equal(res.status, 400, `${reason}: ${JSON.stringify(res.body).slice(0, 200)}`);
      assert.equal(res.body.error.code, 'BAD_INPUT');
      assert.equal(res.body.error.details[0].reason, reason);
      // Paths into deep nesting or through huge keys are cut at 120 characters.
      const given = res.body.error.details[0].path as string;
      assert.ok(given.startsWith(path.slice(0, 120)) && given.length <= 121, given);
    }
  });

  it('sent together with 20 valid events (one group commit), only the poison fails; in a batch, only its own index', async () => {
    for (let round = 0; round < 3; round++) {
      const valid = Array.from({ length: 20 }, (_, i) => JSON.stringify(runEvent(ns, { job: `ok-${round}-${i}`, outputs: ['t'] })));
      const all = [...valid.slice(0, 10), poisons()[0][2], ...valid.slice(10)];
      const answers = await Promise.all(all.map((b) => svc.post('/api/v1/lineage', b)));
      assert.deepEqual(
        answers.map((a) => a.status),
        all.map((_, i) => (i === 10 ? 400 : 201)),
      );
    }
    const batch = `[${JSON.stringify(runEvent(ns, { job: 'batch-ok' }))},${poisons()[0][2]},${poisons()[4][2]}]`;
    const res = await svc.post('/api/v1/lineage/batch', batch);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'partial_success');
    assert.deepEqual(
      res.body.failed_events.map((f: { index: number; details: { reason: string }[] }) => [f.index, f.details[0]!.reason]),
      [
        [1, 'NESTING_TOO_DEEP'],
        [2, 'INVALID_FACET_KEY'],
      ],
    );
  });

  it('names at the limit are stored and found by the ids a client computes', async () => {
    const name = 'ü'.repeat(450) + 'x'.repeat(99); // 999 bytes
    const field = 'f'.repeat(1000);
    const event = runEvent(ns, { job: name, outputs: [name], datasetFacets: { [name]: { schema: { _producer: 'p', _schemaURL: 's', fields: [{ name: field }] } } } });
    const res = await svc.post('/api/v1/lineage', JSON.stringify(event));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const found = await svc.graphql(`query($j: ID!, $d: ID!) { job(id: $j) { name } dataset(id: $d) { fields { id } } }`, {
      j: jobId(ns, name),
      d: datasetId(ns, name),
    });
    assert.equal(found.errors, undefined, JSON.stringify(found.errors));
    assert.equal(found.data.job.name, name);
    assert.deepEqual(found.data.dataset.fields, [{ id: fieldId(ns, name, field) }]);
  });

  it('keeps names as sent or says how they changed: job names exactly, dataset names trimmed with a step, lone surrogates and invalid UTF-8 refused', async () => {
    const event = runEvent(ns, { job: ' spaced job ', outputs: [' spaced table '] });
    assert.equal((await svc.postEvent(event)).status, 201);
    const found = await svc.graphql(
      `query($j: ID!, $d: ID!) { job(id: $j) { id name } dataset(id: $d) { id name } identity(id: $d) { names { source name steps { code } } } }`,
      { j: jobId(ns, ' spaced job '), d: datasetId(ns, ' spaced table ') },
    );
    assert.equal(found.errors, undefined, JSON.stringify(found.errors));
    assert.deepEqual(found.data.job, { id: jobId(ns, ' spaced job '), name: ' spaced job ' });
    // The dataset id a producer's spelling gives finds the trimmed node, and identity says why.
    assert.deepEqual(found.data.dataset, { id: datasetId(ns, 'spaced table'), name: 'spaced table' });
    assert.deepEqual(found.data.identity.names, [
      { source: 'CANONICAL', name: 'spaced table', steps: [] },
      { source: 'RAW', name: ' spaced table ', steps: [{ code: 'WHITESPACE' }] },
    ]);
    const lone = await svc.post('/api/v1/lineage', JSON.stringify(runEvent(ns, { job: 'lone\uD800' })));
    assert.equal(lone.status, 400);
    assert.deepEqual([lone.body.error.details[0].reason, lone.body.error.details[0].path], ['INVALID_NAME', 'job.name']);
    const bytes = Buffer.concat([Buffer.from(JSON.stringify(runEvent(ns, { job: 'bad-utf8-XX' })).split('XX')[0]!), Buffer.from([0xc3, 0x28]), Buffer.from('"}}')]);
    const invalid = await svc.post('/api/v1/lineage', bytes);
    assert.equal(invalid.status, 400, JSON.stringify(invalid.body));
    assert.match(invalid.body.error.message, /not valid UTF-8/);
    const bom = await svc.post('/api/v1/lineage', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(runEvent(ns, { job: 'bom' })))]));
    assert.equal(bom.status, 201, 'a leading byte-order mark is not part of the JSON text');
    const blank = await svc.post('/api/v1/lineage', JSON.stringify(runEvent(ns, { job: '   ' })));
    assert.equal(blank.status, 400);
  });

  it('an event dated far in the future is kept, and coverage over everything still answers, its trend ending now', async () => {
    const future = runEvent(ns, { job: 'future', outputs: ['later'], eventTime: '9999-12-31T23:59:59.999+14:00' });
    assert.equal((await svc.postEvent(future)).status, 201);
    const res = await svc.graphql(`{ coverage { overall { edges } trend { start end } } }`);
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    const trend = res.data.coverage.trend as { start: string; end: string }[];
    assert.ok(trend.length > 0 && trend.length <= 366, `${trend.length} buckets`);
    assert.ok(trend.at(-1)!.start <= new Date().toISOString(), trend.at(-1)!.start);
  });

  it('the service is healthy afterwards', async () => {
    assert.equal((await fetch(`${svc.baseUrl}/healthz`)).status, 200);
    assert.equal((await fetch(`${svc.baseUrl}/readyz`)).status, 200);
  });
});
