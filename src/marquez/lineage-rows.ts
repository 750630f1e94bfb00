import { datasetId, fieldOfDataset } from '../ids';
import { cmp } from '../lineage/common';
import type { DatasetRow, JobRow, MarquezDatasetId, RunRow } from './shapes';

/**
 * The positional rows of cypher/marquez/lineage-jobs.cypher and lineage-datasets.cypher, read into
 * the JobRow, RunRow and DatasetRow the Marquez shapes take. Those queries return lists rather than
 * maps and sort nothing (map keys and per-node sorts were most of the cost of a 20,000-node answer,
 * in Neo4j and in decoding); the orders Marquez shows are made here, as the detail queries make them:
 * inputs and outputs by dataset id, fields by name (shapes.ts then puts them in schema order), the
 * newest write by OUTPUT_TO firstSeen then run id (a missing time counts as newest, as Cypher's
 * descending ORDER BY puts nulls first).
 */

type Text = string | null;

export interface LineageJobRow {
  job: [string, string, string, Text, Text, Text, Text, Text, Text, Text];
  inputs: [string, string][];
  outputs: [string, string][];
  parent: [string, string, string] | null;
  latest: [string, string, Text, Text, Text, Text, Text, Text, Text, Text] | null;
}

export interface LineageDatasetRow {
  dataset: [string, string, string, Text, Text, Text, Text, Text, Text];
  names: string[];
  types: Text[];
  descriptions: Text[];
  fieldTags: [string, string[] | null][];
  tags: string[];
  writes: [Text, string][];
}

const byDatasetId = (list: [string, string][]): MarquezDatasetId[] =>
  list
    .map(([namespace, name]) => ({ key: datasetId(namespace, name), id: { namespace, name } }))
    .sort((a, b) => cmp(a.key, b.key))
    .map((x) => x.id);

export function jobFromRow(r: LineageJobRow): JobRow & { latest: RunRow | null } {
  const [id, namespace, name, description, processingType, jobType, integration, sourceCodeUrl, firstSeen, lastSeen] = r.job;
  const job = { id, namespace, name, description, processingType, jobType, integration, sourceCodeUrl, firstSeen, lastSeen, facets: [] };
  let latest: RunRow | null = null;
  if (r.latest) {
    const [runNodeId, runId, state, startedAt, endedAt, runFirstSeen, runLastSeen, nominalStartTime, nominalEndTime, versionId] = r.latest;
    latest = {
      run: { id: runNodeId, runId, state, startedAt, endedAt, firstSeen: runFirstSeen, lastSeen: runLastSeen, nominalStartTime, nominalEndTime, facets: [] },
      job: { id, namespace, name },
      versionId,
      inputs: [],
      outputs: [],
    };
  }
  return {
    job,
    inputs: byDatasetId(r.inputs),
    outputs: byDatasetId(r.outputs),
    runIds: latest ? [latest.run.id] : [],
    versionId: null,
    parent: r.parent ? { id: r.parent[0], namespace: r.parent[1], name: r.parent[2] } : null,
    tags: [],
    hidden: false,
    latest,
  };
}

/** Newer first: later time (a missing one first), then the greater run id. */
const newerWrite = (a: [Text, string], b: [Text, string]): number =>
  (a[0] === b[0] ? 0 : a[0] === null ? -1 : b[0] === null ? 1 : cmp(b[0], a[0])) || cmp(b[1], a[1]);

export function datasetFromRow(r: LineageDatasetRow): DatasetRow {
  const [id, namespace, name, description, sourceName, lifecycleState, firstSeen, lastSeen, schema] = r.dataset;
  const tagsOf = r.fieldTags.length ? new Map(r.fieldTags.map(([fieldId, tags]) => [fieldId, tags ?? []])) : null;
  const fields = r.names
    .map((field, i) => ({ name: field, type: r.types[i] ?? null, description: r.descriptions[i] ?? null, tags: tagsOf?.get(fieldOfDataset(id, field)) ?? [] }))
    .sort((a, b) => cmp(a.name, b.name));
  const newest = r.writes.length ? r.writes.reduce((a, b) => (newerWrite(a, b) <= 0 ? a : b)) : null;
  return {
    dataset: { id, namespace, name, description, sourceName, lifecycleState, firstSeen, lastSeen, facets: schema === null ? [] : [['schema', schema]] },
    fields,
    tags: r.tags,
    hidden: false,
    latestWrite: newest ? { runId: newest[1], at: newest[0] } : null,
    inputFacets: [],
    columnLineage: [],
  };
}
