/**
 * The node records of the lineage read side: what a lookup of a dataset, field, job, run or job
 * version answers (src/lineage/catalog-service.ts reads them; src/graphql/nodes maps them). Free
 * of GraphQL; times are ISO-8601 UTC strings (event time). The vocabulary is in types.ts.
 */

import type { IoDirection, MatchStrength, SqlParseStatus, SqlUnparsedReason } from './types';

/** Facets by key, each as the JSON the latest event sent (see merge-facets.cypher). */
export type Facets = Record<string, unknown>;

export interface DatasetRecord {
  id: string;
  namespace: string;
  name: string;
  description: string | null;
  owners: string[] | null;
  sourceName: string | null;
  sourceUri: string | null;
  lifecycleState: string | null;
  storageLayer: string | null;
  fileFormat: string | null;
  datasetVersion: string | null;
  datasetType: string | null;
  firstSeen: string | null;
  lastSeen: string | null;
  /** Original `namespace|name` spellings normalised into this id. */
  rawNames: string[];
  /** Why each spelling was normalised. */
  normalisations: string[];
  facets: Facets;
  /** Tags put on it through Marquez's API (src/marquez). */
  tags: string[];
  /** When it was soft-deleted through Marquez's API, while no event has named it since; else null. */
  hiddenAt: string | null;
}

export interface FieldRecord {
  id: string;
  datasetId: string;
  name: string;
  type: string | null;
  description: string | null;
  /** Tags put on it through Marquez's API (src/marquez). */
  tags: string[];
}

export interface JobRecord {
  id: string;
  namespace: string;
  name: string;
  description: string | null;
  integration: string | null;
  processingType: string | null;
  jobType: string | null;
  owners: string[] | null;
  sql: string | null;
  sourceCodeUrl: string | null;
  sourceCodeLanguage: string | null;
  firstSeen: string | null;
  lastSeen: string | null;
  /** Event time of the job's latest IO report (its current inputs and outputs). */
  ioAt: string | null;
  /** When the job stopped running (a deleted Kafka Connect connector): none of its IO is current. */
  retiredAt: string | null;
  /** The Tributary collector that made its lineage (kafka-connect), none when a producer reports it. */
  collectedBy: string | null;
  /** Why nobody reports its lineage, when nobody does. */
  lineageUnknown: string | null;
  facets: Facets;
  /** Tags put on it through Marquez's API (src/marquez). */
  tags: string[];
  /** When it was soft-deleted through Marquez's API, while no event has named it since; else null. */
  hiddenAt: string | null;
}

export interface RunRecord {
  id: string;
  runId: string;
  jobId: string;
  state: string | null;
  startedAt: string | null;
  endedAt: string | null;
  stateAt: string | null;
  firstSeen: string | null;
  lastSeen: string | null;
  nominalStartTime: string | null;
  nominalEndTime: string | null;
  engineName: string | null;
  engineVersion: string | null;
  errorMessage: string | null;
  externalQueryId: string | null;
  parentRunId: string | null;
  rootRunId: string | null;
  versionId: string | null;
  facets: Facets;
}

/** One combination of inputs, outputs and source code of a job, across its runs. */
export interface JobVersionRecord {
  id: string;
  inputs: string[];
  outputs: string[];
  codeSig: string | null;
  firstSeen: string | null;
  lastSeen: string | null;
  runs: number;
}

/** A table a job's SQL statement names (the SQL declarer: DECLARED lineage, never reported). */
export interface DeclaredTableRecord {
  /** OUTPUT: inserted into, merged into, updated, deleted from, overwritten or created; INPUT: every other table it names. */
  role: IoDirection;
  /** As the statement writes it, unquoted, parts joined with '.'. */
  name: string;
  /** Where the statement names it first: 1-based line, 0-based column, character offsets [start, end). */
  line: number;
  column: number;
  start: number;
  end: number;
  /** Some resolved dataset (or a symlinked name of it) is one the job's events list that way: nothing new. */
  reported: boolean;
  /** The datasets the name resolves to: STRONG by qualified name, MEDIUM by the table name alone. */
  resolved: { datasetId: string; strength: MatchStrength }[];
}

/** What the SQL declarer recorded for a job's current statement. */
export interface SqlDeclarationRecord {
  status: SqlParseStatus;
  /** The grammar it was parsed with, null when none applied. */
  dialect: string | null;
  /** Where the dialect was read from ("sql facet dialect spark", "engine flink"). */
  dialectFrom: string;
  reason: SqlUnparsedReason | null;
  message: string | null;
  parsedAt: string;
  tables: DeclaredTableRecord[];
}
