import { registerEnumType } from 'type-graphql';
import {
  BreakRole,
  Dependencies,
  Bucket,
  CoverageScope,
  Direction,
  EdgeType,
  EntityKind,
  Granularity,
  MatchStrength,
  SearchMatch,
  Side,
  TruncationReason,
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
registerEnumType(MatchStrength, {
  name: 'MatchStrength',
  description: 'How likely two break datasets name one dataset.',
  valuesConfig: {
    STRONG: { description: 'The last two name segments match.' },
    WEAK: { description: 'Only the last name segment matches.' },
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
