import { GraphQLJSON } from 'graphql-scalars';
import { Field, ID, Int, InterfaceType, ObjectType } from 'type-graphql';
import { kindOf } from '../../ids';
import { EntityKind } from '../../lineage/types';
import type { Facets, DatasetRecord, FieldRecord, JobRecord, JobVersionRecord, RunRecord } from '../../lineage/types';
import { PageInfo } from '../paging';

/**
 * Catalog entities. Ids follow src/ids.ts (`dataset:<ns>:<name>`, `job:<ns>:<name>`,
 * `datasetField:<ns>:<name>:<field>`, `run:<uuid>`; ':' inside a component written %3A).
 * Times are ISO-8601 UTC event times (when producers say it happened, not when it was received).
 */

/** GraphQL type name of each kind of id (`node(id)` answers one of these). */
const TYPE_OF_KIND: Record<EntityKind, string> = {
  [EntityKind.DATASET]: 'Dataset',
  [EntityKind.JOB]: 'Job',
  [EntityKind.RUN]: 'Run',
  [EntityKind.FIELD]: 'DatasetField',
};

@InterfaceType({
  description: 'Anything with a global id (Relay): a dataset, a job, a run or a dataset field; `node(id)` fetches any of them.',
  resolveType: (value: { id: string }) => {
    const kind = kindOf(value.id);
    return kind ? TYPE_OF_KIND[kind] : undefined;
  },
})
export abstract class Node {
  @Field(() => ID, { description: 'The global id (dataset:…, job:…, datasetField:…, run:…).' })
  id!: string;
}

@ObjectType({ implements: Node, description: 'A dataset (table, topic, file set) identified by OpenLineage namespace and name.' })
export class Dataset implements DatasetRecord {
  @Field(() => ID, { description: 'dataset:<namespace>:<name>, with ":" inside a component written %3A.' })
  id!: string;

  @Field(() => String, { description: 'OpenLineage dataset namespace, e.g. postgres://db:5432 or kafka://broker:9092.' })
  namespace!: string;

  @Field(() => String, { description: 'OpenLineage dataset name within the namespace.' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'From the documentation facet.' })
  description!: string | null;

  @Field(() => [String], { nullable: true, description: 'Owner names from the ownership facet.' })
  owners!: string[] | null;

  @Field(() => String, { nullable: true, description: 'dataSource facet: name.' })
  sourceName!: string | null;

  @Field(() => String, { nullable: true, description: 'dataSource facet: URI.' })
  sourceUri!: string | null;

  @Field(() => String, { nullable: true, description: 'lifecycleStateChange facet: CREATE, OVERWRITE, DROP, RENAME, ...' })
  lifecycleState!: string | null;

  @Field(() => String, { nullable: true, description: 'storage facet: storage layer (iceberg, delta, ...).' })
  storageLayer!: string | null;

  @Field(() => String, { nullable: true, description: 'storage facet: file format (parquet, orc, ...).' })
  fileFormat!: string | null;

  @Field(() => String, { nullable: true, description: 'version facet: dataset version.' })
  datasetVersion!: string | null;

  @Field(() => String, { nullable: true, description: 'datasetType facet: TABLE, VIEW, TOPIC, FILE, MODEL, ...' })
  datasetType!: string | null;

  @Field(() => [String], {
    description: 'Original "namespace|name" spellings that name normalisation turned into this id (empty when none).',
  })
  rawNames!: string[];

  @Field(() => [String], { description: 'Why each of those spellings was normalised.' })
  normalisations!: string[];

  @Field(() => GraphQLJSON, {
    description: 'All facets by key, each from the latest event that sent it (unknown facets included).',
  })
  facets!: Facets;

  @Field(() => String, { nullable: true, description: 'Earliest event time that mentioned the dataset.' })
  firstSeen!: string | null;

  @Field(() => String, { nullable: true, description: 'Latest event time that mentioned the dataset.' })
  lastSeen!: string | null;
  @Field(() => [String], { description: "Tags put on it through Marquez's API (POST …/tags/{tag}: src/marquez), in name order." })
  tags!: string[];

  @Field(() => String, { nullable: true, description: "When it was deleted through Marquez's API (a soft delete: Marquez's lists leave it out), while no event has named it since; null otherwise. Lineage still follows it." })
  hiddenAt!: string | null;
}

@ObjectType({ implements: Node, description: 'A column of a dataset, from its schema facet or named by column lineage.' })
export class DatasetField implements FieldRecord {
  @Field(() => ID, { description: 'datasetField:<namespace>:<datasetName>:<fieldPath>.' })
  id!: string;

  @Field(() => String, { description: 'Field path; nested schema fields are dotted (address.city).' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Type from the latest schema facet; null when only column lineage names the field.' })
  type!: string | null;

  @Field(() => String, { nullable: true, description: 'Description from the latest schema facet.' })
  description!: string | null;

  datasetId!: string;
  @Field(() => [String], { description: "Tags put on it through Marquez's API (POST …/tags/{tag}: src/marquez), in name order." })
  tags!: string[];
}

@ObjectType({ implements: Node, description: 'A job (Spark application, dbt model, Airflow task, Flink job, ...).' })
export class Job implements JobRecord {
  @Field(() => ID, { description: 'job:<namespace>:<name>, with ":" inside a component written %3A.' })
  id!: string;

  @Field(() => String, { description: 'OpenLineage job namespace (usually the scheduler or engine instance).' })
  namespace!: string;

  @Field(() => String, { description: 'OpenLineage job name within the namespace.' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'From the documentation job facet.' })
  description!: string | null;

  @Field(() => String, { nullable: true, description: 'jobType facet: integration (SPARK, DBT, FLINK, AIRFLOW, ...).' })
  integration!: string | null;

  @Field(() => String, { nullable: true, description: 'jobType facet: BATCH or STREAMING.' })
  processingType!: string | null;

  @Field(() => String, { nullable: true, description: 'jobType facet: QUERY, MODEL, TASK, DAG, ...' })
  jobType!: string | null;

  @Field(() => [String], { nullable: true, description: 'Owner names from the ownership job facet.' })
  owners!: string[] | null;

  @Field(() => String, { nullable: true, description: 'sql facet: the query.' })
  sql!: string | null;

  @Field(() => String, { nullable: true, description: 'sourceCodeLocation facet: URL.' })
  sourceCodeUrl!: string | null;

  @Field(() => String, { nullable: true, description: 'sourceCode facet: language (python, sql, ...).' })
  sourceCodeLanguage!: string | null;

  @Field(() => String, { nullable: true, description: 'Event time of the latest report of the job\'s inputs and outputs: its current IO is as of then.' })
  ioAt!: string | null;

  @Field(() => String, { nullable: true, description: 'When the job stopped running (its Kafka Connect connector was deleted): none of its inputs and outputs is current lineage since.' })
  retiredAt!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'The Tributary collector that made its lineage (kafka-connect: read from the Connect REST API), null when a producer reports it. Coverage counts such edges apart (collectedEdges).',
  })
  collectedBy!: string | null;

  @Field(() => String, { nullable: true, description: 'Why nobody reports its lineage (a connector class Tributary does not map), when nobody does; listed in coverageGaps.lineageUnknown.' })
  lineageUnknown!: string | null;

  @Field(() => GraphQLJSON, { description: 'All job facets by key, each from the latest event that sent it.' })
  facets!: Facets;

  @Field(() => String, { nullable: true, description: 'Earliest event time of any event of the job.' })
  firstSeen!: string | null;

  @Field(() => String, { nullable: true, description: 'Latest event time of any event of the job.' })
  lastSeen!: string | null;

  @Field(() => [String], { description: "Tags put on it through Marquez's API (POST …/tags/{tag}: src/marquez), in name order." })
  tags!: string[];

  @Field(() => String, { nullable: true, description: "When it was deleted through Marquez's API (a soft delete: Marquez's lists leave it out), while no event has named it since; null otherwise. Lineage still follows it." })
  hiddenAt!: string | null;
}

@ObjectType({ implements: Node, description: 'One run of a job: all events with the same runId, merged.' })
export class Run implements RunRecord {
  @Field(() => ID, { description: 'run:<uuid>.' })
  id!: string;

  @Field(() => String, { description: 'The OpenLineage runId (UUID).' })
  runId!: string;

  @Field(() => String, {
    nullable: true,
    description:
      'START, RUNNING, COMPLETE, FAIL, ABORT or OTHER. Terminal states are sticky: a late START or RUNNING never reopens a finished run. Null when no event carried an eventType.',
  })
  state!: string | null;

  @Field(() => String, { nullable: true, description: 'Event time of the earliest START event.' })
  startedAt!: string | null;

  @Field(() => String, { nullable: true, description: 'Event time of the terminal event (COMPLETE, FAIL, ABORT).' })
  endedAt!: string | null;

  @Field(() => String, { nullable: true, description: 'nominalTime facet: scheduled start.' })
  nominalStartTime!: string | null;

  @Field(() => String, { nullable: true, description: 'nominalTime facet: scheduled end.' })
  nominalEndTime!: string | null;

  @Field(() => String, { nullable: true, description: 'externalQuery facet: the query id in the external system (e.g. a warehouse query id).' })
  externalQueryId!: string | null;

  @Field(() => String, { nullable: true, description: 'processing_engine facet: engine name (spark, flink, ...).' })
  engineName!: string | null;

  @Field(() => String, { nullable: true, description: 'processing_engine facet: engine version.' })
  engineVersion!: string | null;

  @Field(() => String, { nullable: true, description: 'errorMessage facet: the message of a failed run.' })
  errorMessage!: string | null;

  @Field(() => GraphQLJSON, { description: 'All run facets by key, each from the latest event that sent it.' })
  facets!: Facets;

  // Read by field resolvers (parent, root, version, job) and by the run state logic, not exposed as such.
  stateAt!: string | null;
  firstSeen!: string | null;
  lastSeen!: string | null;
  parentRunId!: string | null;
  rootRunId!: string | null;
  versionId!: string | null;
  jobId!: string;
}

@ObjectType({ description: 'One version of a job: a distinct combination of inputs, outputs and source code across its runs.' })
export class JobVersion implements JobVersionRecord {
  @Field(() => ID, { description: 'Job id, "#", and a hash of inputs, outputs and source code.' })
  id!: string;

  @Field(() => [ID], { description: 'Dataset ids the runs of this version read, sorted.' })
  inputs!: string[];

  @Field(() => [ID], { description: 'Dataset ids the runs of this version wrote, sorted.' })
  outputs!: string[];

  @Field(() => String, { nullable: true, description: 'Hash of the sourceCode/sourceCodeLocation facets; null when none was sent.' })
  codeSig!: string | null;

  @Field(() => String, { nullable: true, description: 'Earliest event time of its runs.' })
  firstSeen!: string | null;

  @Field(() => String, { nullable: true, description: 'Latest event time of its runs.' })
  lastSeen!: string | null;

  @Field(() => Int, { description: 'How many runs had this version.' })
  runs!: number;
}

@ObjectType({ description: 'A run and the dataset through which it is linked to another run.' })
export class RunLink {
  @Field(() => ID, { description: 'The dataset written by one run and read by the other.' })
  datasetId!: string;

  @Field(() => ID, { description: 'The other run.' })
  runId!: string;
}

@ObjectType({ description: 'One page of runs.' })
export class RunPage {
  @Field(() => Int, { description: 'Runs matching the filters in all.' })
  total!: number;

  @Field(() => [Run], { description: 'This page, newest first.' })
  items!: Run[];

  @Field(() => PageInfo, { description: 'Paging.' })
  pageInfo!: PageInfo;

  @Field(() => String, { nullable: true, description: 'Pass as `after` to get the next page.', deprecationReason: 'Use pageInfo.endCursor.' })
  endCursor!: string | null;

  @Field(() => Boolean, { description: 'Whether more runs follow.', deprecationReason: 'Use pageInfo.hasNextPage.' })
  hasNextPage!: boolean;
}
