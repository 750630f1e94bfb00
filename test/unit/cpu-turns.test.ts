import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CpuTurns, IMMEDIATE } from '../../src/cpu-turns';

/** Busy-waits `ms` on the main thread (a task's CPU work). */
function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('cpu turns: ingestion CPU work behind I/O, giving way to reads', () => {
  it('runs every task once, in submission order, each throw settling its own promise only', async () => {
    const turns = new CpuTurns();
    const ran: number[] = [];
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        turns.run(() => {
          ran.push(i);
          if (i % 7 === 3) throw new Error(`task ${i}`);
          return i * 2;
        }),
      ),
    );
    assert.deepEqual(ran, Array.from({ length: 50 }, (_, i) => i));
    results.forEach((r, i) => {
      if (i % 7 === 3) assert.equal(r.status === 'rejected' && (r.reason as Error).message, `task ${i}`);
      else assert.deepEqual(r, { status: 'fulfilled', value: i * 2 });
    });
    assert.deepEqual(await turns.each(['a', 'b', 'c'], (x, i) => `${x}${i}`), ['a0', 'b1', 'c2']);
    assert.deepEqual(await IMMEDIATE.each(['a', 'b'], (x, i) => `${x}${i}`), ['a0', 'b1'], 'the stand-in keeps the same contract');
  });

  it("serves the projector's tasks first, counts what waits, and runs a task given by a task in a later turn", async () => {
    const turns = new CpuTurns(0, 0);
    const ran: string[] = [];
    const work = turns.each(['a', 'b', 'c'], (x) => ran.push(x));
    const projector = turns.run(() => ran.push('plan'), true);
    assert.equal(turns.backlog, 4);
    let nested: Promise<unknown> | null = null;
    await Promise.all([work, projector, turns.run(() => (nested = turns.run(() => ran.push('nested'))))]);
    await nested;
    assert.deepEqual(ran, ['plan', 'a', 'b', 'c', 'nested']);
    assert.equal(turns.backlog, 0);
  });

  it('leaves the event loop to I/O between turns: a socket-like callback is not queued behind all the work', async () => {
    const turns = new CpuTurns(0, 2);
    let tasksBefore = -1;
    await turns.each(Array.from({ length: 40 }, (_, i) => i), (i) => {
      // An I/O callback's stand-in, due while the first turn runs: it runs when the loop next turns.
      if (i === 0) setTimeout(() => (tasksBefore = turns.counts.tasks), 0);
      spin(1);
    });
    assert.ok(tasksBefore > 0 && tasksBefore < 10, `the callback ran after ${tasksBefore} of 40 one-millisecond tasks (a 2 ms budget per turn)`);
    assert.ok(turns.counts.turns >= 10, `${turns.counts.turns} turns`);
  });

  it('while reads execute runs one task per turn, turns a pause apart; without reads at full speed again', async () => {
    let reading = true;
    const turns = new CpuTurns(5, 2);
    turns.yieldTo(() => reading);
    const t0 = performance.now();
    await turns.each([1, 2, 3, 4, 5], () => undefined);
    const yieldingMs = performance.now() - t0;
    assert.ok(yieldingMs >= 20, `five tasks while reading took ${yieldingMs.toFixed(1)} ms (at least 4 pauses of 5 ms)`);
    assert.equal(turns.counts.yielded, 5);
    reading = false;
    const t1 = performance.now();
    await turns.each(Array.from({ length: 100 }, (_, i) => i), () => undefined);
    assert.ok(performance.now() - t1 < yieldingMs, 'a hundred tasks without reads finish sooner than five with');
    assert.equal(turns.counts.yielded, 5, 'no turn deferred once reads stopped');
    const off = new CpuTurns(0);
    off.yieldTo(() => true);
    await off.each([1, 2, 3], () => undefined);
    assert.equal(off.counts.yielded, 0, 'a pause of 0 turns read priority off');
  });
});
