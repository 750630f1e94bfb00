import { Args, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type {
  DatasetRecord,
  JobRecord,
  LineageEdge as LineageEdgeData,
  LineageGraph as LineageGraphData,
  LineageNode as LineageNodeData,
} from '../../lineage/types';
import { EdgeType, EntityKind } from '../../lineage/types';
import type { Context } from '../context';
import { Dataset, Job } from '../nodes/types';
import { LineageArgs } from './args';
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
  lineage(@Args(() => LineageArgs) args: LineageArgs, @Ctx() ctx: Context): Promise<LineageGraphData> {
    const { nodeId, direction, depth, granularity, asOf, dependencies, metadataColumns } = args;
    return ctx.services.lineage.lineage(nodeId, direction, depth ?? ctx.services.limits.defaultDepth, { granularity, asOf, dependencies, metadataColumns, evidence: args.evidence });
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
  @FieldResolver(() => Job, { nullable: true, description: 'DERIVES, INFLUENCES: the job whose column lineage this is.' })
  job(@Root() e: LineageEdgeData, @Ctx() ctx: Context): Promise<JobRecord | null> | null {
    return e.jobId ? ctx.loaders.job.load(e.jobId) : null;
  }

  @FieldResolver(() => Boolean, {
    nullable: true,
    description:
      'PRODUCES: whether the job reports column lineage into this output (coverage counts it column level: fieldsWithInputs > 0) or not (dataset level only). Null on other edges.',
  })
  columnLevel(@Root() e: LineageEdgeData): boolean | null {
    return e.type === EdgeType.PRODUCES && e.fieldsWithInputs != null ? e.fieldsWithInputs > 0 : null;
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
