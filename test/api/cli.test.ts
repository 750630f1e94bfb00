import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

const main = path.resolve(__dirname, '..', '..', 'src', 'main.js');

function cli(args: string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [main, ...args], { env: process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe('command line', () => {
  it('`ingest -` reads NDJSON from stdin, prints progress and a summary, exits 3 when events were rejected', async () => {
    const ns = uniquePrefix('cli');
    const input = [JSON.stringify(runEvent(ns, { job: 'a', outputs: ['x'] })), '{oops', JSON.stringify(runEvent(ns, { job: 'b', inputs: ['x'] }))].join('\n');
    const res = await cli(['ingest', '-'], input);
    assert.equal(res.code, 3, res.stderr);
    assert.match(res.stdout, /^3 events in [\d.]+ s: 2 stored, 0 duplicates, 1 rejected$/m);
    assert.match(res.stdout, /line 2: NOT_JSON/);
    assert.match(res.stderr, /3 lines: 2 stored/);
  });

  it('`ingest` of a clean file exits 0; `reproject <prefix>` rebuilds that namespace', async () => {
    const ns = uniquePrefix('cli-ok');
    const ok = await cli(['ingest'], JSON.stringify(runEvent(ns, { job: 'a', outputs: ['x'] })) + '\n');
    assert.equal(ok.code, 0, ok.stderr);
    const re = await cli(['reproject', ns], '');
    assert.equal(re.code, 0, re.stderr);
    assert.match(re.stdout, new RegExp(`re-projected 1 stored events \\(0 no longer valid\\) after deleting \\d+ nodes of namespaces starting with "${ns}"`));
  });

  it('an unknown command or a bad setting is one clear line, no stack trace', async () => {
    const res = await cli(['frobnicate'], '');
    assert.equal(res.code, 1);
    assert.equal(res.stderr.trim(), 'tributary: unknown command "frobnicate" (expected serve, api, worker, neo4j, neo4j-admin, ingest, reproject or emit-schema)');
  });

  it('`neo4j-admin` works on the embedded store only: with NEO4J_URI set it says to use that server’s own', async () => {
    assert.ok(process.env.NEO4J_URI, 'the test tiers run against NEO4J_URI');
    const res = await cli(['neo4j-admin', 'database', 'info'], '');
    assert.equal(res.code, 1);
    assert.equal(res.stderr.trim(), "tributary: neo4j-admin works on the embedded store (TRIBUTARY_HOME); NEO4J_URI is set, so use that server's own neo4j-admin");
  });
});
