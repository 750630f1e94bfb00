import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { LineageBreaks as BreaksData } from '../../lineage/breaks-service';
import type { PathResult as PathData } from '../../lineage/path-service';
import type { Context } from '../context';
import { offsetAfter, pageInfo } from '../paging';
import { LineageBreaksArgs, PathArgs, SearchArgs } from './args';
import { LineageBreaks, PathResult, SearchResult } from './types';

@Resolver()
export class ExploreQueries {
  @Query(() => LineageBreaks, {
    description:
      'Where lineage breaks at engine boundaries: datasets read but never written, written but never read, and ' +
      'each read-never-written dataset whose name probably denotes a written one (not already connected), with the ' +
      'evidence and the identity rule that would merge them.',
  })
  lineageBreaks(@Args(() => LineageBreaksArgs) args: LineageBreaksArgs, @Ctx() ctx: Context): Promise<BreaksData> {
    return ctx.services.breaks.breaks(args.namespace ?? null);
  }

  @Query(() => PathResult, { description: 'How node A reaches node B in data-flow direction: the shortest paths first.' })
  path(@Args(() => PathArgs) args: PathArgs, @Ctx() ctx: Context): Promise<PathData> {
    return ctx.services.paths.paths(args.fromId, args.toId, args.granularity, args.maxLength, args.first, args.dependencies, args.metadataColumns);
  }

  @Query(() => SearchResult, { description: 'Datasets, jobs and fields by name, namespace or description (full-text, prefix matching).' })
  async search(@Args(() => SearchArgs) args: SearchArgs, @Ctx() ctx: Context): Promise<SearchResult> {
    const offset = offsetAfter(args.after);
    const { total, capped, hits } = await ctx.services.catalog.search(args.text, args.kinds ?? null, offset, args.first);
    return { total, capped, hits, pageInfo: pageInfo(offset, hits.length, total) };
  }
}
