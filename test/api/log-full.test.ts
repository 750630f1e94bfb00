import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * A service whose log cannot be written (stderr on a full disk: /dev/full answers every write with
 * ENOSPC) keeps serving: ingestion, reads and /metrics answer, the refused log writes are counted
 * (tributary_log_write_failures_total), and it stops cleanly. Before src/log.ts counted them, the
 * first log line took the process down.
 */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

describe('a log that cannot be written', { skip: !fs.existsSync('/dev/full') && 'no /dev/full here' }, () => {
  it('costs the service nothing but the lines: it serves, counts them, and stops cleanly', async () => {
    const port = await freePort();
    const spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-logfull-'));
    const full = fs.openSync('/dev/full', 'w');
    const child = spawn(process.execPath, [path.resolve(__dirname, '..', '..', 'src', 'main.js'), 'api'], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', TRIBUTARY_PLAN_WARMUP: 'false', TRIBUTARY_SPOOL_DIR: spoolDir, TRIBUTARY_LOG_LEVEL: 'debug' },
      stdio: ['ignore', 'ignore', full],
    });
    fs.closeSync(full);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const base = `http://127.0.0.1:${port}`;
    try {
      const deadline = Date.now() + 60_000;
      while ((await fetch(`${base}/readyz`).catch(() => null))?.status !== 200) {
        assert.equal(child.exitCode, null, 'the service exited while starting');
        assert.ok(Date.now() < deadline, 'not ready within 60 s');
        await new Promise((r) => setTimeout(r, 100));
      }
      const ns = uniquePrefix('log-full');
      const post = (body: string) => fetch(`${base}/api/v1/lineage`, { method: 'POST', headers: { 'content-type': 'application/json', 'tributary-wait': 'projected' }, body });
      const ok = await post(JSON.stringify(runEvent(ns, { job: 'load', inputs: ['raw'], outputs: ['clean'] })));
      const answer = await ok.text();
      assert.equal(ok.status, 201, answer);
      assert.equal((JSON.parse(answer) as { projected: boolean }).projected, true);
      const bad = await post('{"eventType": ');
      assert.equal(bad.status, 415, "a body that is not JSON");
      const read = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
      assert.equal(read.status, 200);
      const metrics = await (await fetch(`${base}/metrics`)).text();
      const refused = Number(/^tributary_log_write_failures_total\{kind="error"\} (\d+)/m.exec(metrics)?.[1]);
      assert.ok(refused > 0, `log writes refused: ${refused}`);
      assert.equal(child.exitCode, null, 'still running');
    } finally {
      child.kill('SIGTERM');
      const code = await exited;
      fs.rmSync(spoolDir, { recursive: true, force: true });
      assert.equal(code, 0, 'stopped cleanly on SIGTERM');
    }
  });
});
