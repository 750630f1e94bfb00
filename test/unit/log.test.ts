import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createLogger, LOG_BACKLOG_BYTES, logLoss, stderrDestination } from '../../src/log';
import { scratchDir } from '../support/scratch';

describe('log destination', () => {
  it('writes each line as it is logged', () => {
    const file = path.join(scratchDir('tributary-log-'), 'log');
    const fd = fs.openSync(file, 'w');
    try {
      createLogger('info', 't', stderrDestination(fd)).info('hello', { n: 1 });
      const line = JSON.parse(fs.readFileSync(file, 'utf8').trim()) as Record<string, unknown>;
      assert.equal(line.msg, 'hello');
      assert.equal(line.n, 1);
    } finally {
      fs.closeSync(fd);
    }
  });

  it('counts the writes a full disk refuses, and drops lines past its backlog, without throwing', { skip: !fs.existsSync('/dev/full') && 'no /dev/full here' }, () => {
    const fd = fs.openSync('/dev/full', 'w');
    try {
      const log = createLogger('info', 't', stderrDestination(fd));
      const before = { ...logLoss };
      log.error('no space left', { error: new Error('ENOSPC') });
      assert.ok(logLoss.failed > before.failed, 'the refused write is counted');
      assert.equal(logLoss.dropped, before.dropped, 'kept for the next write, not dropped yet');
      const line = 'x'.repeat(64 * 1024);
      for (let i = 0; i < (2 * LOG_BACKLOG_BYTES) / line.length; i++) log.info(line);
      assert.ok(logLoss.dropped > before.dropped, 'past the backlog, lines are dropped');
    } finally {
      fs.closeSync(fd);
    }
  });
});
