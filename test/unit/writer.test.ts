import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProjectionWriter } from '../../src/ingest/writer';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('ProjectionWriter', () => {
  it('runs one transaction at a time, in the order asked; a failure neither blocks the next nor is swallowed', async () => {
    const writer = new ProjectionWriter();
    const log: string[] = [];
    let inFlight = 0;
    const job = (name: string, fail = false) => async () => {
      inFlight++;
      assert.equal(inFlight, 1, `${name} ran while another was in flight`);
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      inFlight--;
      if (fail) throw new Error(`${name} failed`);
      return name;
    };
    const a = writer.exclusive(job('a'));
    const b = writer.exclusive(job('b', true));
    const c = writer.exclusive(job('c'));
    assert.equal(writer.queued, 3);
    assert.equal(await a, 'a');
    await assert.rejects(b, /b failed/);
    assert.equal(await c, 'c');
    assert.deepEqual(log, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    assert.equal(writer.queued, 0);
    assert.equal(writer.finished, 3, 'a failed transaction counts as finished too');
  });

  it('counts a transaction finished before its caller goes on', async () => {
    const writer = new ProjectionWriter();
    const seen = await writer.exclusive(async () => writer.finished).then((during) => [during, writer.finished]);
    assert.deepEqual(seen, [0, 1]);
  });

  it('a synchronous throw in the work rejects that caller only', async () => {
    const writer = new ProjectionWriter();
    const bad = writer.exclusive(() => {
      throw new Error('sync');
    });
    const good = writer.exclusive(async () => 42);
    await assert.rejects(bad, /sync/);
    assert.equal(await good, 42);
  });
});
