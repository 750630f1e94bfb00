import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { Context } from '../context';
import { offsetAfter, pageInfo } from '../paging';
import { LineageDiffArgs } from './args';
import { LineageDiff } from './types';

@Resolver()
export class DiffQueries {
  @Query(() => LineageDiff, {
    description:
      'What changed in the lineage of a scope between two times: jobs, datasets, edges, fields and column-lineage edges that ' +
      'appeared or disappeared, job → output edges whose granularity changed (column level → dataset level is a regression, ' +
      'with its likely cause), and the coverage at both times. A job\'s lineage at a time is that of its latest run that had ' +
      'reported IO by then (as `lineage(asOf)`).',
  })
  async lineageDiff(@Args(() => LineageDiffArgs) args: LineageDiffArgs, @Ctx() ctx: Context): Promise<LineageDiff> {
    const offset = offsetAfter(args.after);
    const d = await ctx.services.diff.diff({
      scope: args.scope,
      value: args.value ?? null,
      from: args.from,
      to: args.to ?? null,
      kinds: args.kinds ?? null,
      first: args.first,
      offset,
    });
    const { changes, offset: _o, total, ...rest } = d;
    return { ...rest, changes: { items: changes, total, pageInfo: pageInfo(offset, changes.length, total) } };
  }
}
