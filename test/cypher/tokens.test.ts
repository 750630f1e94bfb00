import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j from 'neo4j-driver';
import { loadQueries, Query } from '../../src/graph/queries';
import { warmUpShapes } from '../../src/graph/warmup';
import { startService, type TestService } from '../support/app';

let svc: TestService;
before(async () => {
  svc = await startService();
});
after(() => svc.close());

const UNKNOWN = /^Neo\.ClientNotification\.Statement\.Unknown(Label|RelationshipType|PropertyKey)Warning$/;

/**
 * Neo4j drops a cached plan that named a label, relationship type or property key the database
 * did not have once that name is created (src/graph/tokens.ts), so the service creates every name
 * its queries use at start-up. Here every query is EXPLAINed as the warm-up would (its first
 * declared shape; with no parameters where it declares none) and Neo4j's own notifications must
 * name no unknown token. The shared test database holds what other files wrote, so this cannot
 * tell a name the queries use from one the data made; on a new store the bench's compile log
 * (`query plan compiled after the warm-up`) shows the rest.
 */
describe('tokens (against Neo4j)', () => {
  it('leaves no query naming a label, relationship type or property key Neo4j does not know', async () => {
    const texts = loadQueries();
    const shapes = warmUpShapes(texts);
    const unknown: string[] = [];
    const session = svc.app.driver.session({ defaultAccessMode: neo4j.session.READ });
    try {
      for (const query of Object.values(Query)) {
        if (query.startsWith('health/')) continue;
        const params = shapes.get(query)?.[0] ?? {};
        const result = await session.run(`EXPLAIN ${texts[query]}`, params);
        for (const n of result.summary.notifications) if (UNKNOWN.test(n.code)) unknown.push(`${query}: ${n.description.replace(/^.*\(the missing \w+ name is: /, '').replace(/\)$/, '')}`);
      }
    } finally {
      await session.close();
    }
    assert.deepEqual(unknown, []);
  });
});
