import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { CoverageGaps as CoverageGapsData, CoverageReport } from '../../lineage/coverage-service';
import type { Context } from '../context';
import { CoverageArgs, CoverageGapsArgs } from './args';
import { Coverage, CoverageGaps } from './types';

@Resolver()
export class CoverageQueries {
  @Query(() => Coverage, {
    description:
      'Coverage of a scope: job → output dataset edges with column-level lineage vs dataset-level only, the share of ' +
      'output fields with at least one input field, by engine, namespace and job, and a trend over time buckets.',
  })
  coverage(@Args(() => CoverageArgs) args: CoverageArgs, @Ctx() ctx: Context): Promise<CoverageReport> {
    return ctx.services.coverage.coverage(args.scope, args.value ?? null, args.bucket, args.from, args.to);
  }

  @Query(() => CoverageGaps, { description: 'Dataset-level-only edges ranked by the blast radius of their output: what to instrument next.' })
  coverageGaps(@Args(() => CoverageGapsArgs) args: CoverageGapsArgs, @Ctx() ctx: Context): Promise<CoverageGapsData> {
    return ctx.services.coverage.gaps(args.scope, args.value ?? null, args.first);
  }
}
