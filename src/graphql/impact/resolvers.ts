import { Args, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { BlastRadius as BlastRadiusData, ImpactItem as ImpactItemData } from '../../lineage/impact-service';
import { EntityKind, type JobRecord } from '../../lineage/types';
import { loadAll, type Context } from '../context';
import { Job } from '../nodes/types';
import { offsetAfter, PageInfo, pageInfo } from '../paging';
import { BlastRadiusArgs } from './args';
import { BlastRadius, ImpactItem } from './types';

@Resolver()
export class ImpactQueries {
  @Query(() => BlastRadius, {
    description:
      'Impact analysis: everything downstream of a dataset or field (datasets, fields, jobs) with distance, the jobs ' +
      'on the way, owners and the last run state of each job; exact totals by distance, namespace and owner; paged.',
  })
  blastRadius(@Args(() => BlastRadiusArgs) args: BlastRadiusArgs, @Ctx() ctx: Context): Promise<BlastRadiusData> {
    const { nodeId, depth, namespaces, kinds, first, after, dependencies, metadataColumns } = args;
    return ctx.services.impact.blastRadius({ nodeId, depth: depth ?? ctx.services.limits.maxDepth, namespaces, kinds, first, offset: offsetAfter(after), dependencies, metadataColumns });
  }
}

@Resolver(() => BlastRadius)
export class BlastRadiusResolver {
  @FieldResolver(() => PageInfo, { description: 'Paging.' })
  pageInfo(@Root() b: BlastRadiusData): PageInfo {
    return pageInfo(b.offset, b.items.length, b.total);
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
