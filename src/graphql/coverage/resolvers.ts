import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import { Bucket, CoverageScope, type CoverageReport, type GapEdge } from '../../lineage/coverage-service';
import type { Context } from '../context';
import { Coverage, CoverageGaps } from './types';

@Resolver()
export class CoverageQueries {
  @Query(() => Coverage, {
    description:
      'Coverage of a scope: job → output dataset edges with column-level lineage vs dataset-level only, the share of ' +
      'output fields with at least one input field, by engine, namespace and job, and a trend over time buckets.',
  })
  coverage(
    @Arg('scope', () => CoverageScope, { defaultValue: CoverageScope.ALL, description: 'ALL (default), NAMESPACE, JOB or ENGINE.' }) scope: CoverageScope,
    @Arg('value', () => String, { nullable: true, description: 'The namespace, job id or engine of the scope.' }) value: string | null | undefined,
    @Arg('bucket', () => Bucket, { defaultValue: Bucket.WEEK, description: 'Trend bucket width (default WEEK).' }) bucket: Bucket,
    @Arg('from', () => String, { nullable: true, description: 'Trend start (ISO-8601); default: the earliest edge.' }) from: string | null | undefined,
    @Arg('to', () => String, { nullable: true, description: 'Trend end (ISO-8601); default: the latest edge.' }) to: string | null | undefined,
    @Ctx() ctx: Context,
  ): Promise<CoverageReport> {
    return ctx.services.coverage.coverage(scope, value ?? null, bucket, from, to);
  }

  @Query(() => CoverageGaps, { description: 'Dataset-level-only edges ranked by the blast radius of their output: what to instrument next.' })
  coverageGaps(
    @Arg('scope', () => CoverageScope, { defaultValue: CoverageScope.ALL, description: 'ALL (default), NAMESPACE, JOB or ENGINE.' }) scope: CoverageScope,
    @Arg('value', () => String, { nullable: true, description: 'The namespace, job id or engine of the scope.' }) value: string | null | undefined,
    @Arg('first', () => Int, { defaultValue: 20, description: 'How many gaps (at most 200).' }) first: number,
    @Ctx() ctx: Context,
  ): Promise<{ gaps: GapEdge[]; totalGaps: number; truncated: boolean }> {
    return ctx.services.coverage.gaps(scope, value ?? null, first);
  }
}
