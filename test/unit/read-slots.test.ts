import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode } from '../../src/errors';
import { ReadSlots } from '../../src/http/read-slots';

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
