import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eventText } from '../../src/graph/event-text';
import { jobId, runId } from '../../src/ids';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * Event nodes keep the received text packed (src/graph/event-text.ts); what reads it back (the
 * Marquez API's events and run facets, the sweep of an earlier version's Pending events,
 * re-projection) reads packed events and the text an earlier version stored alike.
 */
// Times no other test sends, so that each events page holds this file's events.
let svc: TestService;
before(async () => {
  svc = await startService();
});
after(() => svc.close());

const get = async (path: string) => {
  const res = await fetch(svc.baseUrl + path);
  return { status: res.status, body: (await res.json()) as any };
};
const storedRaw = async (id: string) => (await svc.app.driver.executeQuery('MATCH (e:Event {id: $id}) RETURN e.raw AS raw', { id })).records[0]?.get('raw') as unknown;

describe('the text an Event node keeps', () => {
  it('is the exact body received, packed: read back through the Marquez API', async () => {
    const ns = uniquePrefix('event-text');
    const uuid = randomUUID();
    const event = runEvent(ns, {
      job: 'wide ü 𝄞',
      runId: uuid,
      eventTime: '2011-11-11T11:11:11.111Z',
      outputs: ['t'],
      runFacets: { note: { _producer: 'test', _schemaURL: 'test', text: 'ß€ '.repeat(500) } },
      datasetFacets: { t: { schema: { _producer: 'test', _schemaURL: 'test', fields: Array.from({ length: 400 }, (_, i) => ({ name: `c${i}`, type: 'varchar' })) } } },
    });
    const body = JSON.stringify(event, null, 2);
    const res = await svc.post('/api/v1/lineage', body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const raw = await storedRaw(res.body.eventId);
    assert.ok(raw instanceof Int8Array, `bytes, not ${typeof raw}`);
    assert.ok(raw.length * 5 < Buffer.byteLength(body), `${raw.length} bytes for ${Buffer.byteLength(body)}`);
    assert.equal(eventText(raw), body, 'the exact text received, white space included');
    const facets = await get(`/api/v1/jobs/runs/${uuid}/facets?type=run`);
    assert.equal(facets.status, 200);
    assert.deepEqual(facets.body.facets, event.run.facets);
    const events = await get('/api/v1/events/lineage?after=2011-11-11T11:11:11.000Z&before=2011-11-11T11:11:12.000Z&limit=1000');
    assert.deepEqual(events.body.events.find((e: { job: { namespace: string } }) => e.job.namespace === ns), event);
  });

  it('stored as a string by an earlier version, reads the same: Marquez API, and a Pending event projected', async () => {
    const ns = uniquePrefix('event-text-old');
    const uuid = randomUUID();
    const event = runEvent(ns, { job: 'old', runId: uuid, outputs: ['t'], eventTime: '2011-11-12T11:11:11.111Z', runFacets: { note: { _producer: 'test', _schemaURL: 'test', text: 'älter' } } });
    const id = `event:${uniquePrefix('old-text')}`;
    await svc.app.driver.executeQuery(
      "CREATE (e:Event:Pending {id: $id, kind: 'RunEvent', eventType: 'COMPLETE', eventTime: $time, runId: $runId, jobId: $jobId, raw: $raw, receivedAt: '2000-01-01T00:00:00.000Z'})",
      { id, time: event.eventTime, runId: runId(uuid), jobId: jobId(ns, 'old'), raw: JSON.stringify(event) },
    );
    const deadline = Date.now() + 30_000;
    while ((await svc.graphql('query($id: ID!) { job(id: $id) { id } }', { id: jobId(ns, 'old') })).data?.job == null) {
      assert.ok(Date.now() < deadline, 'the earlier version’s Pending event is projected from its text');
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(typeof (await storedRaw(id)), 'string', 'left as it was stored');
    assert.deepEqual((await get(`/api/v1/jobs/runs/${uuid}/facets?type=run`)).body.facets, event.run.facets);
    const events = await get('/api/v1/events/lineage?after=2011-11-12T11:11:11.000Z&before=2011-11-12T11:11:12.000Z&limit=1000');
    assert.deepEqual(events.body.events.find((e: { job: { namespace: string } }) => e.job.namespace === ns), event);
  });
});
