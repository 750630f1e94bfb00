import { loadQueries } from '../../src/graph/queries';
import { UsedShapes } from '../../src/graph/used-shapes';
import { firstPassShapes, secondPassQueries, warmUpShapes, warmUpTransactions } from '../../src/graph/warmup';
import { warmUpRuns } from '../../src/graph/warmup-runs';
import type { TestService } from './app';

/**
 * The shapes a service ran that the default warm-up (`TRIBUTARY_PLAN_WARMUP=first`: its first pass,
 * then the execution warm-up's runs) does not compile, as "query (parameter: type, ...)": each would compile a plan on a user's request after
 * a start. The service must run its plan refresher (any `TRIBUTARY_PLAN_REFRESH_S` > 0): its
 * record of the shapes run is what is read. Ingestion statements count only with `ingest` (their
 * shapes are test/cypher/plan-warmup.test.ts's to check, on the corpus); admin/ statements run at
 * start, before any warm-up, and sql/ ones in the background declarer, on no request's path.
 */
export function shapesColdAfterWarmUp(svc: TestService, { ingest = false } = {}): string[] {
  const offRequests = ingest ? ['admin/', 'sql/'] : ['ingest/', 'admin/', 'sql/'];
  const used = svc.app.refresher?.shapes;
  if (!used) throw new Error('the service runs no plan refresher: start it with TRIBUTARY_PLAN_REFRESH_S');
  const texts = loadQueries();
  const shapes = warmUpShapes(texts);
  const warm = new UsedShapes(Infinity);
  for (const s of firstPassShapes(svc.app.executor, shapes, warmUpTransactions(texts), secondPassQueries(texts))) warm.record(s.query, s.params, s.write, s.afterWrite);
  // The execution warm-up's runs follow the first pass, and compile the plans of what they run.
  for (const [query, runs] of warmUpRuns(texts, shapes)) for (const params of runs) warm.record(query, svc.app.executor.only(query, params), false);
  return used
    .keyed()
    .filter(([key, s]) => used.hasRun(key) && !offRequests.some((prefix) => s.query.startsWith(prefix)))
    .filter(([, s]) => warm.record(s.query, s.params, s.write, s.afterWrite))
    .map(([key, s]) => `${s.query} (${key.split('|')[2]})`);
}
