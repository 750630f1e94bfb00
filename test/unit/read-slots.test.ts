import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode } from '../../src/errors';
import { EventEmitter } from 'node:events';
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
