import { ArgsType, Field, ID, Int } from 'type-graphql';
import { Direction, Evidence } from '../../lineage/types';
import '../enums';
import { DependenciesArgs } from '../common-args';

@ArgsType()
export class TraceArgs extends DependenciesArgs {
  @Field(() => ID, { description: 'A field id (datasetField:...) or dataset id.' })
  nodeId!: string;

  @Field(() => Direction, { defaultValue: Direction.UPSTREAM, description: 'UPSTREAM (default) or DOWNSTREAM; BOTH is BAD_INPUT.' })
  direction!: Direction;

  @Field(() => Int, { nullable: true, description: 'Hops to follow; defaults to TRIBUTARY_MAX_DEPTH.' })
  depth?: number | null;

  @Field(() => String, { nullable: true, description: 'ISO-8601 time: trace lineage as it stood then.' })
  asOf?: string | null;

  @Field(() => Evidence, {
    defaultValue: Evidence.REPORTED,
    description:
      'REPORTED (default): only what producers report. ALL: also the edges Tributary collected (Kafka Connect connectors) ' +
      "and the tables jobs' SQL declares (DECLARED, resolved STRONG; current lineage only). Each hop says its evidence.",
  })
  evidence!: Evidence;
}
