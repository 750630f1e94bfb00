import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config';
import { readTls } from '../../src/http/tls';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/** Native HTTPS (TRIBUTARY_TLS_CERT / TRIBUTARY_TLS_KEY) with a self-signed certificate made by openssl. */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tls-'));
const pem = (name: string) => path.join(dir, name);
const selfSigned = (name: string) =>
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', pem(`${name}.key`), '-out', pem(`${name}.crt`),
  ], { stdio: 'ignore' });

let svc: TestService;
before(async () => {
  selfSigned('a');
  selfSigned('b');
  svc = await startService({ TRIBUTARY_TLS_CERT: pem('a.crt'), TRIBUTARY_TLS_KEY: pem('a.key') });
});
after(async () => {
  await svc.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** One HTTPS request trusting only certificate `a`. */
function request(method: string, url: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method, ca: fs.readFileSync(pem('a.crt')), headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('native HTTPS', () => {
  it('serves ingestion, GraphQL and health over TLS with the configured certificate', async () => {
    const url = svc.baseUrl.replace('http://', 'https://');
    const ns = uniquePrefix('tls');
    assert.equal((await request('GET', `${url}/readyz`)).status, 200);
    assert.equal((await request('POST', `${url}/api/v1/lineage`, JSON.stringify(runEvent(ns, { job: 'j', outputs: ['t'] })))).status, 201);
    const res = await request('POST', `${url}/graphql`, JSON.stringify({ query: `{ job(id: "job:${ns}:j") { name } }` }));
    assert.deepEqual(JSON.parse(res.body).data, { job: { name: 'j' } });
  });

  it('speaks no plain HTTP on that port', async () => {
    const outcome = await new Promise<string>((resolve) => {
      const req = http.get(`${svc.baseUrl}/readyz`, (res) => resolve(`HTTP ${res.statusCode}`));
      req.on('error', (err) => resolve(`error ${(err as NodeJS.ErrnoException).code}`));
    });
    assert.notEqual(outcome, 'HTTP 200', outcome);
  });

  it('refuses to start half-configured: one variable, an unreadable file, a key of another certificate, not PEM', () => {
    assert.throws(() => loadConfig({ TRIBUTARY_TLS_CERT: pem('a.crt') }), (e) => e instanceof ConfigError && /go together/.test(e.message));
    const tls = (cert: string, key: string) => readTls(loadConfig({ TRIBUTARY_TLS_CERT: cert, TRIBUTARY_TLS_KEY: key }).http.tls);
    assert.throws(() => tls(pem('missing.crt'), pem('a.key')), (e) => e instanceof ConfigError && /TRIBUTARY_TLS_CERT: cannot read .*ENOENT/.test(e.message));
    assert.throws(() => tls(pem('a.crt'), pem('b.key')), (e) => e instanceof ConfigError && /matching key/.test(e.message));
    fs.writeFileSync(pem('garbage.crt'), '\u0000not a certificate\u00ff'.repeat(100));
    assert.throws(() => tls(pem('garbage.crt'), pem('a.key')), (e) => e instanceof ConfigError && /not a usable PEM/.test(e.message));
    assert.ok(tls(pem('b.crt'), pem('b.key'))!.cert.length > 0);
  });
});
