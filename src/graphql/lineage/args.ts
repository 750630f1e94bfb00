import { ArgsType, Field, ID, Int } from 'type-graphql';
import { Direction, Evidence, Granularity } from '../../lineage/types';
import '../enums';
import { DependenciesArgs } from '../common-args';

@ArgsType()
export class LineageArgs extends DependenciesArgs {
  @Field(() => ID, { description: 'A dataset or job id (DATASET granularity), or a field id (FIELD granularity).' })
  nodeId!: string;

  @Field(() => Direction, { defaultValue: Direction.BOTH, description: 'UPSTREAM, DOWNSTREAM or BOTH (default).' })
  direction!: Direction;

  @Field(() => Int, {
    nullable: true,
    description: 'Edges to follow; defaults to the server default (TRIBUTARY_DEFAULT_DEPTH), capped at TRIBUTARY_MAX_DEPTH.',
  })
  depth?: number | null;

  @Field(() => Granularity, { defaultValue: Granularity.DATASET, description: 'DATASET (default) or FIELD.' })
  granularity!: Granularity;

  @Field(() => String, {
    nullable: true,
    description: 'ISO-8601 time: lineage as it stood then (each job with the IO of its latest run by then). Default: current lineage.',
  })
  asOf?: string | null;

  @Field(() => Evidence, {
    defaultValue: Evidence.REPORTED,
    description:
      'DATASET granularity. REPORTED (default): only what producers report. ALL: also the edges Tributary collected (Kafka Connect ' +
      "connectors) and the tables jobs' SQL declares (DECLARED, resolved STRONG; current lineage only). Each edge says its evidence.",
  })
  evidence!: Evidence;
}
