import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { findRepo, startMarquez, toolRun } from './baseline';
import { ensureJavaClient, ensurePythonClient, runJavaClient, runPythonClient, type ClientPlan, type ClientReport } from './clients';

/**
 * Ingests a small, spec-valid OpenLineage sample (two jobs, three runs, schema, dataSource,
 * columnLineage and sql facets) into a Marquez-compatible server, then runs Marquez's Python and
 * Java clients against it with a plan that names those entities, and writes both reports.
 *
 *   node dist/tools/marquez-clients/sample.js                       # starts Marquez 0.50.0 from ../shared/marquez-baseline (run.sh), stops it after
 *   node dist/tools/marquez-clients/sample.js --url http://127.0.0.1:8080 --prefix tributary-sample
 *
 * Options: --url (skip starting Marquez), --prefix (output name, default marquez-0.50-sample; files go
 * to tools/marquez-clients/<prefix>-{python,java}.json), --namespace (default food_delivery),
 * --out-dir.
 */

const producer = 'https://github.com/tributary/tributary/tree/main/tools/marquez-clients';
const runEventUrl = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';
const facet = (name: string, version = '1-1-0') => ({ _producer: producer, _schemaURL: `https://openlineage.io/spec/facets/${version}/${name}.json#/$defs/${name}` });

type Field = [name: string, type: string, description?: string];
type Lineage = Record<string, { from: [dataset: string, field: string][]; type: 'IDENTITY' | 'AGGREGATION' | 'TRANSFORMATION'; description: string }>;

function dataset(ns: string, name: string, fields: Field[], lineage?: Lineage, ds?: string): Record<string, unknown> {
  const facets: Record<string, unknown> = {
    schema: { ...facet('SchemaDatasetFacet', '1-1-1'), fields: fields.map(([n, t, d]) => ({ name: n, type: t, ...(d ? { description: d } : {}) })) },
    dataSource: { ...facet('DatasourceDatasetFacet'), name: ds ?? 'food_delivery_db', uri: 'postgres://db.example:5432/food_delivery' },
  };
  if (lineage) {
    facets.columnLineage = {
      ...facet('ColumnLineageDatasetFacet', '1-2-0'),
      fields: Object.fromEntries(
        Object.entries(lineage).map(([out, l]) => [
          out,
          {
            inputFields: l.from.map(([d, f]) => ({
              namespace: ns,
              name: d,
              field: f,
              transformations: [{ type: l.type === 'AGGREGATION' ? 'INDIRECT' : 'DIRECT', subtype: l.type, description: l.description, masking: false }],
            })),
            transformationDescription: l.description,
            transformationType: l.type,
          },
        ]),
      ),
    };
  }
  return { namespace: ns, name, facets };
}

/**
 * The sample's events, oldest first (times end one minute before `now`), and the plan that names them.
 * With a fixed `now` and fixed `runIds` (three UUIDs) the events are the same on every call
 * (tools/marquez-contract uses that); otherwise the run ids are random.
 */
export function sampleEvents(ns = 'food_delivery', now = Date.now(), runIds?: readonly [string, string, string]): { events: Record<string, unknown>[]; plan: ClientPlan } {
  const raw = dataset(ns, 'raw.orders', [['id', 'INTEGER'], ['customer_id', 'INTEGER'], ['amount', 'DECIMAL(10,2)'], ['created_at', 'TIMESTAMP']]);
  const customers = dataset(ns, 'public.customers', [['id', 'INTEGER'], ['name', 'VARCHAR', 'full name'], ['email', 'VARCHAR']]);
  const orders = dataset(ns, 'public.orders', [['id', 'INTEGER', 'order id'], ['customer_id', 'INTEGER'], ['amount', 'DECIMAL(10,2)']], {
    id: { from: [['raw.orders', 'id']], type: 'IDENTITY', description: 'copied' },
    customer_id: { from: [['raw.orders', 'customer_id']], type: 'IDENTITY', description: 'copied' },
    amount: { from: [['raw.orders', 'amount']], type: 'IDENTITY', description: 'copied' },
  });
  const summary = dataset(ns, 'analytics.order_summary', [['customer_name', 'VARCHAR'], ['order_count', 'BIGINT'], ['total_amount', 'DECIMAL(12,2)']], {
    customer_name: { from: [['public.customers', 'name']], type: 'IDENTITY', description: 'customer name' },
    order_count: { from: [['public.orders', 'id']], type: 'AGGREGATION', description: 'count(id)' },
    total_amount: { from: [['public.orders', 'amount']], type: 'AGGREGATION', description: 'sum(amount)' },
  });
  const job = (name: string, sql: string) => ({
    namespace: ns,
    name,
    facets: {
      sql: { ...facet('SQLJobFacet'), query: sql },
      jobType: { ...facet('JobTypeJobFacet', '2-0-2'), processingType: 'BATCH', integration: 'SQL', jobType: 'QUERY' },
      documentation: { ...facet('DocumentationJobFacet'), description: `sample job ${name}` },
    },
  });
  const load = job('etl.load_orders', 'INSERT INTO public.orders SELECT id, customer_id, amount FROM raw.orders');
  const agg = job('etl.order_summary', 'INSERT INTO analytics.order_summary SELECT c.name, count(o.id), sum(o.amount) FROM public.orders o JOIN public.customers c ON c.id = o.customer_id GROUP BY c.name');
  const runs = runIds ? [...runIds] : [randomUUID(), randomUUID(), randomUUID()];
  let minute = 10;
  const at = () => new Date(now - minute-- * 60_000).toISOString();
  const ev = (eventType: string, runId: string, j: Record<string, unknown>, inputs: Record<string, unknown>[], outputs: Record<string, unknown>[], extra: Record<string, unknown> = {}) => ({
    eventType,
    eventTime: at(),
    run: { runId, facets: { nominalTime: { ...facet('NominalTimeRunFacet'), nominalStartTime: new Date(now - 3_600_000).toISOString() }, ...extra } },
    job: j,
    inputs,
    outputs,
    producer,
    schemaURL: runEventUrl,
  });
  const events = [
    ev('START', runs[0]!, load, [raw], [orders]),
    ev('COMPLETE', runs[0]!, load, [raw], [orders]),
    ev('START', runs[1]!, agg, [orders, customers], [summary]),
    ev('COMPLETE', runs[1]!, agg, [orders, customers], [summary]),
    ev('START', runs[2]!, agg, [orders, customers], [summary]),
    ev('FAIL', runs[2]!, agg, [orders, customers], [summary], { errorMessage: { ...facet('ErrorMessageRunFacet'), message: 'division by zero', programmingLanguage: 'SQL' } }),
  ];
  return { events, plan: { namespace: ns, job: 'etl.order_summary', dataset: 'analytics.order_summary', field: 'total_amount', runId: runs[1]!, depth: 20, search: 'order' } };
}

async function main(): Promise<void> {
  const { opt, log, timings, timed } = toolRun(process.argv.slice(2));
  const repo = findRepo();
  const outDir = opt('out-dir') ?? path.join(repo, 'tools', 'marquez-clients');
  const prefix = opt('prefix') ?? 'marquez-0.50-sample';
  const cleanup: (() => void)[] = [];
  try {
    let url = opt('url');
    if (!url) url = await timed('Marquez start (incl. lib/ build if missing)', async () => (await startMarquez(repo, log, cleanup)).url);
    const { events, plan } = sampleEvents(opt('namespace') ?? 'food_delivery');
    await timed(`ingest ${events.length} events`, async () => {
      for (const e of events) {
        const res = await fetch(`${url}/api/v1/lineage`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(e) });
        const text = await res.text();
        if (!res.ok) throw new Error(`POST /api/v1/lineage answered ${res.status}: ${text.slice(0, 500)}`);
      }
    });
    await timed('ensurePythonClient', () => ensurePythonClient(log));
    await timed('ensureJavaClient', () => ensureJavaClient(log));
    const reports: Record<string, ClientReport> = {};
    reports.python = await timed('runPythonClient', () => runPythonClient(url!, plan));
    reports.java = await timed('runJavaClient', () => runJavaClient(url!, plan));
    for (const [lang, report] of Object.entries(reports)) {
      const file = path.join(outDir, `${prefix}-${lang}.json`);
      fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
      const failed = Object.entries(report).filter(([, c]) => !c.ok);
      log(`${lang}: ${Object.keys(report).length - failed.length}/${Object.keys(report).length} ok -> ${file}`);
      for (const [name, c] of failed) log(`  ${name}: ${c.status ?? '-'} ${c.request ?? ''} ${c.error?.slice(0, 200) ?? ''}`);
    }
    log(`timings ${JSON.stringify(timings)}`);
  } finally {
    for (const c of cleanup.reverse()) c();
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
