import { Args, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { TraceHop as TraceHopData, TraceResult } from '../../lineage/trace-service';
import type { JobRecord } from '../../lineage/types';
import type { Context } from '../context';
import { Job } from '../nodes/types';
import { TraceArgs } from './args';
import { Trace, TraceHop } from './types';

@Resolver()
export class TraceQueries {
  @Query(() => Trace, {
    description:
      'Trace a value: from a field (or dataset), follow column lineage where jobs report it and dataset-level ' +
      'lineage where they do not, marking each hop with its granularity and the first point where field precision ' +
      'was lost. Upstream by default.',
  })
  trace(@Args(() => TraceArgs) args: TraceArgs, @Ctx() ctx: Context): Promise<TraceResult> {
    return ctx.services.trace.trace(args.nodeId, args.direction, args.depth ?? ctx.services.limits.maxDepth, args.asOf, args.dependencies, args.metadataColumns, args.evidence);
  }
}

@Resolver(() => TraceHop)
export class TraceHopResolver {
  @FieldResolver(() => Job, { nullable: true, description: 'The job the data goes through.' })
  job(@Root() h: TraceHopData, @Ctx() ctx: Context): Promise<JobRecord | null> {
    return ctx.loaders.job.load(h.jobId);
  }
}
