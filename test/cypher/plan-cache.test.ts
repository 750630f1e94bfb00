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
 * same text and parameter shape again does not, and a list in another size bucket (1, then 50)
 * compiles as much again: the multiplication the plan warm-up's shapes exist for. Other test files compile
 * plans meanwhile (they run in parallel), so each figure is the least of a few attempts.
 */
describe('Neo4j plan compilations (the embedded Neo4j)', () => {
  it('are counted: one for a new query, none for a cached one, one more for another list-size bucket', async (t) => {
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
      for (let attempt = 0; attempt < 3; attempt++) {
        // A query no other test sends (a new column name: a comment or a literal would not make a new plan).
        const text = `EXPLAIN UNWIND $ids AS id MATCH (d:Dataset {id: id}) RETURN d.name AS name_${randomUUID().replace(/-/g, '')}`;
        fresh.push(await compiledBy(() => session.run(text, ids(1))));
        cached.push(await compiledBy(() => session.run(text, ids(1))));
        bucket.push(await compiledBy(() => session.run(text, ids(50))));
      }
      const least = (xs: number[]) => Math.min(...xs);
      // Neo4j 5.26 counts 2 for a new statement (measured); what matters is that a new list-size
      // bucket costs what a new statement does, and a cached shape nothing.
      assert.ok(least(fresh) >= 1, `a new query text: ${fresh.join(', ')} plans compiled`);
      assert.equal(least(cached), 0, `the same text and shape again: ${cached.join(', ')}`);
      assert.equal(least(bucket), least(fresh), `a list of 50 after one of 1: ${bucket.join(', ')}; a new text: ${fresh.join(', ')}`);
    } finally {
      await session.close();
    }
  });
});
