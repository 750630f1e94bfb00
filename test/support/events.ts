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
}

export function runEvent(ns: string, spec: RunSpec) {
  const ds = (name: string) => ({ namespace: ns, name });
  return {
    eventType: spec.eventType ?? 'COMPLETE',
    eventTime: spec.eventTime ?? '2024-05-01T12:00:00.000Z',
    producer: 'https://tributary.test/events',
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: { runId: spec.runId ?? randomUUID() },
    job: { namespace: ns, name: spec.job },
    inputs: (spec.inputs ?? []).map(ds),
    outputs: (spec.outputs ?? []).map((name) => {
      const cols = spec.columns?.[name];
      if (!cols) return ds(name);
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
      return { ...ds(name), facets: { columnLineage: { _producer: 'test', _schemaURL: 'test', fields } } };
    }),
  };
}
