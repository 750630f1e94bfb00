import { createHash } from 'node:crypto';
import { datasetId, fieldId, jobId, runId } from '../ids';
import type { SchemaField } from './facets';
import type { ValidEvent } from './validate';

/**
 * Turns validated events into a projection plan: flat row lists, one per Cypher write query, so
 * that one transaction can project a whole batch with a fixed number of UNWIND queries.
 * Pure: no I/O, deterministic for a given input.
 *
 * Every row carries the event's UTC `eventTime`; the Cypher uses it to make the result independent
 * of arrival order (min/max times, latest-by-eventTime properties, ranked run states).
 */

export interface StoredEventRow {
  id: string;
  kind: ValidEvent['kind'];
  eventType: string | null;
  eventTime: string;
  producer: string;
  specVersion: string | null;
  runId: string | null;
  jobId: string | null;
  datasetId: string | null;
  raw: string;
}

export interface JobRow {
  id: string;
  namespace: string;
  name: string;
  eventTime: string;
  /** JSON of the job's facets in this event; null when the event carried none. */
  facets: string | null;
  description: string | null;
  integration: string | null;
  processingType: string | null;
  jobType: string | null;
}

export interface DatasetRow {
  id: string;
  namespace: string;
  name: string;
  eventTime: string;
  facets: string | null;
  description: string | null;
}

export interface FieldRow {
  id: string;
  datasetId: string;
  name: string;
  type: string | null;
  description: string | null;
  /** True when the row comes from a schema facet (authoritative for type/description). */
  fromSchema: boolean;
  eventTime: string;
}

export interface RunRow {
  id: string;
  runId: string;
  jobId: string;
  eventType: string | null;
  eventTime: string;
  facets: string | null;
}

export interface IoRow {
  /** Run node id, or null for a JobEvent (static lineage: job-level edge only). */
  runId: string | null;
  jobId: string;
  datasetId: string;
  /** False for an input implied only by column lineage (the event's `inputs` omit it). */
  declared: boolean;
  eventTime: string;
}

export interface ColumnEdgeRow {
  fromFieldId: string;
  toFieldId: string;
  jobId: string;
  /** JSON array of the input field's transformations (spec 1-2-0), possibly synthesised from
   *  the deprecated transformationType/transformationDescription. */
  transformations: string;
  /** Distinct `type` and `subtype` values of those transformations, sorted. */
  types: string[];
  subtypes: string[];
  eventTime: string;
}

export interface ProjectionPlan {
  jobs: JobRow[];
  datasets: DatasetRow[];
  fields: FieldRow[];
  runs: RunRow[];
  inputs: IoRow[];
  outputs: IoRow[];
  columnEdges: ColumnEdgeRow[];
}

/** The stored form of an event: its id is the SHA-256 of its exact JSON text. */
export function storedEventRow(v: ValidEvent, raw: string): StoredEventRow {
  const e = v.event as { producer: string; job?: { namespace: string; name: string } };
  return {
    id: `event:${createHash('sha256').update(raw).digest('hex')}`,
    kind: v.kind,
    eventType: v.kind === 'RunEvent' ? v.eventType : null,
    eventTime: v.eventTimeUtc,
    producer: e.producer,
    specVersion: v.specVersion,
    runId: v.kind === 'RunEvent' ? runId(v.event.run.runId) : null,
    jobId: e.job ? jobId(e.job.namespace, e.job.name) : null,
    datasetId: v.kind === 'DatasetEvent' ? datasetId(v.event.dataset.namespace, v.event.dataset.name) : null,
    raw,
  };
}

export function emptyPlan(): ProjectionPlan {
  return { jobs: [], datasets: [], fields: [], runs: [], inputs: [], outputs: [], columnEdges: [] };
}

interface DatasetLike {
  namespace: string;
  name: string;
  facets?: Record<string, unknown> | null;
}

/** Adds one validated event to a plan. */
export function planEvent(plan: ProjectionPlan, v: ValidEvent): void {
  const t = v.eventTimeUtc;
  if (v.kind === 'DatasetEvent') {
    addDataset(plan, v.event.dataset, t);
    return;
  }
  const job = v.event.job;
  const jid = jobId(job.namespace, job.name);
  const jf = (job.facets ?? {}) as Record<string, Record<string, unknown> | undefined>;
  plan.jobs.push({
    id: jid,
    namespace: job.namespace,
    name: job.name,
    eventTime: t,
    facets: jsonOrNull(job.facets),
    description: str(jf.documentation?.description),
    integration: str(jf.jobType?.integration),
    processingType: str(jf.jobType?.processingType),
    jobType: str(jf.jobType?.jobType),
  });
  let rid: string | null = null;
  if (v.kind === 'RunEvent') {
    rid = runId(v.event.run.runId);
    plan.runs.push({
      id: rid,
      runId: v.event.run.runId.toLowerCase(),
      jobId: jid,
      eventType: v.eventType,
      eventTime: t,
      facets: jsonOrNull(v.event.run.facets),
    });
  }
  const declaredInputs = new Set<string>();
  for (const ds of v.event.inputs ?? []) {
    const did = addDataset(plan, ds, t);
    declaredInputs.add(did);
    plan.inputs.push({ runId: rid, jobId: jid, datasetId: did, declared: true, eventTime: t });
  }
  const impliedInputs = new Set<string>();
  for (const ds of v.event.outputs ?? []) {
    const did = addDataset(plan, ds, t);
    plan.outputs.push({ runId: rid, jobId: jid, datasetId: did, declared: true, eventTime: t });
    addColumnLineage(plan, ds, jid, t).forEach((id) => impliedInputs.add(id));
  }
  // A dataset that column lineage names as a source was read by the job, even when a producer
  // (dbt-ol, for one) leaves it out of `inputs`: record the read, marked as not declared.
  for (const did of impliedInputs) {
    if (!declaredInputs.has(did)) plan.inputs.push({ runId: rid, jobId: jid, datasetId: did, declared: false, eventTime: t });
  }
}

function addDataset(plan: ProjectionPlan, ds: DatasetLike, t: string): string {
  const id = datasetId(ds.namespace, ds.name);
  const facets = (ds.facets ?? {}) as Record<string, Record<string, unknown> | undefined>;
  plan.datasets.push({
    id,
    namespace: ds.namespace,
    name: ds.name,
    eventTime: t,
    facets: jsonOrNull(ds.facets),
    description: str(facets.documentation?.description),
  });
  const schemaFields = facets.schema?.fields as SchemaField[] | null | undefined;
  for (const f of flattenSchema(schemaFields ?? [])) {
    plan.fields.push({
      id: fieldId(ds.namespace, ds.name, f.path),
      datasetId: id,
      name: f.path,
      type: f.type,
      description: f.description,
      fromSchema: true,
      eventTime: t,
    });
  }
  return id;
}

interface ColumnLineageFacetShape {
  fields?: Record<
    string,
    {
      inputFields?: {
        namespace: string;
        name: string;
        field: string;
        transformations?: unknown[] | null;
      }[];
      transformationDescription?: string | null;
      transformationType?: string | null;
    }
  >;
}

/** Adds the column lineage of one output; returns the ids of the input datasets it names. */
function addColumnLineage(plan: ProjectionPlan, out: DatasetLike, jid: string, t: string): Set<string> {
  const sources = new Set<string>();
  const cll = (out.facets as { columnLineage?: ColumnLineageFacetShape } | null | undefined)?.columnLineage;
  if (!cll?.fields) return sources;
  const outDs = datasetId(out.namespace, out.name);
  for (const [outField, spec] of Object.entries(cll.fields)) {
    const toFieldId = fieldId(out.namespace, out.name, outField);
    plan.fields.push(lineageField(toFieldId, outDs, outField, t));
    for (const input of spec.inputFields ?? []) {
      const inDs = datasetId(input.namespace, input.name);
      sources.add(inDs);
      const fromFieldId = fieldId(input.namespace, input.name, input.field);
      plan.datasets.push({
        id: inDs,
        namespace: input.namespace,
        name: input.name,
        eventTime: t,
        facets: null,
        description: null,
      });
      plan.fields.push(lineageField(fromFieldId, inDs, input.field, t));
      const transformations =
        input.transformations ??
        (spec.transformationType
          ? [{ type: spec.transformationType, description: spec.transformationDescription ?? null, deprecatedForm: true }]
          : []);
      plan.columnEdges.push({
        fromFieldId,
        toFieldId,
        jobId: jid,
        transformations: JSON.stringify(transformations),
        types: distinct(transformations, 'type'),
        subtypes: distinct(transformations, 'subtype'),
        eventTime: t,
      });
    }
  }
  return sources;
}

function lineageField(id: string, dsId: string, name: string, t: string): FieldRow {
  return { id, datasetId: dsId, name, type: null, description: null, fromSchema: false, eventTime: t };
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

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function jsonOrNull(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'object' && Object.keys(v as object).length === 0) return null;
  return JSON.stringify(v);
}
