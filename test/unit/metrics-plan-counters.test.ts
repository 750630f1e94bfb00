import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Metrics, PLAN_COUNTERS_WAIT_MS } from '../../src/metrics';

describe('tributary_neo4j_plans_compiled on /metrics', () => {
  it('shows the counters Neo4j gives', async () => {
    const m = new Metrics(false);
    m.planCounters = async () => ({ plans: 12, codeGen: 3, stale: 1 });
    const text = await m.registry.metrics();
    assert.match(text, /^tributary_neo4j_plans_compiled\{kind="plan"\} 12$/m);
    assert.match(text, /^tributary_neo4j_plans_compiled\{kind="codegen"\} 3$/m);
    assert.match(text, /^tributary_neo4j_plans_compiled\{kind="stale"\} 1$/m);
  });

  it('answers the scrape without them when Neo4j does not answer (frozen), keeping the last values', { timeout: 5_000 }, async () => {
    const m = new Metrics(false);
    m.planCounters = async () => ({ plans: 5, codeGen: 0, stale: 0 });
    await m.registry.metrics();
    m.planCounters = () => new Promise(() => undefined);
    const started = Date.now();
    const text = await m.registry.metrics();
    const ms = Date.now() - started;
    assert.ok(ms < PLAN_COUNTERS_WAIT_MS + 1_000, `the scrape took ${ms} ms`);
    assert.match(text, /^tributary_neo4j_plans_compiled\{kind="plan"\} 5$/m);
    assert.match(text, /^tributary_projection_lag_seconds 0$/m);
  });

  it('answers the scrape without them when reading fails or the server does not count them', async () => {
    const m = new Metrics(false);
    m.planCounters = async () => {
      throw new Error('Neo4j is down');
    };
    assert.doesNotMatch(await m.registry.metrics(), /^tributary_neo4j_plans_compiled\{/m);
    m.planCounters = async () => null;
    assert.doesNotMatch(await m.registry.metrics(), /^tributary_neo4j_plans_compiled\{/m);
  });
});
