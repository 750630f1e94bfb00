import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compactPlan } from '../../src/ingest/compact';
import { planEvent } from '../../src/ingest/plan';
import { emptyPlan } from '../../src/ingest/plan-rows';
import { validateEvent } from '../../src/ingest/validate';
import { docsOf } from '../support/corpus';

const RUN = '0176a8c2-fe01-7439-87e6-56a1a1b4029f';
const event = (eventType: string | undefined, eventTime: string, extra: Record<string, unknown> = {}) =>
  validateEvent({
    ...(eventType ? { eventType } : {}),
    eventTime,
    producer: 'test',
    run: { runId: RUN },
    job: { namespace: 'ns', name: 'job' },
    ...extra,
  });

const compactOf = (events: ReturnType<typeof validateEvent>[]) => {
  const plan = emptyPlan();
  events.forEach((e) => planEvent(plan, e));
  return compactPlan(plan);
};

/** Deterministic permutations (Heap's algorithm) of a small list. */
function permutations<T>(items: T[]): T[][] {
  const out: T[][] = [];
  const a = [...items];
  const c = new Array(a.length).fill(0);
  out.push([...a]);
  let i = 0;
  while (i < a.length) {
    if (c[i] < i) {
      const j = i % 2 === 0 ? 0 : c[i];
      [a[j], a[i]] = [a[i]!, a[j]!];
      out.push([...a]);
      c[i]++;
      i = 0;
    } else {
      c[i] = 0;
      i++;
    }
  }
  return out;
}

describe('projection plan compaction', () => {
  it('keeps terminal states sticky and startedAt from START, in every arrival order', () => {
    const events = [
      event('START', '2024-01-01T00:00:00Z'),
      event('RUNNING', '2024-01-01T00:05:00Z'),
      event('COMPLETE', '2024-01-01T00:10:00Z'),
      event('RUNNING', '2024-01-01T00:11:00Z'), // late RUNNING must not reopen the run
      event(undefined, '2024-01-01T00:12:00Z'),
    ];
    for (const order of permutations(events)) {
      const [run] = compactOf(order).runs;
      assert.equal(run!.state, 'COMPLETE');
      assert.equal(run!.stateAt, '2024-01-01T00:10:00.000Z');
      assert.equal(run!.startedAt, '2024-01-01T00:00:00.000Z');
      assert.equal(run!.firstSeen, '2024-01-01T00:00:00.000Z');
      assert.equal(run!.lastSeen, '2024-01-01T00:12:00.000Z');
    }
  });

  it('produces the same compact plan for shuffled and repeated dbt events', () => {
    const docs = ['004', '007', '006', '009'].map(
      (n) => docsOf(`compat-tests/producer__dbt__test_output__csv_to_postgres_local__event_${n}.json`)[0]!.value,
    );
    const events = docs.map((d) => validateEvent(d));
    const reference = JSON.stringify(sortPlan(compactOf(events)));
    for (const order of permutations(events)) {
      assert.equal(JSON.stringify(sortPlan(compactOf([...order, ...order]))), reference);
    }
  });

  it('marks inputs named only by column lineage as undeclared', () => {
    const doc = docsOf('compat-tests/producer__dbt__test_output__csv_to_postgres_local__event_007.json')[0]!.value;
    const plan = compactOf([validateEvent(doc)]);
    assert.deepEqual(
      plan.inputs.map((i) => [i.datasetId, i.declared]),
      [['dataset:postgres%3A//localhost%3A5432:dbt_test.main.raw_orders', false]],
    );
    assert.equal(plan.columnEdges.length, 7); // completed_amount has two sources
  });
});

function sortPlan(p: ReturnType<typeof compactPlan>) {
  const byJson = <T>(xs: T[]) => [...xs].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  return Object.fromEntries(Object.entries(p).map(([k, v]) => [k, byJson(v as unknown[])]));
}
