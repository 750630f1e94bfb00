import { GraphQLJSON } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { TraceHop as TraceHopData, TraceNode as TraceNodeData, TraceResult } from '../../lineage/trace-service';
import { Direction, EntityKind, Granularity, TruncationReason, type FlowDirection } from '../../lineage/types';
import '../enums';

@ObjectType({ description: 'A field or dataset reached by a trace.' })
export class TraceNode implements TraceNodeData {
  @Field(() => ID, { description: 'Field or dataset id.' })
  id!: string;

  @Field(() => EntityKind, { description: 'FIELD, or DATASET where field precision is lost.' })
  kind!: EntityKind;

  @Field(() => String, { description: 'Dataset namespace.' })
  namespace!: string;

  @Field(() => String, { description: 'Field path, or dataset name.' })
  name!: string;

  @Field(() => ID, { nullable: true, description: 'For a field: its dataset.' })
  datasetId!: string | null;

  @Field(() => Int, { description: 'Hops from the start.' })
  distance!: number;
}

@ObjectType({ description: 'One hop of a trace, in data-flow direction: data moves from `fromId` to `toId` through a job.' })
export class TraceHop implements TraceHopData {
  @Field(() => Int, { description: 'Hops from the start (1 = adjacent).' })
  distance!: number;

  @Field(() => ID, { description: 'Where data comes from (field or dataset).' })
  fromId!: string;

  @Field(() => ID, { description: 'Where data goes (field or dataset).' })
  toId!: string;

  @Field(() => ID, { description: 'The job the data goes through.' })
  jobId!: string;

  @Field(() => Granularity, { description: 'FIELD: column lineage; DATASET: the job reports no column lineage here, dataset level only.' })
  granularity!: Granularity;

  @Field(() => Boolean, { description: 'True where a field-level trace falls back to dataset level.' })
  precisionLost!: boolean;

  @Field(() => [String], { nullable: true, description: 'Column lineage transformation types (FIELD hops).' })
  types!: string[] | null;

  @Field(() => [String], { nullable: true, description: 'Column lineage transformation subtypes (FIELD hops).' })
  subtypes!: string[] | null;

  @Field(() => GraphQLJSON, { nullable: true, description: 'The transformations as reported (FIELD hops).' })
  transformations!: unknown;

  @Field(() => ID, {
    nullable: true,
    description:
      "FIELD hops the job reported under another name of the traced field's dataset (a symlink): the field's id under that " +
      'name (or that dataset, for a dataset-wide INDIRECT dependency); null when reported under the traced name.',
  })
  reportedAs!: string | null;
}

@ObjectType({ description: 'An investigation trace from a field or dataset.' })
export class Trace implements TraceResult {
  @Field(() => TraceNode, { description: 'Where the trace starts.' })
  start!: TraceNode;

  @Field(() => Direction, { description: 'The direction followed (UPSTREAM or DOWNSTREAM).' })
  direction!: FlowDirection;

  @Field(() => Int, { description: 'Depth traversed (capped at TRIBUTARY_MAX_DEPTH).' })
  depth!: number;

  @Field(() => String, { nullable: true, description: 'The time the trace is as of; null for current lineage.' })
  asOf!: string | null;

  @Field(() => [TraceHop], { description: 'Hops ordered by distance, then fromId, toId, jobId.' })
  hops!: TraceHop[];

  @Field(() => [TraceNode], { description: 'Everything reached, the start first, then by distance and id.' })
  nodes!: TraceNode[];

  @Field(() => TraceHop, { nullable: true, description: 'The first hop where field precision was lost; null when the whole trace is column-level.' })
  firstPrecisionLoss!: TraceHop | null;

  @Field(() => Boolean, { description: 'True when the trace goes on beyond what is returned.' })
  truncated!: boolean;

  @Field(() => [TruncationReason], { description: 'Why the trace is truncated; empty when complete.' })
  truncatedBy!: TruncationReason[];
}
