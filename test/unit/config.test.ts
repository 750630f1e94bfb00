import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, parseByteSize } from '../../src/config';

describe('config', () => {
  it('defaults to the embedded Neo4j, port 5000 and a 16 MiB event limit', () => {
    const c = loadConfig({});
    assert.equal(c.neo4j, undefined);
    assert.equal(c.http.port, 5000);
    assert.equal(c.ingest.maxEventBytes, 16 * 1024 * 1024);
    assert.equal(c.lineage.maxDepth, 20);
    // Marquez's API answers whole graphs: its own node cap, larger than GraphQL's.
    assert.equal(c.marquez.maxNodes, 10_000);
    assert.equal(loadConfig({ TRIBUTARY_MARQUEZ_MAX_NODES: '50000' }).marquez.maxNodes, 50_000);
    assert.throws(() => loadConfig({ TRIBUTARY_MARQUEZ_MAX_NODES: '0' }), /TRIBUTARY_MARQUEZ_MAX_NODES/);
  });

  it('refreshes query plans every 10 s with the embedded Neo4j, not at all with NEO4J_URI unless asked', () => {
    assert.equal(loadConfig({}).planRefreshS, 10);
    assert.equal(loadConfig({}).embedded.refresherReplans, true);
    const server = loadConfig({ NEO4J_URI: 'bolt://db:7687' });
    assert.equal(server.planRefreshS, 0);
    assert.equal(server.embedded.refresherReplans, false);
    assert.equal(loadConfig({ NEO4J_URI: 'bolt://db:7687', TRIBUTARY_PLAN_REFRESH_S: '30' }).planRefreshS, 30);
    assert.equal(loadConfig({ TRIBUTARY_PLAN_REFRESH_S: '0' }).embedded.refresherReplans, false);
    assert.throws(() => loadConfig({ TRIBUTARY_PLAN_REFRESH_S: '-1' }), /TRIBUTARY_PLAN_REFRESH_S/);
    assert.throws(() => loadConfig({ TRIBUTARY_PLAN_REFRESH_S: '1.5' }), /TRIBUTARY_PLAN_REFRESH_S/);
  });

  it('accepts neo4j:// routing URIs with credentials and database', () => {
    const c = loadConfig({ NEO4J_URI: 'neo4j+s://cluster.example:7687', NEO4J_USER: 'u', NEO4J_PASSWORD: 'p', NEO4J_DATABASE: 'lineage' });
    assert.deepEqual(c.neo4j, { uri: 'neo4j+s://cluster.example:7687', user: 'u', password: 'p', database: 'lineage' });
  });

  it('names every invalid variable', () => {
    assert.throws(
      () => loadConfig({ PORT: 'eighty', NEO4J_URI: 'http://x', TRIBUTARY_MAX_EVENT_BYTES: 'lots' }),
      (e: unknown) =>
        e instanceof ConfigError &&
        e.message.includes('PORT') &&
        e.message.includes('NEO4J_URI') &&
        e.message.includes('TRIBUTARY_MAX_EVENT_BYTES'),
    );
    assert.throws(() => loadConfig({ TRIBUTARY_DEFAULT_DEPTH: '30', TRIBUTARY_MAX_DEPTH: '10' }), /DEFAULT_DEPTH exceeds/);
  });

  it('treats empty variables as unset', () => {
    const c = loadConfig({ TRIBUTARY_INGEST_KEY: '', NEO4J_URI: '' });
    assert.equal(c.ingest.key, undefined);
    assert.equal(c.neo4j, undefined);
  });

  it('parses byte sizes', () => {
    assert.equal(parseByteSize('1048576'), 1048576);
    assert.equal(parseByteSize('512k'), 512 * 1024);
    assert.equal(parseByteSize('16mb'), 16 * 1024 * 1024);
    assert.equal(parseByteSize('1G'), 1024 ** 3);
  });
});
