import { ArgsType, Field, Int } from 'type-graphql';

@ArgsType()
export class RunsArgs {
  @Field(() => [String], { nullable: true, description: 'Only runs in these states (START, RUNNING, COMPLETE, FAIL, ABORT, OTHER).' })
  states?: string[] | null;

  @Field(() => String, { nullable: true, description: 'Only runs seen at or after this ISO time.' })
  since?: string | null;

  @Field(() => String, { nullable: true, description: 'Only runs seen at or before this ISO time.' })
  until?: string | null;

  @Field(() => Int, { defaultValue: 20, description: 'Page size (at most 200).' })
  first!: number;

  @Field(() => String, { nullable: true, description: 'endCursor of the previous page.' })
  after?: string | null;
}
