import { ArgsType, Field, ID, Int } from 'type-graphql';

@ArgsType()
export class IdentityArgs {
  @Field(() => ID, {
    description:
      'A dataset id or a field id, under any of its names: the stored id, or a raw spelling a producer sends ' +
      '(resolved with the identity rules now in force).',
  })
  id!: string;

  @Field(() => Int, { defaultValue: 100, description: 'At most this many symlinked names (at most 500).' })
  first!: number;
}
