import { createHash } from 'node:crypto';
import { datasetId, fieldOfDataset, jobId, runId } from '../ids';
import { DATASET_DERIVED, derive, JOB_DERIVED, RUN_DERIVED } from './derive';
import type { SchemaField } from './facets';
import { NO_RULES, normalisationEntry, normaliseDatasetName, type IdentityRules } from './naming';
import type { FacetRow, FieldRow, IoRow, ProjectionPlan } from './plan-rows';
import { canonicalJson } from './stored-event';
import type { ValidEvent } from './validate';

/**
 * Turns validated events into a projection plan (the rows of plan-rows.ts), one list per Cypher write query, so
 * that one transaction can project a whole batch with a fixed number of UNWIND queries.
 * Pure: no I/O, deterministic for a given input.
 *
 * Every row carries the event's UTC `eventTime`; the Cypher uses it to make the result independent
 * of arrival order (min/max times, latest-by-eventTime facets, ranked run states).
 */

type FacetMap = Record<string, unknown> | null | undefined;

interface DatasetLike {
  namespace: string;
  name: string;
  facets?: FacetMap;
}

/** What planning an event depends on beyond the event: the identity rules and the stored event's id. */
export interface PlanContext {
  rules: IdentityRules;
  /** The stored event's id (recorded on the symlinks it declares); null when not known. */
  eventId: string | null;
}

const NO_CONTEXT: PlanContext = { rules: NO_RULES, eventId: null };

/** Adds one validated event to a plan. */
export function planEvent(plan: ProjectionPlan, v: ValidEvent, ctx: PlanContext = NO_CONTEXT): void {
  const t = v.eventTimeUtc;
  if (v.kind === 'DatasetEvent') {
    addDataset(plan, v.event.dataset, t, ctx);
    return;
  }
  const job = v.event.job;
  const jid = jobId(job.namespace, job.name);
  const rid = v.kind === 'RunEvent' ? runId(v.event.run.runId) : null;
  const inputs = v.event.inputs ?? [];
  const outputs = v.event.outputs ?? [];
  const reportsIo = inputs.length + outputs.length > 0;
  plan.jobs.push({
    id: jid,
    namespace: job.namespace,
    name: job.name,
    eventTime: t,
    facets: facetRows(job.facets, t, JOB_DERIVED),
    ioAt: reportsIo ? t : null,
    ioRunId: reportsIo ? rid : null,
    engine: engineOf((job.facets as { jobType?: { integration?: unknown } } | undefined)?.jobType?.integration, v.event.producer),
  });
  if (v.kind === 'RunEvent' && rid) {
    plan.runs.push({
      id: rid,
      runId: v.event.run.runId.toLowerCase(),
      jobId: jid,
      eventType: v.eventType,
      eventTime: t,
      facets: facetRows(v.event.run.facets, t, RUN_DERIVED),
      codeSig: codeSignature(job.facets),
    });
    addParent(plan, rid, v.event.run.facets, t);
  }
  const declaredInputs = new Set<string>();
  for (const ds of inputs) {
    const { id: did, fields } = addDataset(plan, ds, t, ctx);
    declaredInputs.add(did);
    const ioFacets = (ds as { inputFacets?: FacetMap }).inputFacets;
    plan.inputs.push({ runId: rid, jobId: jid, datasetId: did, declared: true, eventTime: t, facets: facetRows(ioFacets, t, {}), fields, ...NO_CLL });
  }
  const impliedInputs = new Set<string>();
  for (const ds of outputs) {
    const { id: did, fields } = addDataset(plan, ds, t, ctx);
    const ioFacets = (ds as { outputFacets?: FacetMap }).outputFacets;
    const cll = addColumnLineage(plan, ds, did, jid, t, ctx);
    cll.sources.forEach((id) => impliedInputs.add(id));
    plan.outputs.push({ runId: rid, jobId: jid, datasetId: did, declared: true, eventTime: t, facets: facetRows(ioFacets, t, {}), fields, ...cll.reported });
  }
  // A dataset that column lineage names as a source was read by the job, even when a producer
  // (dbt-ol, for one) leaves it out of `inputs`: record the read, marked as not declared.
  for (const did of impliedInputs) {
    if (!declaredInputs.has(did)) {
      plan.inputs.push({ runId: rid, jobId: jid, datasetId: did, declared: false, eventTime: t, facets: [], fields: [], ...NO_CLL });
    }
  }
}

type ReportedCll = Pick<IoRow, 'cllFields' | 'cllWhole' | 'cllPairs'>;
const NO_CLL: ReportedCll = { cllFields: [], cllWhole: false, cllPairs: [] };

/** Adds a dataset node (normalised name), its schema fields and symlinks; returns its id and the schema's field paths (sorted). */
function addDataset(plan: ProjectionPlan, ds: DatasetLike, t: string, ctx: PlanContext): { id: string; fields: string[] } {
  const id = datasetRef(plan, ds.namespace, ds.name, t, ctx, facetRows(ds.facets, t, DATASET_DERIVED));
  const facets = (ds.facets ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const schemaFields = facets.schema?._deleted === true ? [] : ((facets.schema?.fields as SchemaField[] | null | undefined) ?? []);
  const paths = new Set<string>();
  for (const f of flattenSchema(schemaFields)) {
    paths.add(f.path);
    plan.fields.push({
      id: fieldOfDataset(id, f.path),
      datasetId: id,
      name: f.path,
      type: f.type,
      description: f.description,
      fromSchema: true,
      eventTime: t,
    });
  }
  const identifiers = (facets.symlinks?.identifiers as { namespace: string; name: string; type: string }[] | null | undefined) ?? [];
  for (const ident of identifiers) {
    const aliasId = datasetRef(plan, ident.namespace, ident.name, t, ctx);
    if (aliasId !== id) plan.symlinks.push({ datasetId: id, aliasId, type: ident.type, eventTime: t, eventId: ctx.eventId });
  }
  return { id, fields: [...paths].sort() };
}

/** Adds a dataset row for a reference (by default without facets); returns the normalised id. */
function datasetRef(plan: ProjectionPlan, namespace: string, name: string, t: string, ctx: PlanContext, facets: FacetRow[] = []): string {
  const n = normaliseDatasetName(namespace, name, ctx.rules);
  const id = datasetId(n.namespace, n.name);
  const changed = n.steps.length > 0;
  plan.datasets.push({
    id,
    namespace: n.namespace,
    name: n.name,
    eventTime: t,
    facets,
    rawNames: changed ? [`${namespace}|${name}`] : [],
    normalisations: n.steps.map((step) => normalisationEntry(namespace, name, step)),
  });
  return id;
}

interface InputFieldShape {
  namespace: string;
  name: string;
  field: string;
  transformations?: unknown[] | null;
}

interface ColumnLineageFacetShape {
  _deleted?: boolean;
  fields?: Record<string, { inputFields?: InputFieldShape[]; transformationDescription?: string | null; transformationType?: string | null }>;
  dataset?: InputFieldShape[] | null;
}

/**
 * Adds the column lineage of one output; returns the ids of the input datasets it names and what
 * the event reported for the output (kept on the run's OUTPUT_TO: IoRow's cll* properties).
 */
function addColumnLineage(
  plan: ProjectionPlan,
  out: DatasetLike,
  outId: string,
  jid: string,
  t: string,
  ctx: PlanContext,
): { sources: Set<string>; reported: ReportedCll } {
  const sources = new Set<string>();
  const cll = (out.facets as { columnLineage?: ColumnLineageFacetShape } | null | undefined)?.columnLineage;
  if (!cll || cll._deleted === true) return { sources, reported: NO_CLL };
  const pairs = new Set<string>();
  const withInputs = new Set<string>();
  // Column lineage names its input datasets and fields once per use; add each row once per event.
  const datasetIds = new Map<string, string>();
  const fieldsSeen = new Set<string>();
  const inputEdge = (input: InputFieldShape, toId: string, deprecated?: { type?: string | null; description?: string | null }) => {
    const key = `${input.namespace}\u0000${input.name}`;
    let inDs = datasetIds.get(key);
    if (inDs === undefined) {
      inDs = datasetRef(plan, input.namespace, input.name, t, ctx);
      datasetIds.set(key, inDs);
    }
    sources.add(inDs);
    const fromFieldId = fieldOfDataset(inDs, input.field);
    if (!fieldsSeen.has(fromFieldId)) {
      fieldsSeen.add(fromFieldId);
      plan.fields.push(lineageField(fromFieldId, inDs, input.field, t));
    }
    // openlineage-python sends `transformations: []` beside the deprecated transformationType: an
    // empty list says nothing, so the deprecated fields (when sent) stand for it.
    const transformations = input.transformations?.length
      ? input.transformations
      : deprecated?.type
        ? [{ type: deprecated.type, description: deprecated.description ?? null, deprecatedForm: true }]
        : (input.transformations ?? []);
    return {
      fromFieldId,
      toId,
      jobId: jid,
      transformations: JSON.stringify(transformations),
      types: distinct(transformations, 'type'),
      subtypes: distinct(transformations, 'subtype'),
      eventTime: t,
    };
  };
  for (const [outField, spec] of Object.entries(cll.fields ?? {})) {
    const toFieldId = fieldOfDataset(outId, outField);
    plan.fields.push(lineageField(toFieldId, outId, outField, t));
    for (const input of spec.inputFields ?? []) {
      const edge = inputEdge(input, toFieldId, { type: spec.transformationType, description: spec.transformationDescription });
      plan.columnEdges.push(edge);
      pairs.add(JSON.stringify([edge.fromFieldId, outField]));
      withInputs.add(outField);
    }
  }
  // Dataset-level dependencies (spec 1-2-0): input fields that affect the whole output (filters,
  // joins, sorts). Stored as field → dataset edges, not copied onto every output field.
  for (const input of cll.dataset ?? []) {
    const edge = inputEdge(input, outId);
    plan.datasetDependencies.push(edge);
    pairs.add(JSON.stringify([edge.fromFieldId, null]));
  }
  const whole = (cll.dataset ?? []).length > 0;
  return { sources, reported: { cllFields: [...withInputs].sort(), cllWhole: whole, cllPairs: [...pairs].sort() } };
}

function addParent(plan: ProjectionPlan, rid: string, facets: FacetMap, t: string): void {
  const parent = (facets as { parent?: Record<string, any> } | null | undefined)?.parent;
  if (!parent || parent._deleted === true || !parent.run?.runId) return;
  const root = parent.root?.run?.runId ? parent.root : null;
  plan.parents.push({
    runId: rid,
    parentRunId: runId(parent.run.runId),
    parentJobId: jobId(parent.job.namespace, parent.job.name),
    parentJobNamespace: parent.job.namespace,
    parentJobName: parent.job.name,
    rootRunId: root ? runId(root.run.runId) : null,
    rootJobId: root ? jobId(root.job.namespace, root.job.name) : null,
    rootJobNamespace: root?.job.namespace ?? null,
    rootJobName: root?.job.name ?? null,
    eventTime: t,
  });
}

function lineageField(id: string, dsId: string, name: string, t: string): FieldRow {
  return { id, datasetId: dsId, name, type: null, description: null, fromSchema: false, eventTime: t };
}

/** Engines named in producer URIs: what the URI contains → the engine, spelled as jobType's integration would be (lower-case). */
const ENGINES: [string, string][] = [
  ['spark', 'spark'],
  ['flink', 'flink'],
  ['dbt', 'dbt'],
  ['airflow', 'airflow'],
  ['hive', 'hive'],
  ['trino', 'trino'],
  ['kafka-connect', 'kafka_connect'],
  ['debezium', 'debezium'],
  ['great_expectations', 'great_expectations'],
  ['marquez', 'marquez'],
];

/**
 * The engine of a job, lower-case: the jobType facet's integration when present; else the first
 * known engine named in the producer URI (`.../integration/spark`, `dbt-ol`, `apache/airflow`...);
 * else "other".
 */
export function engineOf(integration: unknown, producer: string): string {
  if (typeof integration === 'string' && integration.trim()) return integration.trim().toLowerCase();
  const p = producer.toLowerCase();
  return ENGINES.find(([e]) => p.includes(e))?.[1] ?? (p.includes('connect') ? 'kafka_connect' : 'other');
}

/** A short hash of the source code facets of a job, or null when the event carries none. */
function codeSignature(facets: FacetMap): string | null {
  const f = (facets ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const code = f.sourceCode?._deleted === true ? undefined : f.sourceCode;
  const loc = f.sourceCodeLocation?._deleted === true ? undefined : f.sourceCodeLocation;
  if (!code && !loc) return null;
  const basis = canonicalJson({ code: code?.sourceCode ?? null, language: code?.language ?? null, url: loc?.url ?? null, version: loc?.version ?? null });
  return createHash('sha256').update(basis).digest('hex').slice(0, 16);
}

/** One row per facet key; `_deleted: true` gives a deletion (value null). */
export function facetRows(facets: FacetMap, at: string, derivation: Parameters<typeof derive>[0]): FacetRow[] {
  return Object.entries(facets ?? {})
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([key, value]) => {
      const deleted = (value as { _deleted?: unknown })._deleted === true;
      const facet = deleted ? null : (value as Record<string, unknown>);
      return { key, value: facet === null ? null : JSON.stringify(facet), at, derived: derive(derivation, key, facet) };
    });
}

/** Nested schema fields become dotted paths (`address.city`), parents first. */
export function flattenSchema(
  fields: SchemaField[],
  prefix = '',
): { path: string; type: string | null; description: string | null }[] {
  const out: { path: string; type: string | null; description: string | null }[] = [];
  for (const f of fields) {
    const path = prefix ? `${prefix}.${f.name}` : f.name;
    out.push({ path, type: f.type ?? null, description: f.description ?? null });
    if (f.fields?.length) out.push(...flattenSchema(f.fields, path));
  }
  return out;
}

function distinct(items: unknown[], key: 'type' | 'subtype'): string[] {
  const values = items.map((i) => (i as Record<string, unknown> | null)?.[key]).filter((v): v is string => typeof v === 'string');
  return [...new Set(values)].sort();
}
