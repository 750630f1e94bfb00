import assert from 'node:assert/strict';
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { ConfigError } from '../../src/config';
import { loadTokens, newToken } from '../../src/http/auth';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * Access control with a tokens file (src/http/auth.ts): each scope enforced on each route, health
 * open, introspection and field suggestions off by default, CORS from configuration.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokens-'));
const made = {
  ingest: newToken('spark-prod', ['ingest']),
  read: newToken('catalog', ['read']),
  admin: newToken('ops', ['admin', 'read']),
};
const file = path.join(dir, 'tokens.yaml');
fs.writeFileSync(file, `tokens:\n${Object.values(made).map((m) => m.line).join('\n')}\n`);

/** The service's info lines (the access log), as logged. */
const logged: { msg: string; fields?: Record<string, unknown> }[] = [];
const quiet = () => {};
const capture = { debug: quiet, warn: quiet, error: quiet, info: (msg: string, fields?: Record<string, unknown>) => void logged.push({ msg, fields }) };

let svc: TestService;
before(async () => {
  svc = await startService({ TRIBUTARY_TOKENS_FILE: file, TRIBUTARY_CORS_ORIGINS: 'https://explorer.example' }, capture);
});
after(async () => {
  await svc.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const gql = (query: string, headers: Record<string, string> = {}) => svc.post('/graphql', JSON.stringify({ query }), headers);

describe('access control with a tokens file', () => {
  it('ingestion needs a token with the ingest scope', async () => {
    const event = JSON.stringify(runEvent(uniquePrefix('access'), { job: 'j' }));
    const none = await svc.post('/api/v1/lineage', event);
    assert.deepEqual([none.status, none.body.error.code], [401, 'UNAUTHENTICATED']);
    const wrong = await svc.post('/api/v1/lineage', event, bearer('trb_not-a-token'));
    assert.equal(wrong.status, 401);
    const reader = await svc.post('/api/v1/lineage/batch', `[${event}]`, bearer(made.read.token));
    assert.deepEqual([reader.status, reader.body.error.code], [403, 'FORBIDDEN']);
    assert.match(reader.body.error.message, /token "catalog" lacks the scope "ingest"/);
    const ok = await svc.post('/api/v1/lineage', event, bearer(made.ingest.token));
    assert.equal(ok.status, 201);
  });

  it('GraphQL needs the read scope; introspection and field suggestions are off by default', async () => {
    assert.equal((await gql('{ __typename }')).status, 401);
    assert.equal((await gql('{ __typename }', bearer(made.ingest.token))).status, 403);
    const ok = await gql('{ __typename }', bearer(made.read.token));
    assert.deepEqual(ok.body, { data: { __typename: 'Query' } });
    const intro = await gql('{ __schema { types { name } } }', bearer(made.read.token));
    assert.match(intro.body.errors[0].message, /introspection .* is turned off/);
    const typo = await gql('{ datset(id: "dataset:a:b") { id } }', bearer(made.read.token));
    assert.equal(typo.body.errors[0].extensions.code, 'BAD_INPUT');
    assert.doesNotMatch(typo.body.errors[0].message, /Did you mean/);
  });

  it('logs one access line per authenticated request, refused ones too (who, what, status, time), never the token', async () => {
    logged.length = 0;
    await svc.post('/graphql', JSON.stringify({ query: 'query Probe { __typename }', operationName: 'Probe' }), bearer(made.read.token));
    await svc.post('/graphql', JSON.stringify({ query: '{ __typename }' }), bearer(made.ingest.token));
    const lines = logged.filter((l) => l.msg === 'access');
    assert.deepEqual(
      lines.map((l) => ({ ...l.fields, ms: typeof l.fields?.ms })),
      [
        { who: 'catalog', method: 'POST', route: '/graphql', operation: 'Probe', status: 200, ms: 'number' },
        { who: 'spark-prod', method: 'POST', route: '/graphql', status: 403, ms: 'number' },
      ],
    );
    const text = JSON.stringify(logged);
    for (const m of Object.values(made)) assert.ok(!text.includes(m.token), 'no token in the logs');
  });

  it('hostile credentials: a huge header, an empty bearer, many concurrent mixed tokens: 4xx each, never 5xx', async () => {
    const huge = await fetch(`${svc.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${'x'.repeat(60_000)}` },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    assert.ok(huge.status === 401 || huge.status === 431, String(huge.status));
    assert.equal((await gql('{ __typename }', { authorization: 'Bearer ' })).status, 401);
    assert.equal((await gql('{ __typename }', { authorization: `Basic ${made.read.token}` })).status, 401);
    const tokens = [made.read.token, made.ingest.token, 'trb_wrong', made.admin.token];
    const expected = [200, 403, 401, 200];
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => gql('{ __typename }', bearer(tokens[i % 4]!))));
    assert.deepEqual(
      answers.map((a) => a.status),
      Array.from({ length: 40 }, (_, i) => expected[i % 4]),
    );
  });

  it('/metrics needs the admin scope; /healthz and /readyz stay open', async () => {
    const metrics = (headers: Record<string, string>) => fetch(`${svc.baseUrl}/metrics`, { headers });
    assert.equal((await metrics({})).status, 401);
    assert.equal((await metrics(bearer(made.read.token))).status, 403);
    assert.equal((await metrics(bearer(made.admin.token))).status, 200);
    assert.equal((await fetch(`${svc.baseUrl}/healthz`)).status, 200);
    assert.equal((await fetch(`${svc.baseUrl}/readyz`)).status, 200);
  });

  it('/api/v1/openapi.json needs the read scope, like the routes it describes (and like introspection, off with tokens)', async () => {
    const doc = (headers: Record<string, string>) => fetch(`${svc.baseUrl}/api/v1/openapi.json`, { headers });
    assert.equal((await doc({})).status, 401);
    assert.equal((await doc(bearer(made.ingest.token))).status, 403);
    const ok = await doc(bearer(made.read.token));
    assert.equal(ok.status, 200);
    assert.equal(((await ok.json()) as { openapi: string }).openapi, '3.1.0');
  });

  it('answers CORS preflights for the configured origins only', async () => {
    const preflight = (origin: string) =>
      fetch(`${svc.baseUrl}/graphql`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
      });
    const allowed = await preflight('https://explorer.example');
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://explorer.example');
    const other = await preflight('https://evil.example');
    assert.equal(other.headers.get('access-control-allow-origin'), null);
  });
});

describe('rate limit per token', () => {
  it('answers 429 LIMIT_EXCEEDED past TRIBUTARY_RATE_LIMIT requests a minute, per token; health is exempt', async () => {
    const limited = await startService({ TRIBUTARY_TOKENS_FILE: file, TRIBUTARY_RATE_LIMIT: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await limited.post('/graphql', JSON.stringify({ query: '{ __typename }' }), bearer(made.read.token))).status);
      assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
      const over = await limited.post('/graphql', JSON.stringify({ query: '{ __typename }' }), bearer(made.read.token));
      assert.equal(over.body.error.code, 'LIMIT_EXCEEDED');
      assert.match(over.body.error.message, /more than 3 requests a minute/);
      // Another token has its own budget; health checks are never limited.
      assert.equal((await limited.post('/graphql', JSON.stringify({ query: '{ __typename }' }), bearer(made.admin.token))).status, 200);
      for (let i = 0; i < 5; i++) assert.equal((await fetch(`${limited.baseUrl}/healthz`)).status, 200);
    } finally {
      await limited.close();
    }
  });
});

/**
 * One request with exactly these headers (node:http: fetch would trim the header values), from
 * `localAddress` when given (Linux routes all of 127.0.0.0/8 to the loopback, so 127.0.0.2 is
 * another client address of the same machine).
 */
function send(
  baseUrl: string,
  o: { method?: string; path: string; headers?: Record<string, string>; body?: string; localAddress?: string },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }> {
  return new Promise((resolve, reject) => {
    const url = new URL(o.path, baseUrl);
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method: o.method ?? 'GET', localAddress: o.localAddress, headers: { ...(o.body ? { 'content-type': 'application/json' } : {}), ...o.headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => {
          let body: any = text;
          try {
            body = JSON.parse(text);
          } catch {
            // leave as text
          }
          resolve({ status: res.statusCode!, headers: res.headers, body });
        });
      },
    );
    req.on('error', reject);
    req.end(o.body);
  });
}

/** How many answers had each status, e.g. {200: 30, 429: 15}. */
const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});
/** Statuses must be all `first` and then all 429 (none back after the first 429). */
const inOrder = (statuses: number[], first: number, n: number) => assert.deepEqual(statuses, [...Array(n).fill(first), ...Array(statuses.length - n).fill(429)]);
const randomBearer = () => ({ authorization: `Bearer x${randomBytes(12).toString('hex')}` });
const typename = JSON.stringify({ query: '{ __typename }' });

describe('rate limits keyed by who the request acts as, not by the header text', () => {
  it('without a tokens file: 45 ingestions, each with a new random bearer text, share the address budget (30 × 201, then 429); health is exempt', async () => {
    const open = await startService({ TRIBUTARY_RATE_LIMIT: '30', TRIBUTARY_INGEST_WAIT: 'none' });
    try {
      const prefix = uniquePrefix('rate-open');
      const statuses: number[] = [];
      for (let i = 0; i < 45; i++) {
        statuses.push((await send(open.baseUrl, { method: 'POST', path: '/api/v1/lineage', body: JSON.stringify(runEvent(prefix, { job: `j${i}` })), headers: randomBearer() })).status);
      }
      process.stdout.write(`# open, random bearer texts: ${JSON.stringify(tally(statuses))}\n`);
      inOrder(statuses, 201, 30);
      // Reads too: the same address, the same budget, whatever the header says.
      const read = await send(open.baseUrl, { method: 'POST', path: '/graphql', body: typename, headers: randomBearer() });
      assert.deepEqual([read.status, read.body.error.code], [429, 'LIMIT_EXCEEDED']);
      assert.ok(Number(read.headers['retry-after']) > 0, 'Retry-After');
      for (let i = 0; i < 5; i++) assert.equal((await send(open.baseUrl, { path: '/healthz', headers: randomBearer() })).status, 200);
    } finally {
      await open.close();
    }
  });

  it('with a tokens file: one token in 45 spellings (Bearer in any case, extra spaces) is one budget (30 × 200, then 429); another token has its own', async () => {
    const limited = await startService({ TRIBUTARY_TOKENS_FILE: file, TRIBUTARY_RATE_LIMIT: '30' });
    try {
      const spellings = (token: string, i: number) => `${['Bearer', 'bearer', 'BEARER', 'bEaReR'][i % 4]}${' '.repeat(1 + (i % 3))}${token}${' '.repeat(i % 5)}`;
      const statuses: number[] = [];
      for (let i = 0; i < 45; i++) {
        statuses.push((await send(limited.baseUrl, { method: 'POST', path: '/graphql', body: typename, headers: { authorization: spellings(made.read.token, i) } })).status);
      }
      process.stdout.write(`# tokens file, one token in 45 spellings: ${JSON.stringify(tally(statuses))}\n`);
      inOrder(statuses, 200, 30);
      // REST reads and GraphQL share the principal's budget.
      assert.equal((await send(limited.baseUrl, { path: '/api/v1/coverage', headers: bearer(made.read.token) })).status, 429);
      // Limits are per principal: "ops" is not "catalog".
      assert.equal((await send(limited.baseUrl, { method: 'POST', path: '/graphql', body: typename, headers: { authorization: spellings(made.admin.token, 1) } })).status, 200);
      for (let i = 0; i < 5; i++) assert.equal((await send(limited.baseUrl, { path: '/readyz' })).status, 200);
    } finally {
      await limited.close();
    }
  });

  it('failed authentication is limited per client address (30 × 401, then 429 with Retry-After, the right token too), on by default; another address is not', async () => {
    // TRIBUTARY_RATE_LIMIT unset: the guessing protection does not depend on it.
    const guarded = await startService({ TRIBUTARY_TOKENS_FILE: file });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 45; i++) statuses.push((await send(guarded.baseUrl, { method: 'POST', path: '/graphql', body: typename, headers: randomBearer() })).status);
      process.stdout.write(`# tokens file, 45 wrong tokens: ${JSON.stringify(tally(statuses))}\n`);
      inOrder(statuses, 401, 30);
      const over = await send(guarded.baseUrl, { method: 'POST', path: '/api/v1/lineage', body: '{}', headers: randomBearer() });
      assert.deepEqual([over.status, over.body.error.code], [429, 'LIMIT_EXCEEDED']);
      assert.match(over.body.error.message, /failed authentications/);
      const wait = Number(over.headers['retry-after']);
      assert.ok(wait > 0 && wait <= 60, `Retry-After ${over.headers['retry-after']}`);
      // No oracle: from this address the right token is refused the same way until the minute is over.
      assert.equal((await send(guarded.baseUrl, { method: 'POST', path: '/graphql', body: typename, headers: bearer(made.read.token) })).status, 429);
      // Another client address has its own budget; health stays open.
      const other = await send(guarded.baseUrl, { method: 'POST', path: '/graphql', body: typename, headers: bearer(made.read.token), localAddress: '127.0.0.2' });
      assert.equal(other.status, 200);
      assert.equal((await send(guarded.baseUrl, { method: 'POST', path: '/graphql', body: typename, headers: randomBearer(), localAddress: '127.0.0.2' })).status, 401);
      assert.equal((await send(guarded.baseUrl, { path: '/healthz', headers: randomBearer() })).status, 200);
    } finally {
      await guarded.close();
    }
  });

  it('60 wrong tokens pipelined on one connection: exactly the budget is checked (30 × 401, 30 × 429)', async () => {
    const guarded = await startService({ TRIBUTARY_TOKENS_FILE: file });
    try {
      const url = new URL(guarded.baseUrl);
      const request = (i: number) => `GET /api/v1/coverage HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer wrong-${i}\r\n\r\n`;
      const statuses = await new Promise<number[]>((resolve, reject) => {
        const socket = net.connect(Number(url.port), url.hostname);
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => {
          text += chunk;
          const seen = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
          if (seen.length === 60) {
            socket.destroy();
            resolve(seen);
          }
        });
        socket.on('error', reject);
        socket.write(Array.from({ length: 60 }, (_, i) => request(i)).join(''));
      });
      process.stdout.write(`# 60 pipelined wrong tokens: ${JSON.stringify(tally(statuses))}\n`);
      assert.deepEqual(tally(statuses), { 401: 30, 429: 30 });
    } finally {
      await guarded.close();
    }
  });

  it('an ingest key without a tokens file: wrong keys are limited per address too (30 × 401, then 429)', async () => {
    const keyed = await startService({ TRIBUTARY_INGEST_KEY: 'a-short-key' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 35; i++) statuses.push((await send(keyed.baseUrl, { method: 'POST', path: '/api/v1/lineage', body: '{}', headers: randomBearer() })).status);
      inOrder(statuses, 401, 30);
      // Open reads check no credential: nothing to guess, nothing refused.
      assert.equal((await send(keyed.baseUrl, { method: 'POST', path: '/graphql', body: typename, headers: randomBearer() })).status, 200);
    } finally {
      await keyed.close();
    }
  });
});

describe('OIDC / JWT tokens from a configured issuer', () => {
  it('accepts a JWT signed by a key of the issuer JWKS with the scope; refuses expired, other-audience, other-issuer and unsigned ones', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    const jwks = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })));
    await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', r));
    const jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
    const issuer = 'https://idp.test.example';
    const sign = (claims: Record<string, unknown>, opts: { aud?: string; iss?: string; exp?: string } = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setSubject('steward@example')
        .setIssuer(opts.iss ?? issuer)
        .setAudience(opts.aud ?? 'tributary')
        .setIssuedAt()
        .setExpirationTime(opts.exp ?? '5m')
        .sign(privateKey);
    const oidc = await startService({ TRIBUTARY_JWT_ISSUER: issuer, TRIBUTARY_JWT_AUDIENCE: 'tributary', TRIBUTARY_JWKS_URL: jwksUrl });
    try {
      const ask = async (token: string) => (await oidc.post('/graphql', JSON.stringify({ query: '{ __typename }' }), bearer(token))).status;
      assert.equal(await ask(await sign({ scope: 'openid tributary:read' })), 200);
      assert.equal(await ask(await sign({ scp: ['read'] })), 200);
      assert.equal(await ask(await sign({ scope: 'tributary:ingest' })), 403, 'no read scope');
      assert.equal(await ask(await sign({ scope: 'read' }, { exp: '-10m' })), 401, 'expired');
      assert.equal(await ask(await sign({ scope: 'read' }, { aud: 'another-app' })), 401, 'other audience');
      assert.equal(await ask(await sign({ scope: 'read' }, { iss: 'https://evil.example' })), 401, 'other issuer');
      const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ iss: issuer, aud: 'tributary', scope: 'read' })).toString('base64url')}.`;
      assert.equal(await ask(unsigned), 401, 'alg none');
      assert.equal((await oidc.post('/graphql', JSON.stringify({ query: '{ __typename }' }))).status, 401, 'no token');
    } finally {
      await oidc.close();
      jwks.close();
    }
  });
});

describe('the tokens file', () => {
  it('refuses a bad file with every problem named, and a token name twice', () => {
    const bad = path.join(dir, 'bad.yaml');
    fs.writeFileSync(bad, 'tokens:\n  - { name: a, sha256: abc, scopes: [write] }\n');
    assert.throws(() => loadTokens(bad), (e: unknown) => e instanceof ConfigError && /sha256/.test(e.message) && /scopes/.test(e.message));
    fs.writeFileSync(bad, `tokens:\n${made.read.line}\n${made.read.line}\n`);
    assert.throws(() => loadTokens(bad), /token name used twice: catalog/);
    assert.throws(() => loadTokens(path.join(dir, 'missing.yaml')), /cannot read/);
    // The same text from TRIBUTARY_TOKENS (a secret store's environment variable).
    assert.deepEqual(loadTokens(undefined, JSON.stringify({ tokens: [{ name: 'env', sha256: 'a'.repeat(64), scopes: ['read'] }] })), [
      { name: 'env', sha256: 'a'.repeat(64), scopes: ['read'] },
    ]);
    assert.throws(() => loadTokens(undefined, '{tokens: [}'), /TRIBUTARY_TOKENS: cannot read/);
    assert.throws(() => newToken('x', ['write']), /scopes among ingest, read, admin/);
    assert.deepEqual(loadTokens(file).map((t) => [t.name, t.scopes]), [
      ['spark-prod', ['ingest']],
      ['catalog', ['read']],
      ['ops', ['admin', 'read']],
    ]);
  });
});
