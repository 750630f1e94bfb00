import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { newToken } from '../../src/http/auth';
import { VIEW_PATHS } from '../../src/http/explorer';
import { startService, type TestService } from '../support/app';

/**
 * How the service serves the explorer (src/http/explorer.ts): the page at every view path with its
 * security headers, hashed assets cached for a year, nothing else of the disk; open under a tokens
 * file (no data in it) while /graphql is not; off with TRIBUTARY_EXPLORER=false.
 */
let svc: TestService;
let guarded: TestService;
let off: TestService;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'explorer-tokens-'));
const reader = newToken('catalog', ['read']);

before(async () => {
  fs.writeFileSync(path.join(dir, 'tokens.yaml'), `tokens:\n${reader.line}\n`);
  [svc, guarded, off] = await Promise.all([
    startService(),
    startService({ TRIBUTARY_TOKENS_FILE: path.join(dir, 'tokens.yaml') }),
    startService({ TRIBUTARY_EXPLORER: 'false' }),
  ]);
});
after(async () => {
  await Promise.all([svc?.close(), guarded?.close(), off?.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

const get = (s: TestService, p: string, init: RequestInit = {}) => fetch(s.baseUrl + p, init);

describe('the explorer as served', () => {
  it('answers every view path (with any query) with the page, its CSP and no caching', async () => {
    for (const p of VIEW_PATHS) {
      const res = await get(svc, `${p}?node=${encodeURIComponent('dataset:x%3Ay:z')}&up=3`);
      assert.equal(res.status, 200, p);
      assert.match(res.headers.get('content-type')!, /^text\/html/);
      assert.match(res.headers.get('content-security-policy')!, /default-src 'self'.*object-src 'none'/);
      assert.equal(res.headers.get('cache-control'), 'no-cache');
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.match(await res.text(), /<div id="root"><\/div>/);
    }
    assert.equal((await get(svc, '/lineage', { method: 'HEAD' })).status, 200);
  });

  it('serves the hashed assets the page names, cached for a year, and nothing outside them', async () => {
    const html = await (await get(svc, '/')).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.ok(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')), assets.join(', '));
    for (const a of assets) {
      const res = await get(svc, a);
      assert.equal(res.status, 200, a);
      assert.match(res.headers.get('cache-control')!, /max-age=31536000.*immutable/);
      assert.ok((await res.arrayBuffer()).byteLength > 1000);
    }
    for (const p of ['/assets/../package.json', '/assets/%2e%2e/package.json', '/assets/..%2f..%2fpackage.json', '/assets/nope.js', '/index.html', '/package.json', '/web/src/App.tsx', '/.source-hash']) {
      const res = await get(svc, p);
      assert.equal(res.status, 404, p);
      const body = await res.text();
      assert.ok(!body.includes('"dependencies"'), `${p} leaks a file`);
    }
  });

  it('unknown paths still get the JSON 404 of the API, not the page', async () => {
    const res = await get(svc, '/api/v1/nothing');
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
    assert.equal((await get(svc, '/lineage/extra')).status, 404);
  });

  it('with a tokens file the page stays open (it holds no data) while /graphql needs a read token', async () => {
    assert.equal((await get(guarded, '/trace')).status, 200);
    const query = JSON.stringify({ query: '{ namespaces(first: 1) { total } }' });
    const anonymous = await get(guarded, '/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: query });
    assert.equal(anonymous.status, 401);
    const withToken = await get(guarded, '/graphql', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${reader.token}` }, body: query });
    assert.equal(withToken.status, 200);
  });

  it('TRIBUTARY_EXPLORER=false: no page, the API as before', async () => {
    assert.equal((await get(off, '/')).status, 404);
    assert.equal((await get(off, '/lineage')).status, 404);
    const res = await get(off, '/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ namespaces { total } }' }) });
    assert.equal(res.status, 200);
  });
});
