import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Executor } from '../../src/graph/executor';
import { PlanCompileWatch, StatementNames, type PlanCompile } from '../../src/graph/plan-compiles';
import { loadQueries, Query } from '../../src/graph/queries';
import { createLogger } from '../../src/log';

type Row = { seq: number; at: number; event: 'compiled' | 'stale' | 'flushed'; statement: string; parameters: string; afterWrite: boolean; reason: string | null };

/** An executor answering only health/plan-compiles, from `rows` (what the launcher's ring holds). */
function ring(rows: Row[], fail?: () => Error): Executor {
  return {
    read: async (query: Query, params: { after: number }) => {
      assert.equal(query, Query.PlanCompiles);
      if (fail) throw fail();
      return rows.filter((r) => r.seq > params.after);
    },
  } as unknown as Executor;
}

const texts = loadQueries();
/** A query's text as Neo4j keys it: after its leading comments. */
const statementOf = (q: Query) => texts[q].replace(/^(\s*\/\/[^\n]*\n)+/, '');
const row = (seq: number, event: Row['event'], statement: string, extra: Partial<Row> = {}): Row => ({ seq, at: 1_000 + seq, event, statement, parameters: 'Map()', afterWrite: false, reason: null, ...extra });

describe('plan compiles by name', () => {
  it('knows every query of the service by the text Neo4j keys it by (after its leading comments), and no two share one', () => {
    const names = new StatementNames(texts);
    for (const query of Object.keys(texts) as Query[]) {
      assert.equal(names.name(statementOf(query)), query, query);
      assert.equal(names.name(`${statementOf(query)}\n`), query, `${query} with whitespace added`);
    }
    assert.equal(new Set(Object.values(texts).map((t) => names.name(t))).size, Object.keys(texts).length);
    assert.equal(names.name('RETURN 1'), null);
  });

  it('takes a baseline first, then reports each compile once, a stale plan with its reason, leaving out the health probes', async () => {
    const rows = [row(1, 'compiled', statementOf(Query.ExpandUpstream)), row(2, 'stale', statementOf(Query.ExpandDownstream), { reason: 'before the baseline' })];
    const seen: PlanCompile[] = [];
    const said: string[] = [];
    const log = createLogger('error');
    log.info = (msg: string) => void said.push(msg);
    const watch = new PlanCompileWatch(ring(rows), new StatementNames(texts), log, { intervalMs: 3_600_000, onCompile: (c) => void seen.push(c) });
    assert.deepEqual(await watch.check(), []);
    rows.push(
      row(3, 'compiled', statementOf(Query.ExpandDownstream)),
      row(4, 'stale', statementOf(Query.MergeRuns), { afterWrite: true, reason: 'RelCount changed' }),
      row(5, 'compiled', statementOf(Query.MergeRuns), { afterWrite: false }),
      row(6, 'compiled', statementOf(Query.MergeRuns), { afterWrite: true }),
      row(7, 'compiled', statementOf(Query.PlanCompiles)),
      row(8, 'compiled', 'MATCH (n) RETURN count(n)'),
      row(9, 'flushed', '', { reason: '40 cached plans dropped' }),
    );
    const compiles = (await watch.check())!;
    assert.deepEqual(
      compiles.map((c) => [c.seq, c.query, c.afterWrite, c.staleReason]),
      [
        [3, Query.ExpandDownstream, false, null],
        [5, Query.MergeRuns, false, null],
        [6, Query.MergeRuns, true, 'RelCount changed'],
        [8, null, false, null],
      ],
      'the stale event before the baseline is not carried over; a stale plan pairs with its own transaction state',
    );
    assert.equal(compiles[3]!.statement, 'MATCH (n) RETURN count(n)');
    assert.deepEqual(seen, compiles);
    assert.equal(said.filter((m) => m === 'query plan compiled after the warm-up').length, 4);
    assert.deepEqual(said.filter((m) => m !== 'query plan compiled after the warm-up'), ['Neo4j dropped its cached query plans'], 'a flush is said once');
    assert.deepEqual(await watch.check(), [], 'nothing new');
    assert.equal(watch.missed, 0);
  });

  it('counts the compiles the ring dropped before they were read, and starts again after a rebaseline', async () => {
    const rows = [row(1, 'compiled', 'RETURN 1')];
    const watch = new PlanCompileWatch(ring(rows), new StatementNames(texts), createLogger('error'), { intervalMs: 3_600_000 });
    await watch.check();
    rows.splice(0, rows.length, row(5, 'compiled', 'RETURN 5'), row(6, 'compiled', 'RETURN 6'));
    assert.equal((await watch.check())!.length, 2);
    assert.equal(watch.missed, 3);
    // A restarted Neo4j numbers from 1 again: a new baseline, nothing reported from it.
    rows.splice(0, rows.length, row(1, 'compiled', 'RETURN 1 + 1'));
    watch.rebaseline();
    assert.deepEqual(await watch.check(), []);
    rows.push(row(2, 'compiled', 'RETURN 2 + 2'));
    assert.deepEqual((await watch.check())!.map((c) => c.seq), [2]);
  });

  it('catches up only once started, after the check in flight: every compile before the call is reported when it resolves', async () => {
    const rows = [row(1, 'compiled', 'RETURN 1')];
    const seen: number[] = [];
    const watch = new PlanCompileWatch(ring(rows), new StatementNames(texts), createLogger('error'), { intervalMs: 3_600_000, onCompile: (c) => void seen.push(c.seq) });
    await watch.catchUp();
    rows.push(row(2, 'compiled', 'RETURN 2'));
    assert.equal(await watch.start(), true);
    assert.deepEqual(seen, [], 'the baseline is taken by the start, not by a catch-up before it');
    rows.push(row(3, 'compiled', 'RETURN 3'));
    const inFlight = watch.check();
    rows.push(row(4, 'compiled', 'RETURN 4'));
    await watch.catchUp();
    assert.deepEqual(seen, [3, 4]);
    await inFlight;
    await watch.stop();
  });

  it('says when the server keeps no such log, and lives through a failed read', async () => {
    const absent = Object.assign(new Error('no procedure'), { code: 'Neo.ClientError.Procedure.ProcedureNotFound' });
    const watch = new PlanCompileWatch(ring([], () => absent), new StatementNames(texts), createLogger('error'), { intervalMs: 20 });
    assert.equal(await watch.start(), false);
    assert.equal(await watch.check(), null);
    const flaky = new PlanCompileWatch(ring([], () => new Error('connection reset')), new StatementNames(texts), createLogger('error'), { intervalMs: 3_600_000 });
    assert.deepEqual(await flaky.check(), []);
    await flaky.stop();
  });
});
