import { ArgsType, Field, ID, Int } from 'type-graphql';
import { EntityKind, Granularity } from '../../lineage/types';
import '../enums';
import { DependenciesArgs } from '../common-args';

@ArgsType()
export class LineageBreaksArgs {
  @Field(() => String, { nullable: true, description: 'Only datasets whose namespace starts with this.' })
  namespace?: string | null;
}

@ArgsType()
export class PathArgs extends DependenciesArgs {
  @Field(() => ID, { description: 'A: dataset or job id (field id at FIELD granularity).' })
  fromId!: string;

  @Field(() => ID, { description: 'B: dataset or job id (field id at FIELD granularity).' })
  toId!: string;

  @Field(() => Granularity, { defaultValue: Granularity.DATASET, description: 'DATASET (default) or FIELD.' })
  granularity!: Granularity;

  @Field(() => Int, { defaultValue: 20, description: 'Longest path, in edges (at most 20).' })
  maxLength!: number;

  @Field(() => Int, { defaultValue: 1, description: 'How many paths (1 = the shortest; at most 20).' })
  first!: number;
}

@ArgsType()
export class SearchArgs {
  @Field(() => String, { description: 'A name, part of a name or words; every word must match (as a prefix); exact, prefix and segment matches of the whole text rank first.' })
  text!: string;

  @Field(() => [EntityKind], { nullable: true, description: 'Only these kinds.' })
  kinds?: EntityKind[] | null;

  @Field(() => Int, { defaultValue: 20, description: 'Page size (at most 100).' })
  first!: number;

  @Field(() => String, { nullable: true, description: 'endCursor of the previous page.' })
  after?: string | null;
}
