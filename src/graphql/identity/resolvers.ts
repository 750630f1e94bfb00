import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { Identity as IdentityData } from '../../lineage/identity-service';
import type { Context } from '../context';
import { IdentityArgs } from './args';
import { Identity } from './types';

@Resolver()
export class IdentityQueries {
  @Query(() => Identity, {
    description:
      'Every name a dataset is known by, each with how it got there: raw spellings and the normalisation steps and ' +
      'identity rules applied, symlinks with the event that declared them. With a field id, the field under each name.',
  })
  identity(@Args(() => IdentityArgs) args: IdentityArgs, @Ctx() ctx: Context): Promise<IdentityData> {
    return ctx.services.identity.identity(args.id, args.first);
  }
}
