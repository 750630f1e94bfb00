import { isolatedRunId } from './isolate';

/**
 * A seeded generator of OpenLineage event streams for property tests: jobs in a chain over a pool
 * of datasets, several runs per job whose inputs change over time, START/RUNNING/COMPLETE/FAIL
 * events carrying schema, documentation and column lineage facets, a symlink and a parent run.
 * Deterministic for a given seed.
 */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffle<T>(items: T[], random: () => number): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

export function generateEvents(ns: string, seed: number, jobs = 8, runsPerJob = 3): Record<string, unknown>[] {
  const random = rng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
  const datasets = Array.from({ length: jobs + 4 }, (_, i) => `db.table_${i}`);
  const fields = ['id', 'amount', 'customer', 'ts', 'status'];
  const events: Record<string, unknown>[] = [];
  const parentRun = isolatedRunId(ns, '99999999-9999-4999-8999-999999999999');
  for (let j = 0; j < jobs; j++) {
    const output = datasets[j + 4]!;
    for (let r = 0; r < runsPerJob; r++) {
      const runId = isolatedRunId(ns, `${String(j).padStart(8, '0')}-0000-4000-8000-${String(r).padStart(12, '0')}`);
      const inputs = [datasets[j]!, pick(datasets.slice(0, j + 4))].filter((d, i, a) => a.indexOf(d) === i && d !== output);
      const base = Date.UTC(2024, 0, 1, 0, 0, 0) + (j * runsPerJob + r) * 600_000;
      const time = (offsetSec: number) => new Date(base + offsetSec * 1000).toISOString();
      const schema = { fields: fields.slice(0, 2 + Math.floor(random() * 3)).map((name) => ({ name, type: pick(['int', 'string', 'decimal']) })) };
      const cll = {
        fields: Object.fromEntries(
          schema.fields.map((f) => [
            f.name,
            { inputFields: [{ namespace: ns, name: pick(inputs), field: f.name, transformations: [{ type: pick(['DIRECT', 'INDIRECT']), subtype: pick(['IDENTITY', 'AGGREGATION', 'FILTER']) }] }] },
          ]),
        ),
      };
      const job = { namespace: ns, name: `job_${j}`, facets: { documentation: { description: `job ${j} rev ${r}` } } };
      const run = (facets?: Record<string, unknown>) => ({ runId, ...(facets ? { facets } : {}) });
      const terminal = random() < 0.2 ? 'FAIL' : 'COMPLETE';
      events.push(
        { eventType: 'START', eventTime: time(0), producer: 'gen', run: run(j === 0 ? { parent: { run: { runId: parentRun }, job: { namespace: ns, name: 'dag' } } } : undefined), job, inputs: inputs.map((name) => ({ namespace: ns, name })) },
        { eventType: 'RUNNING', eventTime: time(30), producer: 'gen', run: run(), job: { namespace: ns, name: `job_${j}` }, inputs: inputs.map((name) => ({ namespace: ns, name })) },
        {
          eventType: terminal,
          eventTime: time(60),
          producer: 'gen',
          run: run(),
          job: { namespace: ns, name: `job_${j}` },
          outputs: [
            {
              namespace: ns,
              name: output,
              facets: {
                schema,
                columnLineage: cll,
                ...(j === 1 ? { symlinks: { identifiers: [{ namespace: `${ns}hive`, name: output, type: 'TABLE' }] } } : {}),
              },
            },
          ],
        },
      );
    }
  }
  return events;
}
