import type { Driver } from 'neo4j-driver';
import type { CompactPlan } from '../src/ingest/compact';
import type { FacetRow } from '../src/ingest/plan-rows';

/**
 * The lower bound of ingestion: the graph the projection writes — the same nodes, relationships
 * and properties (firstSeen/lastSeen, states, transformations, facet JSON with its time and derived
 * properties, raw events), from the same compact plan — written by the plainest loader: UNWIND +
 * MERGE by key + `SET n += props`, under bench-only labels with the same uniqueness constraints.
 * What it leaves out is what makes the projection correct rather than what it stores: validation,
 * the order-independence rules (each property compared with the stored one), job versions and
 * current-IO flags. Labels and types come from the fixed tables below, never from data.
 */
const NODES = { Dataset: 'BDataset', Job: 'BJob', Run: 'BRun', Field: 'BField', Event: 'BEvent' } as const;
type Kind = keyof typeof NODES;
type Props = Record<string, unknown>;
type Edge = { from: string; to: string; key?: Props; props: Props };

/** A row's own properties: scalars and lists, without the endpoint ids and the facet list. */
const props = (row: object, omit: string[] = []): Props =>
  Object.fromEntries(Object.entries(row).filter(([k, v]) => k !== 'facets' && !omit.includes(k) && (typeof v !== 'object' || v === null || Array.isArray(v))));

/** Stored like the projection stores them: three parallel lists in key order (compact plans are sorted). */
const facetProps = (facets: FacetRow[]): Props =>
  Object.assign(
    facets.length
      ? { facetKeys: facets.map((f) => f.key), facetValues: facets.map((f) => f.value ?? ''), facetTimes: facets.map((f) => f.at) }
      : {},
    ...facets.map((f) => f.derived),
  );

const nodeRows = (p: CompactPlan, events: { id: string; raw: string }[]): [Kind, { id: string; props: Props }[]][] => {
  const jobs = p.jobs.map((j) => ({ id: j.id, props: { ...props(j), ...facetProps(j.facets) } }));
  const runs = p.runs.map((r) => ({ id: r.id, props: { ...props(r), ...facetProps(r.facets) } }));
  for (const x of p.parents) {
    jobs.push({ id: x.parentJobId, props: { namespace: x.parentJobNamespace, name: x.parentJobName } });
    runs.push({ id: x.parentRunId, props: { runId: x.parentRunId.slice(4) } });
    if (x.rootRunId) {
      jobs.push({ id: x.rootJobId!, props: { namespace: x.rootJobNamespace, name: x.rootJobName } });
      runs.push({ id: x.rootRunId, props: { runId: x.rootRunId.slice(4) } });
    }
  }
  return [
    ['Event', events.map((e) => ({ id: e.id, props: { raw: e.raw } }))],
    ['Job', jobs],
    ['Dataset', p.datasets.map((d) => ({ id: d.id, props: { ...props(d), ...facetProps(d.facets) } }))],
    ['Field', p.fields.map((f) => ({ id: f.id, props: props(f) }))],
    ['Run', runs],
  ];
};

const EDGES: { type: string; from: Kind; to: Kind; rows: (p: CompactPlan) => Edge[] }[] = [
  { type: 'FEEDS', from: 'Dataset', to: 'Job', rows: (p) => p.inputs.map((r) => ({ from: r.datasetId, to: r.jobId, props: props(r, ['datasetId', 'jobId', 'runId']) })) },
  { type: 'PRODUCES', from: 'Job', to: 'Dataset', rows: (p) => p.outputs.map((r) => ({ from: r.jobId, to: r.datasetId, props: props(r, ['datasetId', 'jobId', 'runId']) })) },
  {
    type: 'INPUT_TO', from: 'Dataset', to: 'Run',
    rows: (p) => p.inputs.filter((r) => r.runId).map((r) => ({ from: r.datasetId, to: r.runId!, props: { ...props(r, ['datasetId', 'jobId', 'runId']), ...facetProps(r.facets) } })),
  },
  {
    type: 'OUTPUT_TO', from: 'Run', to: 'Dataset',
    rows: (p) => p.outputs.filter((r) => r.runId).map((r) => ({ from: r.runId!, to: r.datasetId, props: { ...props(r, ['datasetId', 'jobId', 'runId']), ...facetProps(r.facets) } })),
  },
  {
    type: 'RUN_OF', from: 'Run', to: 'Job',
    rows: (p) => [
      ...p.runs.flatMap((r) => r.jobIds.map((jobId) => ({ from: r.id, to: jobId, props: {} }))),
      ...p.parents.map((x) => ({ from: x.parentRunId, to: x.parentJobId, props: {} })),
      ...p.parents.filter((x) => x.rootRunId).map((x) => ({ from: x.rootRunId!, to: x.rootJobId!, props: {} })),
    ],
  },
  { type: 'HAS_FIELD', from: 'Dataset', to: 'Field', rows: (p) => p.fields.map((r) => ({ from: r.datasetId, to: r.id, props: {} })) },
  { type: 'DERIVES', from: 'Field', to: 'Field', rows: (p) => p.columnEdges.map((r) => ({ from: r.fromFieldId, to: r.toId, key: { jobId: r.jobId }, props: props(r, ['fromFieldId', 'toId', 'jobId']) })) },
  { type: 'INFLUENCES', from: 'Field', to: 'Dataset', rows: (p) => p.datasetDependencies.map((r) => ({ from: r.fromFieldId, to: r.toId, key: { jobId: r.jobId }, props: props(r, ['fromFieldId', 'toId', 'jobId']) })) },
  { type: 'SYMLINK', from: 'Dataset', to: 'Dataset', rows: (p) => p.symlinks.map((r) => ({ from: r.datasetId, to: r.aliasId, key: { type: r.type }, props: props(r, ['datasetId', 'aliasId', 'type']) })) },
  { type: 'PARENT', from: 'Run', to: 'Run', rows: (p) => p.parents.map((r) => ({ from: r.runId, to: r.parentRunId, props: { firstSeen: r.firstSeen, lastSeen: r.lastSeen } })) },
  { type: 'ROOT', from: 'Run', to: 'Run', rows: (p) => p.parents.filter((r) => r.rootRunId).map((r) => ({ from: r.runId, to: r.rootRunId!, props: {} })) },
];

export async function bareSchema(driver: Driver): Promise<void> {
  const s = driver.session();
  try {
    for (const label of Object.values(NODES)) {
      await s.run(`CREATE CONSTRAINT bench_${label.toLowerCase()} IF NOT EXISTS FOR (n:${label}) REQUIRE n.id IS UNIQUE`);
    }
    await s.run('CALL db.awaitIndexes(300)');
  } finally {
    await s.close();
  }
}

/** Writes one compact plan (and its raw events) in one transaction; `onQuery` gets each statement's time. */
export async function bareWrite(
  driver: Driver,
  p: CompactPlan,
  events: { id: string; raw: string }[],
  onQuery?: (name: string, ms: number) => void,
): Promise<void> {
  const s = driver.session();
  try {
    await s.executeWrite(async (tx) => {
      for (const [kind, rows] of nodeRows(p, events)) {
        if (rows.length) await timed(`bare ${kind}`, onQuery, () => tx.run(`UNWIND $rows AS x MERGE (n:${NODES[kind]} {id: x.id}) SET n += x.props`, { rows }));
      }
      for (const e of EDGES) {
        const rows = e.rows(p);
        if (!rows.length) continue;
        const key = rows[0]!.key ? ` {${Object.keys(rows[0]!.key).map((k) => `${k}: x.key.${k}`).join(', ')}}` : '';
        await timed(`bare ${e.type}`, onQuery, () =>
          tx.run(`UNWIND $rows AS x MATCH (a:${NODES[e.from]} {id: x.from}) MATCH (b:${NODES[e.to]} {id: x.to}) MERGE (a)-[r:${e.type}${key}]->(b) SET r += x.props`, { rows }),
        );
      }
    });
  } finally {
    await s.close();
  }
}

async function timed<T>(name: string, onQuery: ((name: string, ms: number) => void) | undefined, work: () => Promise<T>): Promise<T> {
  const t = process.hrtime.bigint();
  try {
    return await work();
  } finally {
    onQuery?.(name, Number(process.hrtime.bigint() - t) / 1e6);
  }
}
