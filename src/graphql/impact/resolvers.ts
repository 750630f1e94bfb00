import { Arg, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import type { BlastRadius as BlastRadiusData, ImpactItem as ImpactItemData } from '../../lineage/impact-service';
import { EntityKind, type JobRecord } from '../../lineage/types';
import { loadAll, type Context } from '../context';
import { Job } from '../nodes/types';
import { BlastRadius, ImpactItem, PageInfo } from './types';

@Resolver()
export class ImpactQueries {
  @Query(() => BlastRadius, {
    description:
      'Impact analysis: everything downstream of a dataset or field (datasets, fields, jobs) with distance, the jobs ' +
      'on the way, owners and the last run state of each job; exact totals by distance, namespace and owner; paged.',
  })
  blastRadius(
    @Arg('nodeId', () => ID, { description: 'A dataset id or field id.' }) nodeId: string,
    @Arg('depth', () => Int, { nullable: true, description: 'Depth to follow; defaults to TRIBUTARY_MAX_DEPTH.' }) depth: number | null | undefined,
    @Arg('namespaces', () => [String], { nullable: true, description: 'Only items in these namespaces.' }) namespaces: string[] | null | undefined,
    @Arg('kinds', () => [EntityKind], { nullable: true, description: 'Only items of these kinds.' }) kinds: EntityKind[] | null | undefined,
    @Arg('first', () => Int, { defaultValue: 50, description: 'Page size (at most 500).' }) first: number,
    @Arg('after', () => String, { nullable: true, description: 'endCursor of the previous page.' }) after: string | null | undefined,
    @Ctx() ctx: Context,
  ): Promise<BlastRadiusData> {
    return ctx.services.impact.blastRadius({ nodeId, depth: depth ?? ctx.services.maxDepth, namespaces, kinds, first, after });
  }
}

@Resolver(() => BlastRadius)
export class BlastRadiusResolver {
  @FieldResolver(() => PageInfo, { description: 'Paging.' })
  pageInfo(@Root() b: BlastRadiusData): PageInfo {
    return { endCursor: b.endCursor, hasNextPage: b.hasNextPage };
  }
}

@Resolver(() => ImpactItem)
export class ImpactItemResolver {
  @FieldResolver(() => [Job], { description: 'The jobs on the way, in flow order.' })
  viaJobs(@Root() i: ImpactItemData, @Ctx() ctx: Context): Promise<JobRecord[]> {
    return loadAll(ctx.loaders.job, i.via);
  }

  @FieldResolver(() => Job, { nullable: true, description: 'The job itself, when kind is JOB.' })
  job(@Root() i: ImpactItemData, @Ctx() ctx: Context): Promise<JobRecord | null> | null {
    return i.kind === EntityKind.JOB ? ctx.loaders.job.load(i.id) : null;
  }
}
