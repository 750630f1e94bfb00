import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ManagedTransaction, Transaction } from 'neo4j-driver';
import type { TxRunner } from '../../src/graph/executor';
import { toPlain } from '../../src/graph/mappers';
import { loadQueries, Query } from '../../src/graph/queries';
import { jobId } from '../../src/ids';
import { projectEvents } from '../../src/ingest/write-plan';
import { NO_RULES } from '../../src/ingest/naming';
import { validateEvent } from '../../src/ingest/validate';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * Two projections of the same job in two transactions at once, as two projectors in two processes
 * run them (issue 27): the second must derive from what the first committed, not from what it read
 * before the first's locks let it through. Driven step by step over explicit transactions: the first
 * holds its locks uncommitted while the second is started and shown to wait; then the first commits.
 */
let svc: TestService;
before(async () => {
  svc = await startService();
});
after(() => svc.close());

const texts = loadQueries();
const runner = (tx: Transaction | ManagedTransaction): TxRunner => ({
  run: async <Row>(query: Query, params: Record<string, unknown> = {}) => (await tx.run(texts[query], params)).records.map((r) => toPlain(r.toObject()) as Row),
});
const project = (tx: TxRunner, event: unknown, id: string) => projectEvents(tx, [{ id, valid: validateEvent(event) }], NO_RULES);
const settled = (p: Promise<unknown>) => Promise.race([p.then(() => true, () => true), new Promise((r) => setTimeout(() => r(false), 1_500))]);

describe('concurrent projections of the same job', () => {
  it('the later run stays the job’s current IO when an older run’s projection waited on the newer one’s locks', async () => {
    const ns = uniquePrefix('race-io');
    const at = (m: number) => `2024-05-01T12:${String(m).padStart(2, '0')}:00.000Z`;
    assert.equal((await svc.postEvent(runEvent(ns, { job: 'load', outputs: ['first'], eventTime: at(0) }))).status, 201);
    const newer = runEvent(ns, { job: 'load', outputs: ['newer'], eventTime: at(30) });
    const older = runEvent(ns, { job: 'load', outputs: ['older'], eventTime: at(10) });

    const s1 = svc.app.driver.session();
    const s2 = svc.app.driver.session();
    try {
      const t1 = await s1.beginTransaction();
      await project(runner(t1), newer, `event:${ns}-newer`);
      const t2 = await s2.beginTransaction();
      const second = project(runner(t2), older, `event:${ns}-older`);
      second.catch(() => undefined);
      assert.equal(await settled(second), false, 'the second projection waits for the first one’s locks');
      await t1.commit();
      await second;
      await t2.commit();
    } finally {
      await s1.close();
      await s2.close();
    }

    // As users read it: the job's IO time (GraphQL) and its current outputs (Marquez's job).
    const gql = await svc.graphql<{ job: { ioAt: string } }>(`query($id: ID!) { job(id: $id) { ioAt } }`, { id: jobId(ns, 'load') });
    assert.equal(gql.data?.job.ioAt, at(30), 'the job’s IO is as of its newest run');
    const job = (await (await fetch(`${svc.baseUrl}/api/v1/namespaces/${encodeURIComponent(ns)}/jobs/load`)).json()) as { outputs: { name: string }[] };
    assert.deepEqual(job.outputs.map((o) => o.name), ['newer'], 'the newest run’s output is the current one, as in any serial order');
  });
});
