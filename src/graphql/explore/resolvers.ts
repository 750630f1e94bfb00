import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import { badInput } from '../../errors';
import type { LineageBreaks as BreaksData } from '../../lineage/breaks-service';
import type { PathResult as PathData } from '../../lineage/path-service';
import { EntityKind, Granularity } from '../../lineage/types';
import type { Context } from '../context';
import { decodeOffset, encodeOffset } from '../../paging';
import { LineageBreaks, PathResult, SearchResult } from './types';

const LABELS: Record<EntityKind, string> = { DATASET: 'Dataset', JOB: 'Job', FIELD: 'Field' };

@Resolver()
export class ExploreQueries {
  @Query(() => LineageBreaks, {
    description:
      'Where lineage breaks at engine boundaries: datasets read but never written, written but never read, and ' +
      'pairs of them whose names probably denote the same dataset, with the evidence.',
  })
  lineageBreaks(
    @Arg('namespace', () => String, { nullable: true, description: 'Only datasets whose namespace starts with this.' }) namespace: string | null | undefined,
    @Ctx() ctx: Context,
  ): Promise<BreaksData> {
    return ctx.services.breaks.breaks(namespace ?? null);
  }

  @Query(() => PathResult, { description: 'How node A reaches node B in data-flow direction: the shortest paths first.' })
  path(
    @Arg('fromId', () => ID, { description: 'A: dataset or job id (field id at FIELD granularity).' }) fromId: string,
    @Arg('toId', () => ID, { description: 'B: dataset or job id (field id at FIELD granularity).' }) toId: string,
    @Arg('granularity', () => Granularity, { defaultValue: Granularity.DATASET, description: 'DATASET (default) or FIELD.' }) granularity: Granularity,
    @Arg('maxLength', () => Int, { defaultValue: 20, description: 'Longest path, in edges (at most 20).' }) maxLength: number,
    @Arg('first', () => Int, { defaultValue: 1, description: 'How many paths (1 = the shortest; at most 20).' }) first: number,
    @Ctx() ctx: Context,
  ): Promise<PathData> {
    return ctx.services.paths.paths(fromId, toId, granularity, maxLength, first);
  }

  @Query(() => SearchResult, { description: 'Datasets, jobs and fields by name, namespace or description (full-text, prefix matching).' })
  async search(
    @Arg('text', () => String, { description: 'Words to find; every word must match (as a prefix).' }) text: string,
    @Arg('kinds', () => [EntityKind], { nullable: true, description: 'Only these kinds.' }) kinds: EntityKind[] | null | undefined,
    @Arg('first', () => Int, { defaultValue: 20, description: 'Page size (at most 100).' }) first: number,
    @Arg('after', () => String, { nullable: true, description: 'endCursor of the previous page.' }) after: string | null | undefined,
    @Ctx() ctx: Context,
  ): Promise<SearchResult> {
    if (first < 1 || first > 100) throw badInput('first must be between 1 and 100');
    const skip = after ? decodeOffset(after) : 0;
    const { total, hits } = await ctx.services.catalog.search(text, kinds?.length ? kinds.map((k) => LABELS[k]) : null, skip, first);
    const end = skip + hits.length;
    return {
      total,
      hits: hits as SearchResult['hits'],
      pageInfo: { endCursor: hits.length ? encodeOffset(end) : null, hasNextPage: end < total },
    };
  }
}
