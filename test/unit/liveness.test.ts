import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Liveness, withTimeout } from '../../src/graph/liveness';
import { createLogger } from '../../src/log';

/** The liveness probe's state machine (src/graph/liveness.ts), driven by a probe that answers, fails or hangs. */
const log = createLogger('error');
const options = { intervalMs: 10, timeoutMs: 30, failuresToDown: 2 };

describe('Liveness', () => {
  it('turns unresponsive after failuresToDown failed probes, calls onDown once and onHung after each further failure, and recovers on the first answer', async () => {
    let answer: 'ok' | 'fail' | 'hang' = 'ok';
    let downs = 0;
    const hung: number[] = [];
    const probe = () => (answer === 'ok' ? Promise.resolve() : answer === 'fail' ? Promise.reject(new Error('refused')) : new Promise<void>(() => undefined));
    const l = new Liveness(probe, log, { onDown: () => downs++, onHung: (ms) => hung.push(ms) }, options);
    assert.equal(await l.check(), true);
    answer = 'hang';
    assert.equal(await l.check(), false);
    assert.equal(l.responsive(), true, 'one failed probe is not enough');
    assert.equal(await l.check(), false);
    assert.equal(l.responsive(), false);
    answer = 'fail';
    assert.equal(await l.check(), false);
    assert.equal(downs, 1, 'onDown once per episode');
    assert.equal(hung.length, 2);
    assert.ok(hung[1]! >= hung[0]!, 'the unresponsive time grows');
    assert.ok(l.unresponsiveForMs() > 0);
    answer = 'ok';
    assert.equal(await l.check(), true);
    assert.equal(l.responsive(), true);
    assert.equal(l.unresponsiveForMs(), 0);
  });

  it('a hanging probe counts as failed after timeoutMs', async () => {
    const started = performance.now();
    await assert.rejects(withTimeout(new Promise(() => undefined), 50), /no answer within 50 ms/);
    assert.ok(performance.now() - started < 1000);
    assert.equal(await withTimeout(Promise.resolve(7), 50), 7);
  });

  it('runs on its schedule until stopped', async () => {
    let probes = 0;
    const l = new Liveness(async () => void probes++, log, {}, options);
    l.start();
    await new Promise((r) => setTimeout(r, 120));
    await l.stop();
    const seen = probes;
    assert.ok(seen >= 3, `probed ${seen} times in 120 ms`);
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(probes, seen, 'no probe after stop');
  });
});
