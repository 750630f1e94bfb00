import { Arg, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import type { DatasetRecord, JobRecord, LineageGraph as LineageGraphData, LineageNode as LineageNodeData } from '../../lineage/types';
import { Direction, EntityKind } from '../../lineage/types';
import type { Context } from '../context';
import { Dataset, Job } from '../nodes/types';
import { LineageGraph, LineageNode } from './types';

@Resolver()
export class LineageQueries {
  @Query(() => LineageGraph, {
    description:
      'Directed lineage at dataset/job granularity from a dataset or job id. Depth counts edges ' +
      '(from a dataset: 1 = the jobs that read or write it, 2 = the datasets beyond). ' +
      'NOT_FOUND when the start node does not exist.',
  })
  lineage(
    @Arg('nodeId', () => ID, { description: 'A dataset or job id.' }) nodeId: string,
    @Arg('direction', () => Direction, { defaultValue: Direction.BOTH, description: 'UPSTREAM, DOWNSTREAM or BOTH (default).' }) direction: Direction,
    @Arg('depth', () => Int, {
      nullable: true,
      description: 'Edges to follow; defaults to the server default (TRIBUTARY_DEFAULT_DEPTH), capped at TRIBUTARY_MAX_DEPTH.',
    })
    depth: number | null | undefined,
    @Ctx() ctx: Context,
  ): Promise<LineageGraphData> {
    return ctx.services.lineage.lineage(nodeId, direction, depth ?? ctx.services.defaultDepth);
  }
}

@Resolver(() => LineageGraph)
export class LineageGraphResolver {
  @FieldResolver(() => LineageNode)
  root(@Root() g: LineageGraphData): LineageNodeData {
    return g.nodes[0]!;
  }
}

@Resolver(() => LineageNode)
export class LineageNodeResolver {
  @FieldResolver(() => Dataset, { nullable: true, description: 'The dataset, when kind is DATASET.' })
  dataset(@Root() n: LineageNodeData, @Ctx() ctx: Context): Promise<DatasetRecord | null> | null {
    return n.kind === EntityKind.DATASET ? ctx.loaders.dataset.load(n.id) : null;
  }

  @FieldResolver(() => Job, { nullable: true, description: 'The job, when kind is JOB.' })
  job(@Root() n: LineageNodeData, @Ctx() ctx: Context): Promise<JobRecord | null> | null {
    return n.kind === EntityKind.JOB ? ctx.loaders.job.load(n.id) : null;
  }
}
