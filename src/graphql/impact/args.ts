import { ArgsType, Field, ID, Int } from 'type-graphql';
import { EntityKind } from '../../lineage/types';
import '../enums';
import { DependenciesArgs } from '../common-args';

@ArgsType()
export class BlastRadiusArgs extends DependenciesArgs {
  @Field(() => ID, { description: 'A dataset id or field id.' })
  nodeId!: string;

  @Field(() => Int, { nullable: true, description: 'Depth to follow; defaults to TRIBUTARY_MAX_DEPTH.' })
  depth?: number | null;

  @Field(() => [String], { nullable: true, description: 'Only items in these namespaces.' })
  namespaces?: string[] | null;

  @Field(() => [EntityKind], { nullable: true, description: 'Only items of these kinds.' })
  kinds?: EntityKind[] | null;

  @Field(() => Int, { defaultValue: 50, description: 'Page size (at most 500).' })
  first!: number;

  @Field(() => String, { nullable: true, description: 'endCursor of the previous page.' })
  after?: string | null;
}
