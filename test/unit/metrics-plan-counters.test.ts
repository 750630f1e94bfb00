import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Metrics, PLAN_COUNTERS_WAIT_MS } from '../../src/metrics';

/** A scrape, which must be answered within the plan counters' wait (plus a second of slack) whatever Neo4j does. */
async function scrapeWithinWait(m: Metrics): Promise<string> {
  const started = Date.now();
  const text = await m.registry.metrics();
  const ms = Date.now() - started;
  assert.ok(ms < PLAN_COUNTERS_WAIT_MS + 1_000, `the scrape took ${ms} ms`);
  return text;
}

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
    const text = await scrapeWithinWait(m);
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

describe('plan compiles named at the scrape', () => {
  const named = (text: string) => /^tributary_plans_compiled_after_warmup_total\{query="lineage\/node-exists",cause="new"\} (\d+)$/m.exec(text)?.[1];

  it('names the compiles after reading the counters, once per scrape, and shows them in that scrape', async () => {
    const m = new Metrics(false);
    const calls: string[] = [];
    m.planCounters = async () => {
      calls.push('counters');
      return { plans: 7, codeGen: 0, stale: 0 };
    };
    m.namePlanCompiles = async () => {
      calls.push('names');
      m.plansCompiledAfterWarmUp.inc({ query: 'lineage/node-exists', cause: 'new' });
    };
    const text = await m.registry.metrics();
    assert.deepEqual(calls, ['counters', 'names']);
    assert.equal(named(text), '1', 'named in the scrape that counted it');
    assert.match(text, /^tributary_neo4j_plans_compiled\{kind="plan"\} 7$/m);
  });

  it('keeps the counters and answers the scrape when naming fails or hangs', { timeout: 5_000 }, async () => {
    const m = new Metrics(false);
    m.planCounters = async () => ({ plans: 9, codeGen: 1, stale: 0 });
    m.namePlanCompiles = () => {
      throw new Error('the watch broke');
    };
    assert.match(await m.registry.metrics(), /^tributary_neo4j_plans_compiled\{kind="plan"\} 9$/m);
    m.namePlanCompiles = () => new Promise(() => undefined);
    const text = await scrapeWithinWait(m);
    assert.match(text, /^tributary_neo4j_plans_compiled\{kind="codegen"\} 1$/m);
    assert.match(text, /^tributary_projection_lag_seconds 0$/m);
  });
});
