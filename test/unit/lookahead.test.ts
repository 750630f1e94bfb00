import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { packEventText } from '../../src/graph/event-text';
import { prepareBatch } from '../../src/ingest/ingestor';
import { Lookahead, writable } from '../../src/ingest/lookahead';
import { NO_RULES } from '../../src/ingest/naming';
import type { ReadRecord, SpoolPosition } from '../../src/ingest/spool';
import { decodeRecords } from '../../src/ingest/spooled-event';
import { storedEventRow } from '../../src/ingest/stored-event';
import { validateEvent } from '../../src/ingest/validate';

/** Spool records of `n` run events (two per run, with column lineage), one after another in segment 1. */
function records(n: number, base = 0): ReadRecord[] {
  return Array.from({ length: n }, (_, i) => {
    const raw = JSON.stringify({
      eventType: i % 2 === 0 ? 'START' : 'COMPLETE',
      eventTime: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`,
      producer: 'https://example.com/lookahead-test',
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
      run: { runId: `00000000-0000-4000-8000-${String(Math.floor(i / 2)).padStart(12, '0')}` },
      job: { namespace: 'lookahead', name: `job${Math.floor(i / 4)}` },
      inputs: [{ namespace: 'lookahead', name: `in${i % 7}` }],
      outputs: [
        {
          namespace: 'lookahead',
          name: `out${Math.floor(i / 4)}`,
          facets: { columnLineage: { fields: { a: { inputFields: [{ namespace: 'lookahead', name: `in${i % 7}`, field: 'x' }] } } } },
        },
      ],
    });
    return { raw, receivedAt: '2026-01-01T00:00:00.000Z', start: { segment: 1, offset: (base + i) * 1000 }, end: { segment: 1, offset: (base + i + 1) * 1000 } };
  });
}

const same = (p: SpoolPosition) => p;
const always = () => true;

describe('lookahead: the next batch read and planned while a transaction runs', () => {
  it('hands out a batch read ahead only for the position it was read at, once', async () => {
    const ahead = new Lookahead(NO_RULES);
    await ahead.readAndPlan({ segment: 1, offset: 0 }, records(120), always);
    assert.equal(ahead.takeRead({ segment: 1, offset: 1000 }, same), null, 'another position: read again');
    assert.equal(ahead.takeRead({ segment: 1, offset: 0 }, same), null, 'dropped after a miss, not kept for later');
    await ahead.readAndPlan({ segment: 1, offset: 0 }, records(120), always);
    const events = ahead.takeRead({ segment: 1, offset: 0 }, same);
    assert.equal(events?.length, 120);
    assert.equal(ahead.takeRead({ segment: 1, offset: 0 }, same), null, 'once');
    assert.deepEqual(ahead.counts, { readBacks: 4, readAhead: 1, plannedAhead: 2, planUsed: 0 });
  });

  it('hands out a plan only for the very events it was made from, and it is the plan prepareBatch makes, with the texts packed', async () => {
    const events = decodeRecords(records(230));
    const ahead = new Lookahead(NO_RULES);
    await ahead.plan(events, always);
    assert.equal(ahead.takePlan(writable(events.slice(0, 229))), null, 'one event fewer');
    await ahead.plan(events, always);
    assert.equal(ahead.takePlan(writable(decodeRecords(records(230)))), null, 'equal events decoded apart are other events');
    await ahead.plan(events, always);
    const prepared = ahead.takePlan(writable(events));
    assert.ok(prepared);
    const { packed, ...planned } = prepared;
    assert.deepEqual(planned, prepareBatch(writable(events), NO_RULES));
    // The texts packed with it, as the transaction would pack them itself (write-plan.ts storeAndProject).
    assert.deepEqual(packed, writable(events).map((e) => packEventText(e.row.raw)));
    assert.equal(ahead.takePlan(writable(events)), null, 'once');
    assert.equal(ahead.counts.planUsed, 1);
  });

  it('an event that planning throws on leaves no plan and no error: the projector plans that batch in its own turn, where the event is split off', async () => {
    const events = decodeRecords(records(60));
    const poisoned = [...events.slice(0, 55), { ...events[55]!, valid: null as unknown as (typeof events)[0]['valid'] }, ...events.slice(56)];
    const ahead = new Lookahead(NO_RULES);
    await ahead.plan(poisoned, always);
    assert.equal(ahead.takePlan(writable(poisoned)), null);
    assert.equal(ahead.counts.plannedAhead, 0);
    await ahead.plan(events, always);
    assert.ok(ahead.takePlan(writable(events)), 'the next batch is planned as usual');
  });

  it('plans what a transaction writes: valid events, one per id; nothing kept when stopped midway', async () => {
    const [a, b] = decodeRecords(records(2));
    const broken = decodeRecords([{ ...records(1, 5)[0]!, raw: '{"eventType":"START"}' }])[0]!;
    assert.ok(broken.error);
    const again = { ...a!, start: { segment: 1, offset: 9000 }, end: { segment: 1, offset: 10_000 } };
    assert.deepEqual(writable([a!, broken, b!, again]).map((e) => e.row.id), [a!.row.id, b!.row.id]);
    let turns = 0;
    const ahead = new Lookahead(NO_RULES);
    await ahead.plan(decodeRecords(records(200)), () => ++turns < 2);
    assert.equal(ahead.counts.plannedAhead, 0, 'stopped after its first slice');
    await ahead.readAndPlan({ segment: 1, offset: 0 }, records(200), () => false);
    assert.equal(ahead.takeRead({ segment: 1, offset: 0 }, same), null, 'a stopped read is not kept');
  });

  it('decoding a record uses the id it was accepted with when the record keeps one, and computes the same id when not', () => {
    const [plain] = records(1);
    const [computed] = decodeRecords([plain!]);
    const accepted = storedEventRow(validateEvent(JSON.parse(plain!.raw)), plain!.raw, JSON.parse(plain!.raw));
    assert.equal(computed!.row.id, accepted.id, 'without a kept id: the id acceptance gives');
    const kept = `event:${'f'.repeat(64)}`;
    const [withId] = decodeRecords([{ ...plain!, id: kept }]);
    assert.equal(withId!.row.id, kept, 'a kept id is used as it is (not hashed again)');
    assert.deepEqual({ ...withId!.row, id: computed!.row.id }, computed!.row, 'everything else the same');
  });
});
