import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Direction, EdgeType, EntityKind, Granularity } from '../../lineage/types';

registerEnumType(Direction, {
  name: 'LineageDirection',
  description: 'Direction relative to data flow.',
  valuesConfig: {
    UPSTREAM: { description: 'Against data flow: what the start node is derived from.' },
    DOWNSTREAM: { description: 'With data flow: what is derived from the start node.' },
    BOTH: { description: 'UPSTREAM and DOWNSTREAM together; not an undirected walk, so siblings are excluded.' },
  },
});
registerEnumType(EntityKind, {
  name: 'EntityKind',
  description: 'Kind of a lineage node.',
  valuesConfig: { DATASET: { description: 'A dataset.' }, JOB: { description: 'A job.' }, FIELD: { description: 'A field of a dataset.' } },
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
  description: 'Data-flow edge at dataset/job granularity.',
  valuesConfig: {
    FEEDS: { description: 'dataset → job: the job reads the dataset.' },
    PRODUCES: { description: 'job → dataset: the job writes the dataset.' },
    ALIAS: { description: 'dataset — dataset: two names of one logical dataset (symlinks facet); costs no depth.' },
    DERIVES: { description: 'field → field: column lineage through a job (see jobId and transformation types).' },
  },
});

export enum LineageSide {
  ROOT = 'ROOT',
  UPSTREAM = 'UPSTREAM',
  DOWNSTREAM = 'DOWNSTREAM',
}
registerEnumType(LineageSide, {
  name: 'LineageSide',
  description: 'Which traversal reached a node; ROOT for the start node.',
  valuesConfig: {
    ROOT: { description: 'The start node.' },
    UPSTREAM: { description: 'Reached against data flow.' },
    DOWNSTREAM: { description: 'Reached with data flow.' },
  },
});

export enum TruncationReason {
  DEPTH = 'DEPTH',
  NODE_LIMIT = 'NODE_LIMIT',
}
registerEnumType(TruncationReason, {
  name: 'TruncationReason',
  description: 'Why a lineage result is incomplete.',
  valuesConfig: {
    DEPTH: { description: 'Lineage continues beyond the traversed depth.' },
    NODE_LIMIT: { description: 'The server node limit (TRIBUTARY_MAX_NODES) was reached.' },
  },
});

@ObjectType({ description: 'A dataset or job in a lineage graph.' })
export class LineageNode {
  @Field(() => ID, { description: 'Dataset or job id.' })
  id!: string;

  @Field(() => EntityKind, { description: 'DATASET or JOB.' })
  kind!: EntityKind;

  @Field(() => String, { description: 'OpenLineage namespace.' })
  namespace!: string;

  @Field(() => String, { description: 'OpenLineage name (for a field: its path in the dataset).' })
  name!: string;

  @Field(() => ID, { nullable: true, description: 'For a FIELD: the id of its dataset.' })
  datasetId!: string | null;

  @Field(() => Int, { description: 'Edges from the start node along the traversal (0 for the start node).' })
  distance!: number;

  @Field(() => LineageSide, { description: 'Which traversal reached the node first.' })
  side!: LineageSide;
}

@ObjectType({ description: 'An edge in data-flow direction: data moves from `fromId` to `toId`.' })
export class LineageEdge {
  @Field(() => ID, { description: 'Where data comes from (a dataset for FEEDS, a job for PRODUCES).' })
  fromId!: string;

  @Field(() => ID, { description: 'Where data goes (a job for FEEDS, a dataset for PRODUCES).' })
  toId!: string;

  @Field(() => EdgeType, { description: 'FEEDS (read), PRODUCES (write) or ALIAS (same dataset).' })
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

  @Field(() => ID, { nullable: true, description: 'DERIVES: the job whose column lineage this is.' })
  jobId!: string | null;

  @Field(() => [String], { nullable: true, description: 'DERIVES: transformation types (DIRECT, INDIRECT).' })
  types!: string[] | null;

  @Field(() => [String], {
    nullable: true,
    description: 'DERIVES: transformation subtypes (IDENTITY, TRANSFORMATION, AGGREGATION, JOIN, GROUP_BY, FILTER, SORT, WINDOW, CONDITIONAL).',
  })
  subtypes!: string[] | null;
}

@ObjectType({ description: 'Directed lineage around one dataset or job.' })
export class LineageGraph {
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
