import { randomUUID } from 'node:crypto';

/** Small OpenLineage RunEvents for tests that need a graph of a particular shape. */
export interface RunSpec {
  job: string;
  inputs?: string[];
  outputs?: string[];
  eventType?: string;
  eventTime?: string;
  runId?: string;
  /** Column lineage per output: { "<output>": { "<field>": ["<input>.<field>", ...] } }. */
  columns?: Record<string, Record<string, string[]>>;
  jobFacets?: Record<string, unknown>;
  runFacets?: Record<string, unknown>;
  /** Dataset facets by dataset name (merged with the column lineage facet). */
  datasetFacets?: Record<string, Record<string, unknown>>;
}

export function runEvent(ns: string, spec: RunSpec) {
  const ds = (name: string) => ({ namespace: ns, name });
  return {
    eventType: spec.eventType ?? 'COMPLETE',
    eventTime: spec.eventTime ?? '2024-05-01T12:00:00.000Z',
    producer: 'https://tributary.test/events',
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: { runId: spec.runId ?? randomUUID(), ...(spec.runFacets ? { facets: spec.runFacets } : {}) },
    job: { namespace: ns, name: spec.job, ...(spec.jobFacets ? { facets: spec.jobFacets } : {}) },
    inputs: (spec.inputs ?? []).map((name) => withFacets(ds(name), spec.datasetFacets?.[name])),
    outputs: (spec.outputs ?? []).map((name) => {
      const cols = spec.columns?.[name];
      if (!cols) return withFacets(ds(name), spec.datasetFacets?.[name]);
      const fields = Object.fromEntries(
        Object.entries(cols).map(([field, sources]) => [
          field,
          {
            inputFields: sources.map((s) => {
              const dot = s.lastIndexOf('.');
              return { namespace: ns, name: s.slice(0, dot), field: s.slice(dot + 1), transformations: [{ type: 'DIRECT', subtype: 'IDENTITY' }] };
            }),
          },
        ]),
      );
      return { ...ds(name), facets: { ...spec.datasetFacets?.[name], columnLineage: { _producer: 'test', _schemaURL: 'test', fields } } };
    }),
  };
}

function withFacets<T extends object>(d: T, facets: Record<string, unknown> | undefined): T {
  return facets ? { ...d, facets } : d;
}
