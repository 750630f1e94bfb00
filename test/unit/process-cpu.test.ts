import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { processCpuMs } from '../../src/graph/embedded/cpu';

describe('processCpuMs', () => {
  it('reads a live process\'s CPU time, which grows with work; null for a pid that does not exist', { skip: process.platform !== 'linux' }, () => {
    const before = processCpuMs(process.pid);
    assert.equal(typeof before, 'number');
    const until = Date.now() + 300;
    let x = 0;
    while (Date.now() < until) x += Math.sqrt(x + 1);
    assert.ok(x > 0);
    assert.ok(processCpuMs(process.pid)! > before!, 'CPU time grew over 300 ms of spinning');
    assert.equal(processCpuMs(2 ** 22 + 1), null);
  });
});
