import type { Driver } from 'neo4j-driver';
import type { CompactPlan } from '../src/ingest/compact';

/**
 * The lower bound of ingestion: the graph the projection writes (the same nodes and relationships,
 * from the same compact plan, with the facet JSON and the raw events stored), written by the
 * plainest loader — UNWIND + MERGE by id + SET — under bench-only labels with the same uniqueness
 * constraints. No validation, no order-independence rules, no versions or current-IO flags.
 * Labels and types come from the fixed tables below, never from data.
 */
const NODES = { Dataset: 'BDataset', Job: 'BJob', Run: 'BRun', Field: 'BField', Event: 'BEvent' } as const;

const EDGES: { type: string; from: keyof typeof NODES; to: keyof typeof NODES; rows: (p: CompactPlan) => { from: string; to: string }[] }[] = [
  { type: 'FEEDS', from: 'Dataset', to: 'Job', rows: (p) => p.inputs.map((r) => ({ from: r.datasetId, to: r.jobId })) },
  { type: 'PRODUCES', from: 'Job', to: 'Dataset', rows: (p) => p.outputs.map((r) => ({ from: r.jobId, to: r.datasetId })) },
  { type: 'INPUT_TO', from: 'Dataset', to: 'Run', rows: (p) => p.inputs.filter((r) => r.runId).map((r) => ({ from: r.datasetId, to: r.runId! })) },
  { type: 'OUTPUT_TO', from: 'Run', to: 'Dataset', rows: (p) => p.outputs.filter((r) => r.runId).map((r) => ({ from: r.runId!, to: r.datasetId })) },
  { type: 'RUN_OF', from: 'Run', to: 'Job', rows: (p) => p.runs.map((r) => ({ from: r.id, to: r.jobId })) },
  { type: 'HAS_FIELD', from: 'Dataset', to: 'Field', rows: (p) => p.fields.map((r) => ({ from: r.datasetId, to: r.id })) },
  { type: 'DERIVES', from: 'Field', to: 'Field', rows: (p) => p.columnEdges.map((r) => ({ from: r.fromFieldId, to: r.toId })) },
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

const facetProps = (facets: { key: string; value: string | null }[]) =>
  Object.fromEntries(facets.filter((f) => f.value !== null).map((f) => [`facet.${f.key}`, f.value]));

/** Writes one compact plan (and its raw events) in one transaction. */
export async function bareWrite(driver: Driver, p: CompactPlan, events: { id: string; raw: string }[]): Promise<void> {
  const s = driver.session();
  try {
    await s.executeWrite(async (tx) => {
      const nodes: [keyof typeof NODES, { id: string; props: Record<string, unknown> }[]][] = [
        ['Event', events.map((e) => ({ id: e.id, props: { raw: e.raw } }))],
        ['Job', p.jobs.map((j) => ({ id: j.id, props: { namespace: j.namespace, name: j.name, lastSeen: j.lastSeen, ...facetProps(j.facets) } }))],
        ['Dataset', p.datasets.map((d) => ({ id: d.id, props: { namespace: d.namespace, name: d.name, lastSeen: d.lastSeen, ...facetProps(d.facets) } }))],
        ['Field', p.fields.map((f) => ({ id: f.id, props: { name: f.name, type: f.type } }))],
        ['Run', p.runs.map((r) => ({ id: r.id, props: { state: r.state, lastSeen: r.lastSeen, ...facetProps(r.facets) } }))],
      ];
      for (const [kind, rows] of nodes) {
        if (rows.length) await tx.run(`UNWIND $rows AS x MERGE (n:${NODES[kind]} {id: x.id}) SET n += x.props`, { rows });
      }
      for (const e of EDGES) {
        const rows = e.rows(p);
        if (!rows.length) continue;
        await tx.run(
          `UNWIND $rows AS x MATCH (a:${NODES[e.from]} {id: x.from}) MATCH (b:${NODES[e.to]} {id: x.to}) MERGE (a)-[:${e.type}]->(b)`,
          { rows },
        );
      }
    });
  } finally {
    await s.close();
  }
}
