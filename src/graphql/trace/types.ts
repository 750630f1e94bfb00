import { GraphQLJSON } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { StopCandidate as StopCandidateData, TraceStop as TraceStopData } from '../../lineage/stops-service';
import type { DeclaredRef as DeclaredRefData, TraceHop as TraceHopData, TraceNode as TraceNodeData, TraceResult } from '../../lineage/trace-service';
import { Direction, EdgeEvidence, EntityKind, Granularity, IoDirection, IdentityRuleKind, MatchStrength, StopReason, TruncationReason, type FlowDirection } from '../../lineage/types';
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

@ObjectType({ description: "A table named in a job's SQL statement, and where: the evidence of a DECLARED hop." })
export class DeclaredRef implements DeclaredRefData {
  @Field(() => IoDirection, { description: 'INPUT: the statement reads it; OUTPUT: it writes it.' })
  role!: IoDirection;

  @Field(() => String, { description: 'The name as the statement writes it.' })
  name!: string;

  @Field(() => Int, { description: 'Where the statement names it: 1-based line.' })
  line!: number;

  @Field(() => Int, { description: 'And 0-based column.' })
  column!: number;
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

  @Field(() => Boolean, { description: 'True where a field-level trace falls back to dataset level because the job reports no column lineage there (never on a DECLARED hop, dataset level by nature).' })
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

  @Field(() => EdgeEvidence, { description: "What the hop rests on: REPORTED by a producer, COLLECTED by Tributary, or DECLARED in the job's SQL (only with evidence: ALL)." })
  evidence!: EdgeEvidence;

  @Field(() => [DeclaredRef], { description: "DECLARED hops: the statement's tables for the declared halves of the hop (the input it reads, the output it writes); [] otherwise." })
  declared!: DeclaredRef[];
}

@ObjectType({ description: 'What probably joins lineage again where a trace stops: another name of the dataset, or a job whose producer does not report its output.' })
export class StopCandidate implements StopCandidateData {
  @Field(() => ID, { description: 'A dataset (another name of the stop) or a job (a writer its producer does not report).' })
  id!: string;

  @Field(() => EntityKind, { description: 'DATASET or JOB.' })
  kind!: EntityKind;

  @Field(() => MatchStrength, { description: 'How likely the candidate is the missing link.' })
  strength!: MatchStrength;

  @Field(() => [String], { description: 'Why, one fact per line.' })
  evidence!: string[];

  @Field(() => IdentityRuleKind, { nullable: true, description: 'The kind of the identity rule that joins the names (DATASET candidates).' })
  ruleKind!: IdentityRuleKind | null;

  @Field(() => String, { nullable: true, description: 'That rule as a TRIBUTARY_IDENTITY_RULES fragment (JSON); null for a job.' })
  rule!: string | null;
}

@ObjectType({ description: 'A dataset where a trace stops within its bounds (nothing further reported), and why.' })
export class TraceStop implements TraceStopData {
  @Field(() => ID, { description: 'The dataset (under the name the trace reached).' })
  datasetId!: string;

  @Field(() => [ID], { description: 'The trace items in it where lineage stops: fields, or the dataset.' })
  itemIds!: string[];

  @Field(() => Int, { description: 'Hops from the start (the nearest item).' })
  distance!: number;

  @Field(() => StopReason, { description: 'Why lineage stops there.' })
  reason!: StopReason;

  @Field(() => String, { description: 'The reason in words, naming the dataset and the best candidate.' })
  explanation!: string;

  @Field(() => [StopCandidate], { description: 'What probably joins lineage again, strongest first (at most 5).' })
  candidates!: StopCandidate[];
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

  @Field(() => [TraceStop], {
    description:
      'Where lineage stops within the bounds of the trace (a dataset nothing further is reported for: no writer upstream, no reader downstream), why, and what probably joins it again; nearest first.',
  })
  stops!: TraceStop[];

  @Field(() => Boolean, { description: 'True when more datasets stop than are explained (20).' })
  stopsTruncated!: boolean;

  @Field(() => [TraceHop], {
    description:
      "With evidence REPORTED (current lineage): the DECLARED hops from the items reached, which evidence ALL would follow (a job's SQL names a table its events do not list); at most 20, by distance. Empty otherwise.",
  })
  unfollowed!: TraceHop[];
}
