import { Arg, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import type {
  DatasetRecord,
  JobRecord,
  LineageEdge as LineageEdgeData,
  LineageGraph as LineageGraphData,
  LineageNode as LineageNodeData,
} from '../../lineage/types';
import { Direction, EntityKind, Granularity } from '../../lineage/types';
import type { Context } from '../context';
import { Dataset, Job } from '../nodes/types';
import { LineageEdge, LineageGraph, LineageNode } from './types';

@Resolver()
export class LineageQueries {
  @Query(() => LineageGraph, {
    description:
      'Directed lineage from a dataset or job id (DATASET granularity) or a field id (FIELD granularity), ' +
      'current or as of a past time. Depth counts edges (from a dataset: 1 = the jobs that read or write it, ' +
      '2 = the datasets beyond; from a field: 1 = the fields it is derived from or feeds). NOT_FOUND when the ' +
      'start node does not exist.',
  })
  lineage(
    @Arg('nodeId', () => ID, { description: 'A dataset or job id.' }) nodeId: string,
    @Arg('direction', () => Direction, { defaultValue: Direction.BOTH, description: 'UPSTREAM, DOWNSTREAM or BOTH (default).' }) direction: Direction,
    @Arg('depth', () => Int, {
      nullable: true,
      description: 'Edges to follow; defaults to the server default (TRIBUTARY_DEFAULT_DEPTH), capped at TRIBUTARY_MAX_DEPTH.',
    })
    depth: number | null | undefined,
    @Arg('granularity', () => Granularity, { defaultValue: Granularity.DATASET, description: 'DATASET (default) or FIELD.' })
    granularity: Granularity,
    @Arg('asOf', () => String, {
      nullable: true,
      description: 'ISO-8601 time: lineage as it stood then (each job with the IO of its latest run by then). Default: current lineage.',
    })
    asOf: string | null | undefined,
    @Ctx() ctx: Context,
  ): Promise<LineageGraphData> {
    return ctx.services.lineage.lineage(nodeId, direction, depth ?? ctx.services.defaultDepth, { granularity, asOf });
  }
}

@Resolver(() => LineageGraph)
export class LineageGraphResolver {
  @FieldResolver(() => LineageNode)
  root(@Root() g: LineageGraphData): LineageNodeData {
    return g.nodes.find((n) => n.id === g.root.id)!;
  }
}

@Resolver(() => LineageEdge)
export class LineageEdgeResolver {
  @FieldResolver(() => Job, { nullable: true, description: 'DERIVES: the job whose column lineage this is.' })
  job(@Root() e: LineageEdgeData, @Ctx() ctx: Context): Promise<JobRecord | null> | null {
    return e.jobId ? ctx.loaders.job.load(e.jobId) : null;
  }
}

@Resolver(() => LineageNode)
export class LineageNodeResolver {
  @FieldResolver(() => Dataset, { nullable: true, description: 'The dataset, when kind is DATASET; its dataset, when FIELD.' })
  dataset(@Root() n: LineageNodeData, @Ctx() ctx: Context): Promise<DatasetRecord | null> | null {
    if (n.kind === EntityKind.DATASET) return ctx.loaders.dataset.load(n.id);
    return n.kind === EntityKind.FIELD && n.datasetId ? ctx.loaders.dataset.load(n.datasetId) : null;
  }

  @FieldResolver(() => Job, { nullable: true, description: 'The job, when kind is JOB.' })
  job(@Root() n: LineageNodeData, @Ctx() ctx: Context): Promise<JobRecord | null> | null {
    return n.kind === EntityKind.JOB ? ctx.loaders.job.load(n.id) : null;
  }
}
