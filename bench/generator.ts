import { rng } from '../test/support/generate';

/**
 * Seeded, deterministic OpenLineage streams shaped like the corpus, for benchmarks:
 *  - engines: Kafka Connect sources (database table → topic) and sinks (topic → warehouse), Flink
 *    streaming jobs (topic → topic / Iceberg path with a symlink to its catalog name), Spark batch
 *    jobs (catalog tables → tables), dbt models (warehouse → warehouse), each under an Airflow DAG
 *    run (parent facet);
 *  - naming: postgres://, kafka://, s3:// paths symlinked to iceberg:// catalog names, warehouse;
 *  - schemas of 5–200 fields; column lineage on a configurable share of jobs (DIRECT identity and
 *    transformations, INDIRECT filters/joins, some all-to-all aggregations);
 *  - fan-out and fan-in (inputs drawn from earlier layers), chains deeper than 30 (layers);
 *  - several runs per job; a fifth of the jobs change an input over time.
 * Jobs are laid out in `layers`; each reads from earlier layers, so lineage is a DAG with depth
 * ≥ layers. Deterministic for a given (size, seed).
 */

export interface GenOptions {
  jobs: number;
  runsPerJob: number;
  layers: number;
  columnLineageShare: number;
  seed: number;
  /** Added to the job number in every job and dataset name: a stream that shares no names with
   *  another of the same size (for warm-up); use another seed too, for distinct run ids. */
  nameOffset?: number;
  /**
   * Output schemas: narrow (default: 5–20 fields, one output in ten 50–200) or wide (100–300
   * fields, a quarter 300–800, one in twenty 800–1,500: the warehouse tables of XL).
   */
  widths?: 'narrow' | 'wide';
  /**
   * How many of each job's first runs carry the schema, symlinks and column lineage facets
   * (default: every run). Later runs name their datasets only, as producers without a
   * schema-aware extractor do (Airflow operators without SQL parsing): XL's years of runs.
   */
  facetRuns?: number;
  /** Hours between a job's runs (default: `layers`, one run of every layer per round). */
  roundHours?: number;
}

export const SIZES: Record<string, Omit<GenOptions, 'seed'>> = {
  S: { jobs: 1_000, runsPerJob: 2, layers: 40, columnLineageShare: 0.6 },
  M: { jobs: 10_000, runsPerJob: 2, layers: 60, columnLineageShare: 0.6 },
  L: { jobs: 100_000, runsPerJob: 2, layers: 80, columnLineageShare: 0.6 },
  // Two years of monthly runs of 25,000 jobs over wide tables: ~10 M nodes (8.4 M fields), 1.2 M events.
  XL: { jobs: 25_000, runsPerJob: 24, layers: 100, columnLineageShare: 0.6, widths: 'wide', facetRuns: 1, roundHours: 720 },
};

/** Field names shared by every schema (a wide stream holds millions of field lists). */
const FIELD_NAMES = Array.from({ length: 1_500 }, (_, i) => `c${i}`);

export interface Generated {
  events: Record<string, unknown>[];
  /** Dataset ids by layer, for picking start nodes: [layer][i] = {namespace, name, fields}. */
  outputs: Output[];
}

export type Output = { namespace: string; name: string; fields: string[]; layer: number; columnLineage: boolean };
type Engine = 'kafka-connect' | 'flink' | 'spark' | 'dbt';

/** The spec's facet schemas (`$id`s of ../shared/openlineage-corpus/spec/facets) the stream uses. */
export const FACET_SCHEMAS = {
  schema: 'https://openlineage.io/spec/facets/1-2-0/SchemaDatasetFacet.json#/$defs/SchemaDatasetFacet',
  symlinks: 'https://openlineage.io/spec/facets/1-0-1/SymlinksDatasetFacet.json#/$defs/SymlinksDatasetFacet',
  columnLineage: 'https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json#/$defs/ColumnLineageDatasetFacet',
  jobType: 'https://openlineage.io/spec/facets/2-0-4/JobTypeJobFacet.json#/$defs/JobTypeJobFacet',
  parent: 'https://openlineage.io/spec/facets/1-2-0/ParentRunFacet.json#/$defs/ParentRunFacet',
} as const;

const FIELD_TYPES = ['string', 'bigint', 'decimal(18,2)', 'timestamp'];

/** A field's type, the same in every event and run (real producers report a column's type, not a new one each time). */
function fieldType(dataset: string, field: string): string {
  let h = 2166136261;
  for (const ch of `${dataset}.${field}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return FIELD_TYPES[(h >>> 0) % FIELD_TYPES.length]!;
}

/** All events of a stream, held in memory, with the outputs' metadata. */
export function generate(opts: GenOptions, outputs: Output[] = []): Generated {
  return { events: [...stream(opts, outputs)], outputs };
}

/**
 * The events of a stream one at a time, in emission order (START then COMPLETE, or RUNNING for
 * Flink, per run; jobs in layer order), without holding them: an L stream can be validated or
 * written to a file in constant memory. `outputs` receives each job's output as it is generated.
 * Every event is valid against the spec's JSON Schemas (core 2-0-2 and the facets' own schemas):
 * every facet carries `_producer` and `_schemaURL`.
 */
export function* stream(opts: GenOptions, outputs: Output[] = []): Generator<Record<string, unknown>> {
  const random = rng(opts.seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const base = Date.UTC(2025, 0, 1);
  const perLayer = Math.ceil(opts.jobs / opts.layers);
  const uuid = () => {
    const h = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };
  // layerStart[l]: index in `outputs` of the first output of layer l (outputs are in layer order),
  // so that the outputs of layers [a, b) are outputs.slice(layerStart[a], layerStart[b]).
  const layerStart: number[] = [];
  for (let jj = 0; jj < opts.jobs; jj++) {
    const j = jj + (opts.nameOffset ?? 0);
    const layer = Math.floor(jj / perLayer);
    if (layerStart[layer] === undefined) layerStart[layer] = outputs.length;
    const engine: Engine = layer === 0 ? 'kafka-connect' : pick(['flink', 'spark', 'spark', 'dbt'] as Engine[]);
    const fields = FIELD_NAMES.slice(0, opts.widths === 'wide' ? wideWidth(random(), int) : random() < 0.1 ? int(50, 200) : int(5, 20));
    const out = outputName(engine, j);
    const inputs =
      layer === 0
        ? [{ namespace: 'postgres://db.prod:5432', name: `shop.public.t${j}`, fields: ['id', 'amount', 'status', 'ts', 'customer'] }]
        : Array.from({ length: int(1, 3) }, () => pick(outputs.slice(layerStart[Math.max(0, layer - 3)]!, layerStart[layer]!)));
    const withCll = random() < opts.columnLineageShare;
    const aggregate = random() < 0.15;
    const changesInput = random() < 0.2 && layer > 1;
    const dag = { namespace: 'airflow', name: `dag_${layer % 10}` };
    const dagRun = uuid();
    const producer = `https://github.com/OpenLineage/OpenLineage/tree/1.30.0/integration/${engine}`;
    const facet = (key: keyof typeof FACET_SCHEMAS, body: Record<string, unknown>) => ({ _producer: producer, _schemaURL: FACET_SCHEMAS[key], ...body });
    const schema = facet('schema', { fields: fields.map((name) => ({ name, type: fieldType(`${out.namespace}/${out.name}`, name) })) });
    const symlinks = out.symlink ? { symlinks: facet('symlinks', { identifiers: [{ namespace: 'iceberg://catalog', name: out.symlink, type: 'TABLE' }] }) } : {};
    const job = {
      namespace: engine,
      name: `${engine}.job_${j}`,
      facets: { jobType: facet('jobType', { processingType: engine === 'flink' ? 'STREAMING' : 'BATCH', integration: engine.toUpperCase(), jobType: 'JOB' }) },
    };
    for (let r = 0; r < opts.runsPerJob; r++) {
      const runId = uuid();
      const start = base + (r * (opts.roundHours ?? opts.layers) + layer) * 3_600_000 + (jj % perLayer) * 1000;
      const withFacets = r < (opts.facetRuns ?? opts.runsPerJob);
      const runInputs = changesInput && r === opts.runsPerJob - 1 ? [pick(outputs.slice(0, layerStart[layer]!))] : inputs;
      const unique = [...new Map(runInputs.map((i) => [`${i.namespace}|${i.name}`, i])).values()];
      const outputDs: Record<string, unknown> = {
        namespace: out.namespace,
        name: out.name,
        ...(withFacets
          ? {
              facets: {
                schema,
                ...symlinks,
                ...(withCll ? { columnLineage: facet('columnLineage', columnLineage(fields, unique, aggregate, random)) } : {}),
              },
            }
          : {}),
      };
      const run = { runId, facets: { parent: facet('parent', { run: { runId: dagRun }, job: dag }) } };
      const ev = (eventType: string, offsetSec: number, io: boolean) => ({
        eventType,
        eventTime: new Date(start + offsetSec * 1000).toISOString(),
        producer,
        schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
        run,
        job,
        inputs: io ? unique.map((i) => ({ namespace: i.namespace, name: i.name })) : [],
        outputs: io ? [outputDs] : [],
      });
      yield ev('START', 0, true);
      yield ev(engine === 'flink' ? 'RUNNING' : 'COMPLETE', 60, true);
    }
    outputs.push({ namespace: out.namespace, name: out.name, fields, layer, columnLineage: withCll });
  }
}

/** A wide table's width: 100–300 fields, a quarter 300–800, one in twenty 800–1,500. */
function wideWidth(u: number, int: (lo: number, hi: number) => number): number {
  if (u < 0.05) return int(800, 1_500);
  if (u < 0.3) return int(300, 800);
  return int(100, 300);
}

function outputName(engine: Engine, j: number): { namespace: string; name: string; symlink?: string } {
  if (engine === 'kafka-connect') return { namespace: 'kafka://broker-1.prod:9092', name: `cdc.orders_${j}` };
  if (engine === 'flink' && j % 2 === 0) return { namespace: 'kafka://broker-1.prod:9092', name: `enriched_${j}` };
  if (engine === 'flink') return { namespace: 's3://lake', name: `/warehouse/db/stream_${j}`, symlink: `db.stream_${j}` };
  if (engine === 'spark') return { namespace: 'iceberg://catalog', name: `db.table_${j}` };
  return { namespace: 'postgres://warehouse:5432', name: `analytics.model_${j}` };
}

function columnLineage(
  fields: string[],
  inputs: { namespace: string; name: string; fields: string[] }[],
  aggregate: boolean,
  random: () => number,
) {
  const t = (type: string, subtype: string) => [{ type, subtype }];
  const entries = fields.map((f, i) => {
    const src = inputs[i % inputs.length]!;
    const inputFields = aggregate
      ? inputs.flatMap((inp) => inp.fields.slice(0, 3).map((field) => ({ namespace: inp.namespace, name: inp.name, field, transformations: t('DIRECT', 'AGGREGATION') })))
      : [{ namespace: src.namespace, name: src.name, field: src.fields[i % src.fields.length]!, transformations: t('DIRECT', random() < 0.7 ? 'IDENTITY' : 'TRANSFORMATION') }];
    return [f, { inputFields }];
  });
  const filter = inputs[0]!;
  return {
    fields: Object.fromEntries(entries),
    dataset: [{ namespace: filter.namespace, name: filter.name, field: filter.fields[0]!, transformations: t('INDIRECT', 'FILTER') }],
  };
}
