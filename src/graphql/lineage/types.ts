import { Field, ID, Int, ObjectType } from 'type-graphql';
import {
  Direction,
  EdgeEvidence,
  EdgeType,
  EntityKind,
  Granularity,
  Side,
  TruncationReason,
  type LineageEdge as LineageEdgeData,
  type LineageGraph as LineageGraphData,
  type LineageNode as LineageNodeData,
} from '../../lineage/types';
import { DeclaredRef } from '../trace/types';
import '../enums';

@ObjectType({ description: 'A dataset, job or field in a lineage graph.' })
export class LineageNode implements LineageNodeData {
  @Field(() => ID, { description: 'Dataset, job or field id.' })
  id!: string;

  @Field(() => EntityKind, { description: 'DATASET or JOB (DATASET granularity), FIELD (FIELD granularity).' })
  kind!: EntityKind;

  @Field(() => String, { description: 'OpenLineage namespace.' })
  namespace!: string;

  @Field(() => String, { description: 'OpenLineage name (for a field: its path in the dataset).' })
  name!: string;

  @Field(() => ID, { nullable: true, description: 'For a FIELD: the id of its dataset.' })
  datasetId!: string | null;

  @Field(() => Int, { description: 'Edges from the start node along the traversal (0 for the start node).' })
  distance!: number;

  @Field(() => Side, { description: 'Which traversal reached the node first.' })
  side!: Side;
}

@ObjectType({ description: 'An edge in data-flow direction: data moves from `fromId` to `toId`.' })
export class LineageEdge implements LineageEdgeData {
  @Field(() => ID, { description: 'Where data comes from (a dataset for FEEDS, a job for PRODUCES, a field for DERIVES).' })
  fromId!: string;

  @Field(() => ID, { description: 'Where data goes (a job for FEEDS, a dataset for PRODUCES, a field for DERIVES).' })
  toId!: string;

  @Field(() => EdgeType, {
    description: 'FEEDS (read), PRODUCES (write), ALIAS (same dataset), DERIVES (column lineage) or INFLUENCES (an input field that affects the whole output).',
  })
  type!: EdgeType;

  @Field(() => String, { nullable: true, description: 'Earliest event time that recorded this read or write.' })
  firstSeen!: string | null;

  @Field(() => String, { nullable: true, description: 'Latest event time that recorded this read or write.' })
  lastSeen!: string | null;

  @Field(() => Boolean, {
    description: 'False for a read that only column lineage implies: no event listed the dataset in the job inputs.',
  })
  declared!: boolean;

  @Field(() => Boolean, { description: 'False for an edge of past IO that the job no longer reports (only with asOf).' })
  current!: boolean;

  @Field(() => ID, { nullable: true, description: 'DERIVES, INFLUENCES: the job whose column lineage this is.' })
  jobId!: string | null;

  @Field(() => [String], { nullable: true, description: 'DERIVES, INFLUENCES: transformation types (DIRECT, INDIRECT).' })
  types!: string[] | null;

  @Field(() => [String], {
    nullable: true,
    description: 'DERIVES, INFLUENCES: transformation subtypes (IDENTITY, TRANSFORMATION, AGGREGATION, JOIN, GROUP_BY, FILTER, SORT, WINDOW, CONDITIONAL).',
  })
  subtypes!: string[] | null;

  @Field(() => Int, { nullable: true, description: 'PRODUCES: fields of the output (coverage counts them; its symlinked names count as one). Null on other edges.' })
  outputFields!: number | null;

  @Field(() => Int, { nullable: true, description: 'PRODUCES: output fields with at least one input field through this job (column lineage). Null on other edges.' })
  fieldsWithInputs!: number | null;

  @Field(() => EdgeEvidence, {
    description: "What the edge rests on: REPORTED by a producer, COLLECTED by Tributary (Kafka Connect), or DECLARED in the job's SQL (only with evidence: ALL). FIELD edges are REPORTED.",
  })
  evidence!: EdgeEvidence;

  @Field(() => DeclaredRef, { nullable: true, description: "DECLARED edges: the table as the job's statement names it, and where; null otherwise." })
  statement!: DeclaredRef | null;
}

@ObjectType({ description: 'Directed lineage around one dataset, job or field.' })
export class LineageGraph implements LineageGraphData {
  @Field(() => LineageNode, { description: 'The start node.' })
  root!: LineageNode;

  @Field(() => Direction, { description: 'The direction traversed.' })
  direction!: Direction;

  @Field(() => Granularity, { description: 'Dataset/job or field granularity.' })
  granularity!: Granularity;

  @Field(() => String, { nullable: true, description: 'The time the lineage is as of (normalised to UTC); null for current lineage.' })
  asOf!: string | null;

  @Field(() => Int, { description: 'Depth asked for.' })
  requestedDepth!: number;

  @Field(() => Int, { description: 'Depth traversed: the requested depth, capped at the server maximum (TRIBUTARY_MAX_DEPTH).' })
  depth!: number;

  @Field(() => [LineageNode], { description: 'Nodes ordered by distance, then id; the start node first.' })
  nodes!: LineageNode[];

  @Field(() => [LineageEdge], { description: 'Edges between returned nodes, ordered by fromId, then toId.' })
  edges!: LineageEdge[];

  @Field(() => Boolean, { description: 'True when lineage continues beyond what is returned.' })
  truncated!: boolean;

  @Field(() => [TruncationReason], { description: 'Why the result is truncated; empty when complete.' })
  truncatedBy!: TruncationReason[];
}
