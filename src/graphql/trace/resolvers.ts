import { Arg, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import { Direction, type JobRecord } from '../../lineage/types';
import type { TraceHop as TraceHopData, TraceResult } from '../../lineage/trace-service';
import type { Context } from '../context';
import { Job } from '../nodes/types';
import { Trace, TraceDirection, TraceHop } from './types';

@Resolver()
export class TraceQueries {
  @Query(() => Trace, {
    description:
      'Trace a value: from a field (or dataset), follow column lineage where jobs report it and dataset-level ' +
      'lineage where they do not, marking each hop with its granularity and the first point where field precision ' +
      'was lost. Upstream by default.',
  })
  trace(
    @Arg('nodeId', () => ID, { description: 'A field id (datasetField:...) or dataset id.' }) nodeId: string,
    @Arg('direction', () => TraceDirection, { defaultValue: TraceDirection.UPSTREAM, description: 'UPSTREAM (default) or DOWNSTREAM.' })
    direction: TraceDirection,
    @Arg('depth', () => Int, { nullable: true, description: 'Hops to follow; defaults to TRIBUTARY_MAX_DEPTH.' })
    depth: number | null | undefined,
    @Arg('asOf', () => String, { nullable: true, description: 'ISO-8601 time: trace lineage as it stood then.' })
    asOf: string | null | undefined,
    @Ctx() ctx: Context,
  ): Promise<TraceResult> {
    const dir = direction === TraceDirection.UPSTREAM ? Direction.UPSTREAM : Direction.DOWNSTREAM;
    return ctx.services.trace.trace(nodeId, dir, depth ?? ctx.services.maxDepth, asOf);
  }
}

@Resolver(() => TraceHop)
export class TraceHopResolver {
  @FieldResolver(() => Job, { nullable: true, description: 'The job the data goes through.' })
  job(@Root() h: TraceHopData, @Ctx() ctx: Context): Promise<JobRecord | null> {
    return ctx.loaders.job.load(h.jobId);
  }
}
