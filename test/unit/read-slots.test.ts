import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode } from '../../src/errors';
import { EventEmitter } from 'node:events';
import { loadConfig } from '../../src/config';
import { buildGraphqlSchema } from '../../src/graphql/schema';
import { createLanes, graphqlLane, Lane } from '../../src/http/lanes';
import { holdSlot, ReadSlots } from '../../src/http/read-slots';

describe('GraphQL admission (ReadSlots)', () => {
  it('runs at most `limit` at once, hands slots over in arrival order, refuses past the queue, releases once', async () => {
    const slots = new ReadSlots(2, 3);
    const order: number[] = [];
    const a = await slots.acquire();
    const b = await slots.acquire();
    const waiting = [1, 2, 3].map((i) => slots.acquire().then((release) => (order.push(i), release)));
    assert.deepEqual(slots.state, { active: 2, waiting: 3 });
    await assert.rejects(slots.acquire(), (e: { code: string }) => e.code === ErrorCode.UNAVAILABLE);
    a();
    a(); // a second release of the same slot changes nothing
    const r1 = await waiting[0]!;
    assert.deepEqual(slots.state, { active: 2, waiting: 2 });
    b();
    r1();
    const [r2, r3] = await Promise.all([waiting[1]!, waiting[2]!]);
    assert.deepEqual(order, [1, 2, 3]);
    r2();
    r3();
    assert.deepEqual(slots.state, { active: 0, waiting: 0 });
  });
});

describe('fair admission (ReadSlots per client)', () => {
  it('admits a client with one request waiting before a client with 50 waiting', async () => {
    const slots = new ReadSlots(1, 1000, 60);
    const running = await slots.acquire('flood');
    const order: string[] = [];
    const flood = Array.from({ length: 50 }, (_, i) => slots.acquire('flood').then((release) => (order.push(`flood${i}`), release)));
    const normal = slots.acquire('normal').then((release) => (order.push('normal'), release));
    assert.deepEqual(slots.state, { active: 1, waiting: 51 });
    running();
    const first = await flood[0]!;
    first();
    (await normal)();
    assert.deepEqual(order, ['flood0', 'normal'], 'the normal client waits one turn, not fifty');
    for (const p of flood.slice(1)) (await p)();
    assert.deepEqual(order.slice(2), Array.from({ length: 49 }, (_, i) => `flood${i + 1}`), "each client's own requests in arrival order");
    assert.deepEqual(slots.state, { active: 0, waiting: 0 });
  });

  it("refuses a client's request past its own cap at once, and still admits another client's", async () => {
    const slots = new ReadSlots(1, 1000, 3);
    const running = await slots.acquire('flood');
    const queued = [1, 2, 3].map(() => slots.acquire('flood'));
    await assert.rejects(slots.acquire('flood'), (e: { code: string; message: string }) => e.code === ErrorCode.UNAVAILABLE && /3 requests waiting.*TRIBUTARY_GRAPHQL_CLIENT_QUEUE/.test(e.message));
    const other = slots.acquire('other');
    running();
    (await queued[0]!)();
    (await other)();
    for (const p of queued.slice(1)) (await p)();
    assert.deepEqual(slots.state, { active: 0, waiting: 0 });
  });

  it('a waiter whose signal aborts gives up its place and takes no slot', async () => {
    const slots = new ReadSlots(1, 10, 10);
    const running = await slots.acquire('a');
    const gone = new AbortController();
    const leaving = slots.acquire('a', gone.signal);
    const staying = slots.acquire('b');
    gone.abort(new Error('client gone'));
    await assert.rejects(leaving, /client gone/);
    assert.deepEqual(slots.state, { active: 1, waiting: 1 });
    running();
    (await staying)();
    assert.deepEqual(slots.state, { active: 0, waiting: 0 });
  });
});

describe('admission lanes', () => {
  it('heavy lane full: a lookup is admitted at once on its own slots; an anonymous embed on its own', async () => {
    const lanes = createLanes({ heavy: 2, lookup: 2, embed: 1, queue: 100, clientQueue: 50 });
    const heavy = [await lanes[Lane.HEAVY].acquire('flood'), await lanes[Lane.HEAVY].acquire('flood')];
    const waiting = Array.from({ length: 20 }, () => lanes[Lane.HEAVY].acquire('flood'));
    const embeds = [await lanes[Lane.EMBED].acquire('address:x'), lanes[Lane.EMBED].acquire('address:x')];
    const lookup = await Promise.race([lanes[Lane.LOOKUP].acquire('normal'), new Promise<null>((r) => setTimeout(() => r(null), 100))]);
    assert.ok(lookup, 'admitted while the heavy and embed lanes are full');
    lookup();
    for (const r of heavy) r();
    for (const p of waiting) (await p)();
    for (const p of embeds) (await p)();
    for (const lane of Object.values(lanes)) assert.deepEqual(lane.state, { active: 0, waiting: 0 });
  });

  it('sends walks, region reads, analytics and costly operations to the heavy lane; lookups to their own', () => {
    const laneOf = graphqlLane(buildGraphqlSchema(), loadConfig({}).lineage, 5000);
    const lookups = [
      { query: '{ __typename }' },
      { query: 'query($id: ID!) { dataset(id: $id) { id name consumers { id } } }', variables: { id: 'dataset:a:b' } },
      { query: '{ job(id: "job:a:b") { runs(first: 20) { items { id state } } } }' },
      { query: 'query($id: ID!) { dataset(id: $id) { id } }', variables: '{"id": "dataset:a:b"}' },
      { query: 'not graphql' },
    ];
    for (const r of lookups) assert.equal(laneOf(r), Lane.LOOKUP, r.query);
    const heavy = [
      { query: '{ blastRadius(nodeId: "dataset:a:b", first: 1) { totals { items } } }' },
      { query: '{ ...F } fragment F on Query { lineage(nodeId: "dataset:a:b", depth: 1) { nodes { id } } }' },
      { query: '{ coverage { overall { edges } } }' },
      { query: 'query($n: Int!) { datasets(first: $n) { items { id name namespace description owners } } }', variables: { n: 500 } },
    ];
    for (const r of heavy) assert.equal(laneOf(r), Lane.HEAVY, r.query);
    assert.equal(laneOf({ extensions: { persistedQuery: { sha256Hash: 'x' } } }), Lane.HEAVY, 'no document: heavy');
  });
});

describe('holdSlot', () => {
  it('gives the slot back at once when the client left while waiting, else when the response closes', async () => {
    const slots = new ReadSlots(1, 10);
    const first = await slots.acquire();
    // A request that waits for the only slot; its client goes away meanwhile ('close' fires before the slot is free).
    const res = Object.assign(new EventEmitter(), { destroyed: false });
    const req = { socket: { destroyed: false } };
    const waiting = holdSlot(slots, req as never, res as never);
    res.destroyed = true;
    req.socket.destroyed = true;
    res.emit('close');
    first();
    assert.equal(await waiting, false);
    assert.deepEqual(slots.state, { active: 0, waiting: 0 }, 'not leaked');
    // A live one holds it until its response closes.
    const live = Object.assign(new EventEmitter(), { destroyed: false });
    assert.equal(await holdSlot(slots, { socket: { destroyed: false } } as never, live as never), true);
    assert.deepEqual(slots.state, { active: 1, waiting: 0 });
    live.emit('close');
    assert.deepEqual(slots.state, { active: 0, waiting: 0 });
  });
});
