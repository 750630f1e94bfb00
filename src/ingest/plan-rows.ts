/**
 * The shape of a projection plan (plan.ts builds it, compact.ts compacts it, ingestor.ts writes it):
 * flat row lists, one per Cypher write query. Every row carries the event's UTC `eventTime`; the
 * Cypher uses it to make the result independent of arrival order.
 */

/** One facet of one node (or edge) as of one event. Stored in the facetKeys/facetValues/facetTimes lists (merge-facets.cypher). */
export interface FacetRow {
  key: string;
  /** The facet's JSON; null when the event deletes it (`_deleted: true`). */
  value: string | null;
  at: string;
  /** Typed properties read from this facet (derive.ts); null values clear them. */
  derived: Record<string, unknown>;
}

export interface JobRow {
  id: string;
  namespace: string;
  name: string;
  eventTime: string;
  facets: FacetRow[];
  /** Set when the event reported inputs or outputs: the job's IO as of this time. */
  ioAt: string | null;
  /** Run node id of that report; null for a JobEvent (static lineage). */
  ioRunId: string | null;
  /** The engine (spark, flink, dbt, airflow, ...): jobType integration, else inferred from `producer`. */
  engine: string;
}

export interface DatasetRow {
  id: string;
  namespace: string;
  name: string;
  eventTime: string;
  facets: FacetRow[];
  /** `namespace|name` spellings normalised into this id (naming.ts). */
  rawNames: string[];
  /** Each step that changed one of them: JSON `{namespace, name, code, rule, message}` (normalisationEntry). */
  normalisations: string[];
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
  facets: FacetRow[];
  /** Signature of the job's sourceCode/sourceCodeLocation facets in this event (null: none). */
  codeSig: string | null;
}

export interface IoRow {
  /** Run node id, or null for a JobEvent (static lineage: job-level edge only). */
  runId: string | null;
  jobId: string;
  datasetId: string;
  /** False for an input implied only by column lineage (the event's `inputs` omit it). */
  declared: boolean;
  eventTime: string;
  /** inputFacets / outputFacets of the dataset in this run (stored on the run-level edge). */
  facets: FacetRow[];
  /**
   * What the run reported about the dataset, kept per run (on INPUT_TO / OUTPUT_TO) so that lineage
   * at a past time is exact (lineage diff, coverage of the latest run): the schema's field paths,
   * sorted; for outputs, the output fields its column lineage gives inputs to (sorted), whether it
   * names dataset-level dependencies (inputs affecting the whole output), and each column-lineage
   * pair as JSON `[inputFieldId, outputField or null]` (null: a dataset-level dependency), sorted.
   * Empty / false for inputs and for outputs without column lineage.
   */
  fields: string[];
  cllFields: string[];
  cllWhole: boolean;
  cllPairs: string[];
}

export interface ColumnEdgeRow {
  fromFieldId: string;
  /** An output field id (column lineage `fields`), or a dataset id (`dataset[]` dependencies). */
  toId: string;
  jobId: string;
  /** JSON array of the input field's transformations (spec 1-2-0), possibly synthesised from
   *  the deprecated transformationType/transformationDescription. */
  transformations: string;
  /** Distinct `type` and `subtype` values of those transformations, sorted. */
  types: string[];
  subtypes: string[];
  eventTime: string;
}

/** A symlinks facet identifier: `datasetId` is also known as `aliasId`. */
export interface SymlinkRow {
  datasetId: string;
  aliasId: string;
  type: string;
  eventTime: string;
  /** The stored event that declared it (null when planned without one). */
  eventId: string | null;
}

/** Parent run facet: `runId` is a child of `parentRunId` (of job `parentJobId`), root optional. */
export interface ParentRow {
  runId: string;
  parentRunId: string;
  parentJobId: string;
  parentJobNamespace: string;
  parentJobName: string;
  rootRunId: string | null;
  rootJobId: string | null;
  rootJobNamespace: string | null;
  rootJobName: string | null;
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
  datasetDependencies: ColumnEdgeRow[];
  symlinks: SymlinkRow[];
  parents: ParentRow[];
}

export function emptyPlan(): ProjectionPlan {
  return {
    jobs: [],
    datasets: [],
    fields: [],
    runs: [],
    inputs: [],
    outputs: [],
    columnEdges: [],
    datasetDependencies: [],
    symlinks: [],
    parents: [],
  };
}
