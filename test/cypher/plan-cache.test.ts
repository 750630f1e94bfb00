import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import neo4j from 'neo4j-driver';
import { readPlanCounters } from '../../src/graph/plan-cache';
import { startService, type TestService } from '../support/app';

let svc: TestService;
before(async () => {
  svc = await startService();
});
after(() => svc.close());

/**
 * The embedded Neo4j (tools/neo4j/Launcher.java) counts its plan compilations
 * (`tributary.queryCaches()`, src/graph/plan-cache.ts): a query text it has not seen compiles, the
 * same text and parameter shape again does not; and it plans without parameter sizes, so a list in
 * another size bucket (1, then 50, then 5,000) compiles nothing either, where a Neo4j with default
 * settings compiles as much again for each. Other test files compile
 * plans meanwhile (they run in parallel, and a warm-up compiles back to back for seconds), so each
 * figure is the least of up to ten attempts, stopping once each has been seen as asserted.
 */
describe('Neo4j plan compilations (the embedded Neo4j)', () => {
  it('are counted: some for a new query, none for a cached one, none for lists of other sizes', async (t) => {
    const first = await readPlanCounters(svc.app.executor);
    if (first === null && process.env.TRIBUTARY_TEST_EMBEDDED_NEO4J !== '1') return t.skip('this Neo4j does not count its plans (NEO4J_URI names a server other than the embedded one)');
    assert.ok(first, 'the embedded Neo4j has no tributary.queryCaches() procedure (tools/neo4j/Launcher.java)');
    assert.ok(first.plans > 0, JSON.stringify(first));
    const session = svc.app.driver.session({ defaultAccessMode: neo4j.session.READ });
    try {
      const ids = (n: number) => ({ ids: Array.from({ length: n }, (_, i) => `t-plan-cache:${i}`) });
      const fresh: number[] = [];
      const cached: number[] = [];
      const bucket: number[] = [];
      const compiledBy = async (work: () => Promise<unknown>) => {
        const before = (await readPlanCounters(svc.app.executor))!;
        await work();
        return (await readPlanCounters(svc.app.executor))!.plans - before.plans;
      };
      const least = (xs: number[]) => Math.min(...xs);
      for (let attempt = 0; attempt < 10; attempt++) {
        // A query no other test sends (a new column name: a comment or a literal would not make a new plan).
        const text = `EXPLAIN UNWIND $ids AS id MATCH (d:Dataset {id: id}) RETURN d.name AS name_${randomUUID().replace(/-/g, '')}`;
        fresh.push(await compiledBy(() => session.run(text, ids(1))));
        cached.push(await compiledBy(() => session.run(text, ids(1))));
        bucket.push(await compiledBy(async () => {
          await session.run(text, ids(50));
          await session.run(text, ids(5_000));
        }));
        if (least(fresh) >= 1 && least(cached) === 0 && least(bucket) === 0) break;
      }
      assert.ok(least(fresh) >= 1, `a new query text: ${fresh.join(', ')} plans compiled`);
      assert.equal(least(cached), 0, `the same text and shape again: ${cached.join(', ')}`);
      assert.equal(least(bucket), 0, `lists of 50 and 5,000 after one of 1: ${bucket.join(', ')} plans compiled (a new text: ${fresh.join(', ')}); is internal.cypher.use_parameter_size still false?`);
    } finally {
      await session.close();
    }
  });

  it('are kept apart for a statement after an uncommitted write, even one undone (warmup.ts: // Warm-up transaction:)', async (t) => {
    if ((await readPlanCounters(svc.app.executor)) === null) return t.skip('this Neo4j does not count its plans');
    const plans = async () => (await readPlanCounters(svc.app.executor))!.plans;
    // The same statement, planned clean first, then again after `before` in one (rolled back) transaction.
    const compiledAfter = async (before: string) => {
      const session = svc.app.driver.session({ defaultAccessMode: neo4j.session.WRITE });
      const tx = session.beginTransaction();
      try {
        const text = `EXPLAIN UNWIND $ids AS id MATCH (d:Dataset {id: id}) RETURN d.name AS name_${randomUUID().replace(/-/g, '')}`;
        await tx.run(text, { ids: ['a'] });
        await tx.run(before, { id: `t-plan-cache:${randomUUID()}` });
        const p0 = await plans();
        await tx.run(text, { ids: ['a'] });
        return (await plans()) - p0;
      } finally {
        await tx.rollback();
        await session.close();
      }
    };
    const created: number[] = [];
    const undone: number[] = [];
    const read: number[] = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      created.push(await compiledAfter('CREATE (:Dataset {id: $id})'));
      undone.push(await compiledAfter('CREATE (d:Dataset {id: $id}) WITH d DETACH DELETE d'));
      read.push(await compiledAfter('MATCH (d:Dataset {id: $id}) RETURN d'));
      if (Math.min(...read) === 0) break;
    }
    // Other files compile meanwhile: a compile is asserted in every attempt, none in at least one.
    assert.ok(Math.min(...created) >= 1, `after a CREATE: ${created.join(', ')} plans compiled`);
    assert.ok(Math.min(...undone) >= 1, `after a write undone in the same transaction: ${undone.join(', ')}`);
    assert.equal(Math.min(...read), 0, `after a read: ${read.join(', ')}`);
  });
});
