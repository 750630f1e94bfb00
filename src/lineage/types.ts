/**
 * Domain types of the lineage read side. Free of GraphQL: src/graphql maps them to its types.
 * Times are ISO-8601 UTC strings (event time, not ingestion time).
 */

/** Direction relative to data flow. */
export enum Direction {
  /** Against data flow: what the start node is derived from. */
  UPSTREAM = 'UPSTREAM',
  /** With data flow: what is derived from the start node. */
  DOWNSTREAM = 'DOWNSTREAM',
  /** The union of UPSTREAM and DOWNSTREAM (not an undirected walk: siblings are not included). */
  BOTH = 'BOTH',
}

/** One way along data flow: what a single traversal follows (BOTH is two traversals). */
export type FlowDirection = Direction.UPSTREAM | Direction.DOWNSTREAM;

/**
 * Kind of a node. Lineage answers hold DATASET, JOB and FIELD nodes; RUN exists for ids
 * (`run:<uuid>`) and lookups. src/ids.ts maps each kind to its id prefix.
 */
export enum EntityKind {
  DATASET = 'DATASET',
  JOB = 'JOB',
  FIELD = 'FIELD',
  RUN = 'RUN',
}

export enum Granularity {
  /** Datasets and jobs, joined by reads and writes. */
  DATASET = 'DATASET',
  /** Fields, joined by column lineage through jobs. */
  FIELD = 'FIELD',
}

/**
 * Edges of the lineage graph, in data-flow direction. The traversal engine takes the set of kinds
 * to follow (src/lineage/traversal.ts); which kinds a step query can follow is in its header.
 */
export enum EdgeType {
  /** dataset → job: the job reads the dataset. */
  FEEDS = 'FEEDS',
  /** job → dataset: the job writes the dataset. */
  PRODUCES = 'PRODUCES',
  /** dataset — dataset: two names of one logical dataset (symlinks facet); not a hop. */
  ALIAS = 'ALIAS',
  /** field → field: column lineage through a job. */
  DERIVES = 'DERIVES',
  /**
   * An input field that affects the whole output of a job (columnLineage `dataset[]`: filter, join,
   * group-by and sort keys; types INDIRECT). Stored field → dataset; read as field → every field of
   * that dataset.
   */
  INFLUENCES = 'INFLUENCES',
}

/** What an edge of a walk rests on. */
export enum EdgeEvidence {
  /** A producer's events report it. */
  REPORTED = 'REPORTED',
  /** Tributary collected it where no producer reports (the Kafka Connect collector: Job.collectedBy). */
  COLLECTED = 'COLLECTED',
  /** A job's SQL statement names the table, its events do not (the SQL declarer: Job.sqlDeclaration). */
  DECLARED = 'DECLARED',
}

/** Which evidence a trace or lineage request follows. */
export enum Evidence {
  /** Only what producers report (the default). */
  REPORTED = 'REPORTED',
  /** Also what Tributary collected and what jobs' SQL declares (STRONG resolutions only, current lineage only). */
  ALL = 'ALL',
}

/** The edge evidence a request follows. */
export const followedEvidence = (e: Evidence): EdgeEvidence[] =>
  e === Evidence.ALL ? [EdgeEvidence.REPORTED, EdgeEvidence.COLLECTED, EdgeEvidence.DECLARED] : [EdgeEvidence.REPORTED];

/** How a search hit's name matches the text asked for; hits are ranked in this order. */
export enum SearchMatch {
  /** The whole name (case-insensitive). */
  EXACT = 'EXACT',
  /** The beginning of the name. */
  PREFIX = 'PREFIX',
  /** A segment of the name between `.`, `/` and `:` (or a run of them), or its beginning. */
  SEGMENT = 'SEGMENT',
  /** Words of the name (split also at `_` and `-`), or the namespace or description. */
  WORD = 'WORD',
}

/** Which column dependencies a field-level walk follows. */
export enum Dependencies {
  /** Only DIRECT ones: the value comes from the input (DERIVES edges with a DIRECT or untyped transformation). */
  DIRECT = 'DIRECT',
  /** DIRECT and INDIRECT ones: also inputs that only shape the value (filters, joins, group-by keys, conditions). */
  ALL = 'ALL',
}

/** Which traversal reached a node; ROOT for the start node. */
export enum Side {
  ROOT = 'ROOT',
  UPSTREAM = 'UPSTREAM',
  DOWNSTREAM = 'DOWNSTREAM',
}

/** Why an answer is incomplete. */
export enum TruncationReason {
  /** Lineage continues beyond the traversed depth. */
  DEPTH = 'DEPTH',
  /** The server node limit (TRIBUTARY_MAX_NODES, or a per-hop row bound) was reached. */
  NODE_LIMIT = 'NODE_LIMIT',
}

/** How likely a read-never-written dataset and a written one name one dataset. */
export enum MatchStrength {
  /** Same Kafka topic on brokers of one domain or naming pattern, or the same table name with
   *  matching schema fields. */
  STRONG = 'STRONG',
  /** The same schema.table (or topic) under other namespaces, no schema to compare. */
  MEDIUM = 'MEDIUM',
  /** Only the last name segment matches, or the schemas disagree. */
  WEAK = 'WEAK',
}

/**
 * Why a dataset's spelling changed on its way to its id (src/ingest/naming.ts). Built-in rules of
 * the OpenLineage naming spec first, then the steward's identity rules (src/ingest/identity-rules.ts).
 */
export enum NormalisationCode {
  /** The URI scheme is lower-cased. */
  SCHEME_CASE = 'SCHEME_CASE',
  /** `s3a://` / `s3n://` (Hadoop connectors) are `s3://`. */
  HADOOP_S3_SCHEME = 'HADOOP_S3_SCHEME',
  /** A URI host is lower-cased. */
  HOST_CASE = 'HOST_CASE',
  /** `PLAINTEXT://`, `SASL_SSL://`, ... dropped from Kafka bootstrap servers. */
  KAFKA_PROTOCOL = 'KAFKA_PROTOCOL',
  /** A Kafka broker host lower-cased. */
  KAFKA_HOST_CASE = 'KAFKA_HOST_CASE',
  /** A bootstrap list of brokers named by its lowest host:port. */
  KAFKA_BROKER_LIST = 'KAFKA_BROKER_LIST',
  /** A trailing `/` dropped from a namespace or a name. */
  TRAILING_SLASH = 'TRAILING_SLASH',
  /** Leading or trailing white space dropped from a dataset's namespace or name. */
  WHITESPACE = 'WHITESPACE',
  /** Identity rule: a broker of a declared Kafka cluster; the cluster's namespace is used. */
  RULE_KAFKA_CLUSTER = 'RULE_KAFKA_CLUSTER',
  /** Identity rule: one namespace declared another's alias. */
  RULE_NAMESPACE_ALIAS = 'RULE_NAMESPACE_ALIAS',
  /** Identity rule: one dataset declared another's alias. */
  RULE_DATASET_ALIAS = 'RULE_DATASET_ALIAS',
}

/** The kinds of identity rule a steward declares (TRIBUTARY_IDENTITY_RULES). */
export enum IdentityRuleKind {
  KAFKA_CLUSTER = 'KAFKA_CLUSTER',
  NAMESPACE_ALIAS = 'NAMESPACE_ALIAS',
  DATASET_ALIAS = 'DATASET_ALIAS',
}

/** How a dataset is known by a name (identity query). */
export enum NameSource {
  /** The name of the node itself, as stored. */
  CANONICAL = 'CANONICAL',
  /** A spelling some producer sent that normalisation or a rule turned into the canonical name. */
  RAW = 'RAW',
  /** Another dataset node that a symlinks facet declares the same dataset. */
  SYMLINK = 'SYMLINK',
}

/** Why a dataset is a lineage break. */
export enum BreakRole {
  /** Read by some job, written by no known job: lineage starts here. */
  SOURCE = 'SOURCE',
  /** Written by some job, read by no known job: lineage ends here. */
  SINK = 'SINK',
}

/** Why a trace stops at a dataset (src/lineage/stops-service.ts). */
export enum StopReason {
  /** Upstream: read, and written by no job Tributary knows, nothing suggesting one: where data enters (a source system, or a producer without OpenLineage). */
  ORIGIN = 'ORIGIN',
  /** Downstream: nothing Tributary knows reads it: where lineage ends (or a reader without OpenLineage, such as a Kafka Connect sink). */
  END = 'END',
  /** The dataset is probably (STRONG evidence) another name of one that lineage continues from (a lineageBreaks match); an identity rule would join them. */
  OTHER_NAME = 'OTHER_NAME',
  /** A job that reads and reports no output probably writes it (its SQL or its name says so): its producer does not report that output. */
  UNREPORTED_WRITER = 'UNREPORTED_WRITER',
  /** Downstream: a job's SQL reads it (DECLARED), though the job's events do not list it: its producer does not report that input. */
  UNREPORTED_READER = 'UNREPORTED_READER',
  /** Upstream: the fields come from metadata columns of a table format (Iceberg's _file, _pos, ...), which traces leave out unless asked (metadataColumns). */
  METADATA_COLUMN = 'METADATA_COLUMN',
}

/** Which jobs a coverage figure is about. */
export enum CoverageScope {
  ALL = 'ALL',
  NAMESPACE = 'NAMESPACE',
  JOB = 'JOB',
  ENGINE = 'ENGINE',
}

/**
 * What changed in a scope's lineage between two times (lineage diff). Listed in this order:
 * granularity changes first (what a steward acts on), then nodes, edges, fields, field edges.
 */
export enum DiffChangeKind {
  /** A job → output edge had column lineage at `from` and dataset-level lineage only at `to`. */
  GRANULARITY_REGRESSED = 'GRANULARITY_REGRESSED',
  /** A job → output edge went from dataset level only to column level. */
  GRANULARITY_IMPROVED = 'GRANULARITY_IMPROVED',
  JOB_APPEARED = 'JOB_APPEARED',
  JOB_DISAPPEARED = 'JOB_DISAPPEARED',
  DATASET_APPEARED = 'DATASET_APPEARED',
  DATASET_DISAPPEARED = 'DATASET_DISAPPEARED',
  /** A job started reading (INPUT) or writing (OUTPUT) a dataset. */
  EDGE_APPEARED = 'EDGE_APPEARED',
  EDGE_DISAPPEARED = 'EDGE_DISAPPEARED',
  /** A field of a dataset present at both times (as its jobs' runs reported its schema). */
  FIELD_APPEARED = 'FIELD_APPEARED',
  FIELD_DISAPPEARED = 'FIELD_DISAPPEARED',
  /** A column-lineage edge (input field → output field, or → the whole output) of an output edge present at both times. */
  FIELD_EDGE_APPEARED = 'FIELD_EDGE_APPEARED',
  FIELD_EDGE_DISAPPEARED = 'FIELD_EDGE_DISAPPEARED',
}

/** Read or write: which way a job's edge to a dataset goes. */
export enum IoDirection {
  INPUT = 'INPUT',
  OUTPUT = 'OUTPUT',
}

/** What the SQL declarer made of a job's statement (src/sql/declarer.ts). */
export enum SqlParseStatus {
  PARSED = 'PARSED',
  /** Not parsed, for the reason given: nothing is guessed from it. */
  UNPARSED = 'UNPARSED',
}

/** Why a statement was not parsed (src/sql/declared-tables.ts). */
export enum SqlUnparsedReason {
  /** Longer than the parser takes (256 KiB). */
  TOO_LARGE = 'TOO_LARGE',
  /** Brackets nested deeper than the parser takes (100). */
  TOO_DEEP = 'TOO_DEEP',
  /** A dialect the parser has no grammar for (dbt on DuckDB, BigQuery, ...), or none said. */
  UNKNOWN_DIALECT = 'UNKNOWN_DIALECT',
  /** The grammar of its dialect rejects it; the message gives the parser's first error. */
  SYNTAX = 'SYNTAX',
  /** Not parsed within the time limit. */
  TIMEOUT = 'TIMEOUT',
  /** The parser failed or died on it. */
  FAILED = 'FAILED',
}

/**
 * The likely cause of a granularity change, from the two runs that decided it (what their events
 * say about who produced them), first that applies.
 */
export enum ChangeCause {
  /** Another integration produced the events (producer URI differs beyond its version). */
  PRODUCER_CHANGED = 'PRODUCER_CHANGED',
  /** The same integration at another version (producer URI version or processing_engine openlineageAdapterVersion). */
  PRODUCER_VERSION_CHANGED = 'PRODUCER_VERSION_CHANGED',
  /** The processing engine's version changed (processing_engine facet). */
  ENGINE_VERSION_CHANGED = 'ENGINE_VERSION_CHANGED',
  /** The job's source code changed (sourceCode / sourceCodeLocation facets). */
  JOB_CODE_CHANGED = 'JOB_CODE_CHANGED',
  /** Nothing the events carry differs between the two runs. */
  UNKNOWN = 'UNKNOWN',
}

/** Width of a trend bucket (UTC; weeks start on Monday). */
export enum Bucket {
  DAY = 'DAY',
  WEEK = 'WEEK',
  MONTH = 'MONTH',
}

/** Orders of the browse lists (datasets, jobs). */
export enum BrowseOrder {
  /** Namespace, then name, in the order of their ids. */
  NAME = 'NAME',
  /** Most recently seen first (then by id). */
  LAST_SEEN = 'LAST_SEEN',
}

/** A namespace and what it holds. */
export interface NamespaceRecord {
  name: string;
  datasets: number;
  jobs: number;
}

export interface EntityRef {
  id: string;
  kind: EntityKind;
  namespace: string;
  name: string;
  /** For fields: the dataset they belong to. */
  datasetId?: string | null;
}

export interface LineageNode extends EntityRef {
  /** Hops from the start node along the traversal (0 for the start node). */
  distance: number;
  /** Which traversal reached it first; the start node is on both. */
  side: Side;
}

export interface LineageEdge {
  /** Data-flow direction: `from` is read or written by `to`'s side of the flow. */
  fromId: string;
  toId: string;
  type: EdgeType;
  firstSeen: string | null;
  lastSeen: string | null;
  /** False for a read implied only by column lineage (no event listed the dataset in `inputs`). */
  declared: boolean;
  /** False for an edge of the job's past IO (only returned with asOf). */
  current: boolean;
  /** DERIVES: the job, and the transformation types and subtypes of the column lineage. */
  jobId?: string | null;
  types?: string[] | null;
  subtypes?: string[] | null;
  /**
   * PRODUCES: the coverage figures of this job → output edge (as coverage counts them): the output's
   * fields, and how many of them have an input field through this job. Null on other edges and on
   * edges written before the figures were kept (reproject).
   */
  outputFields?: number | null;
  fieldsWithInputs?: number | null;
  /** What the edge rests on (dataset granularity; FIELD edges are REPORTED). */
  evidence: EdgeEvidence;
  /** DECLARED edges: the table as the job's statement names it, and where. */
  statement: DeclaredRef | null;
}

/** A table named in a job's SQL statement, and where: the evidence of a DECLARED edge or hop. */
export interface DeclaredRef {
  role: IoDirection;
  name: string;
  /** 1-based line, 0-based column. */
  line: number;
  column: number;
}

export interface LineageOptions {
  granularity: Granularity;
  /** FIELD granularity: which column dependencies to follow (default ALL). */
  dependencies?: Dependencies;
  /** FIELD granularity: also metadata columns of table formats (lineage/metadata-columns.ts; default false). */
  metadataColumns?: boolean;
  /** ISO time: lineage as it stood then; absent: current lineage. */
  asOf?: string | null;
  /** DATASET granularity: which evidence to follow (default REPORTED). */
  evidence?: Evidence;
}

export interface LineageGraph {
  root: EntityRef;
  direction: Direction;
  granularity: Granularity;
  asOf: string | null;
  requestedDepth: number;
  /** The depth actually traversed: min(requested, configured maximum). */
  depth: number;
  /** The start node first, then by distance, then id. */
  nodes: LineageNode[];
  /** Edges between returned nodes, ordered by fromId, toId (then type and jobId). */
  edges: LineageEdge[];
  /** True when lineage continues beyond what is returned (depth or node limit). */
  truncated: boolean;
  /** Why it was truncated: DEPTH (more beyond `depth`) and/or NODE_LIMIT. Empty when complete. */
  truncatedBy: TruncationReason[];
}

// The node records (what a lookup of a dataset, field, job, run or job version answers) live in records.ts.
export type { Facets, DatasetRecord, FieldRecord, JobRecord, RunRecord, JobVersionRecord, SqlDeclarationRecord, DeclaredTableRecord } from './records';
