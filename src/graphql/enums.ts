import { registerEnumType } from 'type-graphql';
import {
  BreakRole,
  SqlParseStatus,
  SqlUnparsedReason,
  BrowseOrder,
  ChangeCause,
  Dependencies,
  DiffChangeKind,
  Bucket,
  CoverageScope,
  Direction,
  EdgeType,
  EntityKind,
  Granularity,
  IdentityRuleKind,
  IoDirection,
  MatchStrength,
  NameSource,
  NormalisationCode,
  SearchMatch,
  Side,
  StopReason,
  TruncationReason,
  EdgeEvidence,
  Evidence,
} from '../lineage/types';

/**
 * The vocabulary of src/lineage/types.ts, registered as GraphQL enums (the only place that does).
 * Importing this module once, before the schema is built, is enough.
 */

registerEnumType(Direction, {
  name: 'LineageDirection',
  description: 'Direction relative to data flow.',
  valuesConfig: {
    UPSTREAM: { description: 'Against data flow: what the start node is derived from.' },
    DOWNSTREAM: { description: 'With data flow: what is derived from the start node.' },
    BOTH: { description: 'UPSTREAM and DOWNSTREAM together; not an undirected walk, so siblings are excluded. Not for trace.' },
  },
});
registerEnumType(EntityKind, {
  name: 'EntityKind',
  description: 'Kind of a node.',
  valuesConfig: {
    DATASET: { description: 'A dataset.' },
    JOB: { description: 'A job.' },
    FIELD: { description: 'A field of a dataset.' },
    RUN: { description: 'A run of a job (node ids and lookups; lineage answers hold no runs).' },
  },
});
registerEnumType(Granularity, {
  name: 'Granularity',
  description: 'What a lineage graph is made of.',
  valuesConfig: {
    DATASET: { description: 'Datasets and jobs, joined by reads (FEEDS) and writes (PRODUCES).' },
    FIELD: { description: 'Fields, joined by column lineage (DERIVES) through jobs.' },
  },
});
registerEnumType(EdgeType, {
  name: 'LineageEdgeType',
  description: 'Data-flow edge of the lineage graph.',
  valuesConfig: {
    FEEDS: { description: 'dataset → job: the job reads the dataset.' },
    PRODUCES: { description: 'job → dataset: the job writes the dataset.' },
    ALIAS: { description: 'dataset — dataset: two names of one logical dataset (symlinks facet); costs no depth.' },
    DERIVES: { description: 'field → field: column lineage through a job (see jobId and transformation types).' },
    INFLUENCES: { description: 'field → field: an input field that affects every field of the job output (columnLineage `dataset[]`: filter, join, group-by keys); types INDIRECT.' },
  },
});
registerEnumType(Dependencies, {
  name: 'Dependencies',
  description: 'Which column dependencies a field-level walk follows.',
  valuesConfig: {
    DIRECT: { description: 'Only those the value comes from (DIRECT or untyped transformations).' },
    ALL: { description: 'Also INDIRECT ones that only shape the value: filter, join, group-by and sort keys, conditions (columnLineage `dataset[]` and INDIRECT transformations).' },
  },
});
registerEnumType(SearchMatch, {
  name: 'SearchMatch',
  description: 'How a search hit matches the text; hits are ranked in this order.',
  valuesConfig: {
    EXACT: { description: 'The whole name (case-insensitive).' },
    PREFIX: { description: 'The beginning of the name.' },
    SEGMENT: { description: 'A part of the name that starts after `.`, `/` or `:` (e.g. `paid_orders` in `shop.main.paid_orders`).' },
    WORD: { description: 'Words of the name (split also at `_` and `-`), the namespace or the description.' },
  },
});
registerEnumType(Side, {
  name: 'LineageSide',
  description: 'Which traversal reached a node; ROOT for the start node.',
  valuesConfig: {
    ROOT: { description: 'The start node.' },
    UPSTREAM: { description: 'Reached against data flow.' },
    DOWNSTREAM: { description: 'Reached with data flow.' },
  },
});
registerEnumType(TruncationReason, {
  name: 'TruncationReason',
  description: 'Why an answer is incomplete.',
  valuesConfig: {
    DEPTH: { description: 'Lineage continues beyond the traversed depth.' },
    NODE_LIMIT: { description: 'The server node limit (TRIBUTARY_MAX_NODES) was reached.' },
  },
});
registerEnumType(BrowseOrder, {
  name: 'BrowseOrder',
  description: 'Order of a browse list.',
  valuesConfig: {
    NAME: { description: 'Namespace, then name (as their ids sort).' },
    LAST_SEEN: { description: 'Most recently seen first (the latest event that named it), then by id.' },
  },
});
registerEnumType(MatchStrength, {
  name: 'MatchStrength',
  description: 'How likely a read-never-written dataset and a written one name one dataset.',
  valuesConfig: {
    STRONG: { description: 'Same Kafka topic on brokers of one domain or naming pattern, or the same table name with matching schema fields.' },
    MEDIUM: { description: 'The same schema.table (or topic) under other namespaces, no schemas to compare.' },
    WEAK: { description: 'Only the last name segment matches, or the schemas disagree.' },
  },
});
registerEnumType(StopReason, {
  name: 'StopReason',
  description: 'Why a trace stops at a dataset.',
  valuesConfig: {
    ORIGIN: { description: 'Upstream: read, and written by no job Tributary knows, nothing suggesting one: where data enters (a source system, or a producer without OpenLineage).' },
    END: { description: 'Downstream: nothing Tributary knows reads it (or its readers send no OpenLineage, such as Kafka Connect sink connectors).' },
    OTHER_NAME: { description: 'Probably another name of a dataset lineage continues from; the candidate rule joins them.' },
    UNREPORTED_WRITER: { description: 'A job that reads and reports no output probably writes it (its SQL or name says so); its producer does not report that output.' },
    UNREPORTED_READER: { description: "Downstream: a job's SQL reads it (DECLARED) though its events do not list it; its producer does not report that input." },
    METADATA_COLUMN: {
      description: "Upstream: the fields come from metadata columns of a table format (Iceberg's _file, _pos, ...; the candidates), which a trace leaves out unless metadataColumns is true.",
    },
  },
});
registerEnumType(NormalisationCode, {
  name: 'NormalisationCode',
  description: "Why a dataset's spelling changed on its way to its id: built-in naming rules, then identity rules.",
  valuesConfig: {
    SCHEME_CASE: { description: 'The URI scheme is lower-cased.' },
    HADOOP_S3_SCHEME: { description: 's3a:// and s3n:// (Hadoop connectors) are s3://.' },
    HOST_CASE: { description: 'A URI host is lower-cased.' },
    KAFKA_PROTOCOL: { description: 'PLAINTEXT://, SASL_SSL://, ... dropped from Kafka bootstrap servers.' },
    KAFKA_HOST_CASE: { description: 'A Kafka broker host lower-cased.' },
    KAFKA_BROKER_LIST: { description: 'A bootstrap list of brokers named by its lowest host:port.' },
    TRAILING_SLASH: { description: 'A trailing / dropped from a namespace or a name.' },
    WHITESPACE: { description: "Leading or trailing white space dropped from a dataset's namespace or name." },
    RULE_KAFKA_CLUSTER: { description: "Identity rule: a broker of a declared Kafka cluster; the cluster's namespace is used." },
    RULE_NAMESPACE_ALIAS: { description: "Identity rule: one namespace declared another's alias." },
    RULE_DATASET_ALIAS: { description: "Identity rule: one dataset declared another's alias." },
  },
});
registerEnumType(IdentityRuleKind, {
  name: 'IdentityRuleKind',
  description: 'The kinds of identity rule a steward declares in the TRIBUTARY_IDENTITY_RULES file.',
  valuesConfig: {
    KAFKA_CLUSTER: { description: 'kafkaClusters: brokers (or a host pattern) of one cluster, named by one namespace.' },
    NAMESPACE_ALIAS: { description: 'namespaceAliases: datasets of one namespace are those of another.' },
    DATASET_ALIAS: { description: 'datasetAliases: one dataset is another.' },
  },
});
registerEnumType(NameSource, {
  name: 'NameSource',
  description: 'How a dataset is known by a name.',
  valuesConfig: {
    CANONICAL: { description: 'The name of the node itself.' },
    RAW: { description: 'A spelling some producer sent that normalisation or a rule turned into the canonical name.' },
    SYMLINK: { description: 'Another dataset node that a symlinks facet declares the same dataset.' },
  },
});
registerEnumType(BreakRole, {
  name: 'BreakRole',
  description: 'Why a dataset is a lineage break.',
  valuesConfig: {
    SOURCE: { description: 'Read by some job, written by no known job: lineage starts here.' },
    SINK: { description: 'Written by some job, read by no known job: lineage ends here.' },
  },
});
registerEnumType(CoverageScope, {
  name: 'CoverageScope',
  description: 'Which jobs a coverage figure is about.',
  valuesConfig: {
    ALL: { description: 'Every job.' },
    NAMESPACE: { description: 'The jobs of one namespace (value: the namespace).' },
    JOB: { description: 'One job (value: its id).' },
    ENGINE: { description: 'The jobs of one engine or integration (value: spark, flink, dbt, airflow, ...).' },
  },
});
registerEnumType(Bucket, {
  name: 'TrendBucket',
  description: 'Width of a trend bucket (UTC; weeks start on Monday).',
  valuesConfig: { DAY: { description: 'One day.' }, WEEK: { description: 'One week.' }, MONTH: { description: 'One calendar month.' } },
});
registerEnumType(DiffChangeKind, {
  name: 'LineageChangeKind',
  description: 'What changed in a lineage diff.',
  valuesConfig: {
    GRANULARITY_REGRESSED: { description: 'A job → output edge had column lineage at `from`, dataset-level lineage only at `to`.' },
    GRANULARITY_IMPROVED: { description: 'A job → output edge went from dataset level only to column level.' },
    JOB_APPEARED: { description: 'A job with lineage at `to`, none at `from`.' },
    JOB_DISAPPEARED: { description: 'A job with lineage at `from`, none at `to`.' },
    DATASET_APPEARED: { description: 'A dataset read or written by the scope\'s jobs at `to`, not at `from`.' },
    DATASET_DISAPPEARED: { description: 'A dataset read or written at `from`, not at `to`.' },
    EDGE_APPEARED: { description: 'A job started reading (INPUT) or writing (OUTPUT) a dataset.' },
    EDGE_DISAPPEARED: { description: 'A job stopped reading or writing a dataset.' },
    FIELD_APPEARED: { description: 'A field in the schema reported for a dataset present at both times.' },
    FIELD_DISAPPEARED: { description: 'A field no longer in the schema reported for a dataset present at both times.' },
    FIELD_EDGE_APPEARED: { description: 'A column-lineage edge (input field → output field or the whole output) of an output edge present at both times.' },
    FIELD_EDGE_DISAPPEARED: { description: 'A column-lineage edge no longer reported.' },
  },
});
registerEnumType(IoDirection, {
  name: 'IoDirection',
  description: 'Whether a job reads (INPUT) or writes (OUTPUT) a dataset.',
  valuesConfig: { INPUT: { description: 'The job reads the dataset.' }, OUTPUT: { description: 'The job writes the dataset.' } },
});
registerEnumType(EdgeEvidence, {
  name: 'EdgeEvidence',
  description: 'What an edge of a walk rests on.',
  valuesConfig: {
    REPORTED: { description: "A producer's events report it." },
    COLLECTED: { description: 'Tributary collected it where no producer reports (the Kafka Connect collector; Job.collectedBy).' },
    DECLARED: { description: "The job's SQL statement names the table and its events do not (Job.sqlDeclaration; `declared` gives where)." },
  },
});
registerEnumType(Evidence, {
  name: 'Evidence',
  description: 'Which evidence a walk follows.',
  valuesConfig: {
    REPORTED: { description: 'Only what producers report (the default).' },
    ALL: { description: "Also what Tributary collected (Kafka Connect connectors) and what jobs' SQL declares (DECLARED: STRONG resolutions, current lineage only)." },
  },
});
registerEnumType(SqlParseStatus, {
  name: 'SqlParseStatus',
  description: "What the SQL declarer made of a job's statement (sql job facet).",
  valuesConfig: { PARSED: { description: 'Parsed: its tables are declared lineage.' }, UNPARSED: { description: 'Not parsed, for the reason given; nothing is guessed from it.' } },
});
registerEnumType(SqlUnparsedReason, {
  name: 'SqlUnparsedReason',
  description: 'Why a statement was not parsed.',
  valuesConfig: {
    TOO_LARGE: { description: 'Longer than the parser takes (256 KiB).' },
    TOO_DEEP: { description: 'Brackets nested deeper than the parser takes (100).' },
    UNKNOWN_DIALECT: { description: 'A dialect the parser has no grammar for (dbt on DuckDB, BigQuery, ...), or none said.' },
    SYNTAX: { description: "The grammar of its dialect rejects it; the message gives the parser's first error." },
    TIMEOUT: { description: 'Not parsed within the time limit (TRIBUTARY_SQL_PARSE_TIMEOUT_MS).' },
    FAILED: { description: 'The parser failed or died on it.' },
  },
});
registerEnumType(ChangeCause, {
  name: 'ChangeCause',
  description: 'The likely cause of a granularity change, from the two runs that decided it.',
  valuesConfig: {
    PRODUCER_CHANGED: { description: 'Another integration produced the events.' },
    PRODUCER_VERSION_CHANGED: { description: 'The same integration at another version (producer URI or openlineageAdapterVersion).' },
    ENGINE_VERSION_CHANGED: { description: 'The processing engine\'s name or version changed.' },
    JOB_CODE_CHANGED: { description: 'The job\'s source code changed.' },
    UNKNOWN: { description: 'Nothing the events carry differs between the two runs.' },
  },
});
