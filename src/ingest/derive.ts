/**
 * Typed node properties derived from one facet each. Every facet key maps to a fixed set of
 * property names; a facet that is absent from the derivation gives null for each of them, so a
 * later deletion (`_deleted: true`) clears what an earlier version set. Facets not listed here
 * derive nothing; they are still kept whole as JSON (the `facetValues` list, merge-facets.cypher).
 */
import { createHash } from 'node:crypto';

type Facet = Record<string, unknown>;
type Derivation = Record<string, (f: Facet) => unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const owners = (f: Facet): string[] | null => {
  const list = Array.isArray(f.owners) ? f.owners : [];
  const names = list.map((o) => str((o as Facet | null)?.name)).filter((n): n is string => n !== null);
  return names.length ? names : null;
};
const nested = (f: Facet, a: string, b: string): string | null => str((f[a] as Facet | undefined)?.[b]);

export const DATASET_DERIVED: Record<string, Derivation> = {
  documentation: { description: (f) => str(f.description) },
  ownership: { owners },
  dataSource: { sourceName: (f) => str(f.name), sourceUri: (f) => str(f.uri) },
  lifecycleStateChange: { lifecycleState: (f) => str(f.lifecycleStateChange) },
  storage: { storageLayer: (f) => str(f.storageLayer), fileFormat: (f) => str(f.fileFormat) },
  version: { datasetVersion: (f) => str(f.datasetVersion) },
  datasetType: { datasetType: (f) => str(f.datasetType) },
};

/**
 * Tributary's job facet for a job that no longer runs (a deleted Kafka Connect connector; facet
 * `{reason, lastRunId, at}`): while it is the job's latest, none of the job's inputs and outputs
 * is current (refresh-current-io.cypher). A later event deleting it (`_deleted: true`) revives the job.
 */
export const RETIRED_FACET = 'retired';

/**
 * Tributary's job facet for a job whose lineage nobody reports (`{reason}`: a Kafka Connect
 * connector of a class the collector does not map): listed with the coverage gaps, never guessed.
 */
export const LINEAGE_UNKNOWN_FACET = 'lineageUnknown';

/**
 * Tributary's job facet for a job whose lineage Tributary collected instead of a producer reporting
 * it (`{collector}`: the Kafka Connect collector reading connector configurations). Coverage counts
 * its edges apart (collectedEdges), never as reported dataset-level lineage.
 */
export const COLLECTED_FACET = 'collected';

export const JOB_DERIVED: Record<string, Derivation> = {
  [RETIRED_FACET]: { retiredAt: (f) => str(f.at) ?? 'unknown' },
  [LINEAGE_UNKNOWN_FACET]: { lineageUnknown: (f) => str(f.reason) ?? 'no producer reports its lineage' },
  [COLLECTED_FACET]: { collectedBy: (f) => str(f.collector) ?? 'tributary' },
  documentation: { description: (f) => str(f.description) },
  jobType: { integration: (f) => str(f.integration), processingType: (f) => str(f.processingType), jobType: (f) => str(f.jobType) },
  ownership: { owners },
  // sqlHash: what the SQL declarer (src/sql/declarer.ts) compares to know a statement changed.
  sql: { sql: (f) => str(f.query), sqlDialect: (f) => str(f.dialect), sqlHash: (f) => sqlHash(str(f.query)) },
  sourceCodeLocation: { sourceCodeUrl: (f) => str(f.url) },
  sourceCode: { sourceCodeLanguage: (f) => str(f.language) },
};

export const RUN_DERIVED: Record<string, Derivation> = {
  nominalTime: { nominalStartTime: (f) => str(f.nominalStartTime), nominalEndTime: (f) => str(f.nominalEndTime) },
  processing_engine: { engineName: (f) => str(f.name), engineVersion: (f) => str(f.version), adapterVersion: (f) => str(f.openlineageAdapterVersion) },
  errorMessage: { errorMessage: (f) => str(f.message) },
  externalQuery: { externalQueryId: (f) => str(f.externalQueryId) },
  parent: {
    parentRunId: (f) => nested(f, 'run', 'runId')?.toLowerCase() ?? null,
    parentJobNamespace: (f) => nested(f, 'job', 'namespace'),
    parentJobName: (f) => nested(f, 'job', 'name'),
  },
};

/** The statement's fingerprint (sha-256, hex), as the SQL declarer records the one it parsed. */
export function sqlHash(query: string | null): string | null {
  return query === null ? null : createHash('sha256').update(query).digest('hex');
}

/** The derived properties of one facet; all null when the facet is deleted (value null). */
export function derive(table: Record<string, Derivation>, key: string, value: Facet | null): Record<string, unknown> {
  const d = table[key];
  if (!d) return {};
  return Object.fromEntries(Object.entries(d).map(([prop, fn]) => [prop, value === null ? null : (fn(value) ?? null)]));
}
