import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config';
import { createApp } from '../../src/app';
import { startEmbeddedNeo4j } from '../../src/graph/embedded/neo4j';
import { datasetId, fieldId } from '../../src/ids';
import { createLogger } from '../../src/log';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import fs from 'node:fs';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * Hostile and careless use of the read operations this session added or changed (search ranking,
 * the dependencies argument, path truncation, trace direction): malformed, huge, unicode,
 * concurrent and repeated requests get a 4xx-class GraphQL error with a reason or the same answer,
 * never INTERNAL; and a Neo4j that goes away mid-use gives UNAVAILABLE, not a crash.
 */
let svc: TestService;
let ns: string;
before(async () => {
  svc = await startService();
  ns = uniquePrefix('hostile');
  for (const e of [
    runEvent(ns, { job: 'j1', inputs: ['raw.orders'], outputs: ['mart.paid_orders'], columns: { 'mart.paid_orders': { total: ['raw.orders.amount'] } } }),
    runEvent(ns, { job: 'j2', inputs: ['mart.paid_orders'], outputs: ['Straße.日本_orders'] }),
  ]) {
    assert.equal((await svc.postEvent(e)).status, 201);
  }
});
after(() => svc.close());

const code = (res: { errors?: { extensions: { code: string } }[] }) => res.errors?.[0]?.extensions.code;

describe('hostile reads', () => {
  it('malformed arguments are BAD_INPUT with a reason', async () => {
    const cases: [string, RegExp][] = [
      [`{ trace(nodeId: "${fieldId(ns, 'x', 'y')}", dependencies: SOME) { depth } }`, /Dependencies/],
      [`{ trace(nodeId: "${fieldId(ns, 'x', 'y')}", direction: BOTH) { depth } }`, /UPSTREAM or DOWNSTREAM/],
      [`{ trace(nodeId: "${fieldId(ns, 'x', 'y')}", depth: 0) { depth } }`, /depth must be a positive integer/],
      [`{ path(fromId: "${datasetId(ns, 'raw.orders')}", toId: "${datasetId(ns, 'x')}", maxLength: 21) { found } }`, /maxLength must be between 1 and 20/],
      [`{ path(fromId: "${datasetId(ns, 'raw.orders')}", toId: "${datasetId(ns, 'x')}", first: 0) { found } }`, /first must be between 1 and 20/],
      [`{ search(text: "-- ** ::") { total } }`, /letter or digit/],
      [`{ search(text: "${Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ')}") { total } }`, /more than 20 words/],
      [`{ search(text: "orders", first: 101) { total } }`, /first must be between 1 and 100/],
      [`{ search(text: "orders", after: "not-a-cursor") { total } }`, /invalid cursor/],
      [`{ lineage(nodeId: "datasetField:a:b", granularity: FIELD, dependencies: DIRECT) { depth } }`, /malformed node id/],
      [`{ identity(id: "job:${ns}:j1") { id } }`, /expected dataset or datasetField/],
      [`{ identity(id: "run:8b1f0c6a-3b52-4d2b-9c55-8d3bc1f7a001") { id } }`, /expected dataset or datasetField/],
      [`{ identity(id: "dataset:a%ZZ:b") { id } }`, /only %25 and %3A escapes/],
      [`{ identity(id: "${datasetId(ns, 'raw.orders')}", first: 0) { id } }`, /first must be between 1 and 500/],
      [`{ identity(id: "${datasetId(ns, 'raw.orders')}", first: 501) { id } }`, /first must be between 1 and 500/],
    ];
    for (const [q, reason] of cases) {
      const res = await svc.graphql(q);
      assert.equal(code(res), 'BAD_INPUT', `${q}: ${JSON.stringify(res)}`);
      assert.match(res.errors![0].message, reason, q);
    }
  });

  it('huge and unicode search texts answer (found, not found, or BAD_INPUT with the limit), never INTERNAL', async () => {
    const huge = await svc.graphql(`query($t: String!) { search(text: $t) { total } }`, { t: 'x'.repeat(100_000) });
    assert.equal(code(huge), 'BAD_INPUT', JSON.stringify(huge.errors));
    assert.match(huge.errors![0].message, /at most 200 characters/);
    const long = await svc.graphql(`query($t: String!) { search(text: $t) { total } }`, { t: 'y'.repeat(200) });
    assert.equal(long.errors, undefined, JSON.stringify(long.errors));
    const uni = await svc.graphql(`query($t: String!) { search(text: $t, kinds: [DATASET]) { hits { id match } } }`, { t: 'straße.日本_orders' });
    assert.equal(uni.errors, undefined, JSON.stringify(uni.errors));
    assert.deepEqual(uni.data.search.hits.filter((h: { id: string }) => h.id.includes(ns)), [{ id: datasetId(ns, 'Straße.日本_orders'), match: 'EXACT' }]);
    const emoji = await svc.graphql(`{ search(text: "🦀 orders") { total } }`);
    assert.equal(emoji.errors, undefined, JSON.stringify(emoji.errors));
    // lineageBreaks scoped by a huge, a unicode or a Cypher-looking prefix: an answer (empty), never an error.
    for (const prefix of ['x'.repeat(100_000), 'Straße/日本/🦀', "') DETACH DELETE n //"]) {
      const res = await svc.graphql(`query($ns: String) { lineageBreaks(namespace: $ns) { sources { id } sinks { id } probableMatches { sourceId } } }`, { ns: prefix });
      assert.deepEqual(res, { data: { lineageBreaks: { sources: [], sinks: [], probableMatches: [] } } }, prefix.slice(0, 40));
    }
  });

  it('identity answers NOT_FOUND for unknown, huge and unicode names, and the name under a unicode one', async () => {
    for (const id of [datasetId(ns, 'nope'), datasetId(ns, 'ü'.repeat(50_000)), fieldId(`${ns}kafka://Broker:1`, '🦀', 'x')]) {
      const res = await svc.graphql(`query($id: ID!) { identity(id: $id) { id } }`, { id });
      assert.equal(code(res), 'NOT_FOUND', JSON.stringify(res).slice(0, 300));
      assert.ok(res.errors![0].message.length < 1000, 'the message quotes a long id shortened');
    }
    const uni = await svc.graphql(`query($id: ID!) { identity(id: $id) { id names { source name } field } }`, { id: fieldId(ns, 'Straße.日本_orders', 'x') });
    assert.equal(uni.errors, undefined, JSON.stringify(uni.errors));
    assert.deepEqual(uni.data.identity, { id: datasetId(ns, 'Straße.日本_orders'), field: 'x', names: [{ source: 'CANONICAL', name: 'Straße.日本_orders' }] });
  });

  it('concurrent and repeated requests give the same answers as one at a time', async () => {
    const queries = [
      [`query($t: String!) { search(text: $t, first: 50) { total hits { id match } } }`, { t: 'paid_orders' }],
      [`query($id: ID!) { trace(nodeId: $id, direction: DOWNSTREAM) { hops { fromId toId types } } }`, { id: fieldId(ns, 'raw.orders', 'amount') }],
      [`query($a: ID!, $b: ID!) { path(fromId: $a, toId: $b) { found truncated paths { length } } }`, { a: datasetId(ns, 'raw.orders'), b: datasetId(ns, 'Straße.日本_orders') }],
      [`query($id: ID!) { lineage(nodeId: $id, granularity: FIELD, dependencies: DIRECT) { nodes { id } } }`, { id: fieldId(ns, 'mart.paid_orders', 'total') }],
      [`query($id: ID!) { identity(id: $id) { id names { id source } } }`, { id: fieldId(ns, 'mart.paid_orders', 'total') }],
      [`query($ns: String) { lineageBreaks(namespace: $ns) { sources { id } probableMatches { sourceId writtenId } } }`, { ns }],
    ] as const;
    const alone: string[] = [];
    for (const [q, v] of queries) alone.push(JSON.stringify(await svc.graphql(q, v)));
    const n = queries.length;
    // 48 at once: within one client's share (TRIBUTARY_GRAPHQL_CLIENT_QUEUE, 50, waiting, plus the
    // heavy slots); past it a client is answered 503 with Retry-After (test/api/starvation.test.ts).
    const together = await Promise.all(Array.from({ length: 48 }, (_, i) => svc.graphql(queries[i % n]![0], queries[i % n]![1])));
    together.forEach((r, i) => assert.equal(JSON.stringify(r), alone[i % n], `request ${i}`));
    assert.ok(alone.every((a) => !a.includes('"errors"')), alone.join('\n'));
  });
});

describe('reads while Neo4j goes away', () => {
  it('answer UNAVAILABLE (never INTERNAL), the process stays up, and answer again once Neo4j is back', async () => {
    const config = loadConfig();
    const home = path.join(config.embedded.home, `test-hostile-${process.pid}`);
    const log = createLogger('error');
    let neo4j = await startEmbeddedNeo4j({ ...config.embedded, home, port: 0, heap: '512m', pageCache: '128m' }, log);
    const port = Number(new URL(neo4j.uri.replace('bolt:', 'http:')).port);
    const app = await createApp({ ...config, ingest: { ...config.ingest, spoolDir: path.join(home, 'spool') }, neo4j: { uri: neo4j.uri, user: 'neo4j' } }, log);
    await app.server.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
    const gql = async (query: string) => (await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) })).json() as Promise<any>;
    const Q = `{ search(text: "orders") { total } trace(nodeId: "${fieldId('n', 'd', 'f')}") { depth }
      identity(id: "${datasetId('n', 'd')}") { id } lineageBreaks(namespace: "n") { truncated } }`;
    try {
      assert.equal((await gql(Q)).errors[0].extensions.code, 'NOT_FOUND');
      await neo4j.stop();
      const down = await gql(Q);
      assert.deepEqual([...new Set(down.errors.map((e: { extensions: { code: string } }) => e.extensions.code))], ['UNAVAILABLE'], JSON.stringify(down));
      assert.equal((await fetch(`${url}/healthz`)).status, 200);
      neo4j = await startEmbeddedNeo4j({ ...config.embedded, home, port, heap: '512m', pageCache: '128m' }, log);
      let back: any = null;
      for (let i = 0; i < 60 && back?.errors?.[0]?.extensions.code !== 'NOT_FOUND'; i++) {
        back = await gql(Q);
        if (back?.errors?.[0]?.extensions.code !== 'NOT_FOUND') await new Promise((r) => setTimeout(r, 500));
      }
      assert.equal(back.errors[0].extensions.code, 'NOT_FOUND', JSON.stringify(back));
    } finally {
      await app.close();
      await neo4j.stop();
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
