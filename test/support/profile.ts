import neo4j from 'neo4j-driver';
import type { App } from '../../src/app';
import { loadQueries, type Query } from '../../src/graph/queries';

const texts = loadQueries();

/**
 * Test support: PROFILEs one named read query on the app's driver: the operators of its executed
 * plan (depth first), the total database hits, and the rows it returned.
 */
export async function profileQuery(app: Pick<App, 'driver'>, query: Query, params: Record<string, unknown>): Promise<{ operators: string[]; dbHits: number; rows: number }> {
  const session = app.driver.session({ defaultAccessMode: neo4j.session.READ, bookmarkManager: app.driver.executeQueryBookmarkManager });
  try {
    return await session.executeRead(async (tx) => {
      const result = await tx.run(`PROFILE ${texts[query]}`, params);
      const operators: string[] = [];
      let dbHits = 0;
      type Plan = { operatorType: string; dbHits: number; children: Plan[] };
      const walk = (p: Plan) => {
        operators.push(p.operatorType.replace(/@.*$/, ''));
        dbHits += Number(p.dbHits);
        p.children.forEach(walk);
      };
      const profile = result.summary.profile;
      if (profile) walk(profile as unknown as Plan);
      return { operators, dbHits, rows: result.records.length };
    });
  } finally {
    await session.close();
  }
}
