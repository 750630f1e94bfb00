import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { oneAtATime } from '../../src/graphql/context';

/** A request's walks, one at a time (src/graphql/walks.ts uses this queue). */
describe('oneAtATime', () => {
  it('runs work in arrival order, never two at once, and a failure fails only its own work', async () => {
    const serial = oneAtATime();
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const job = (i: number, fail = false) =>
      serial(async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 5 * (5 - i)));
        order.push(i);
        running--;
        if (fail) throw new Error(`job ${i}`);
        return i;
      });
    const results = await Promise.allSettled([job(0), job(1, true), job(2), job(3), job(4)]);
    assert.deepEqual(order, [0, 1, 2, 3, 4]);
    assert.equal(most, 1);
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
  });
});
