import { Args, Ctx, Query, Resolver } from 'type-graphql';
import { checkCoverageArgs, type CoverageGaps as CoverageGapsData, type CoverageReport } from '../../lineage/coverage-service';
import type { Context } from '../context';
import { CoverageArgs, CoverageGapsArgs } from './args';
import { Coverage, CoverageGaps } from './types';

/** A promise made on first call and shared after. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | null = null;
  return () => (p ??= make());
}

@Resolver()
export class CoverageQueries {
  @Query(() => Coverage, {
    description:
      'Coverage of a scope: job → output dataset edges with column-level lineage vs dataset-level only, the share of ' +
      'output fields with at least one input field, by engine, namespace and job, and a trend over time buckets.',
  })
  coverage(@Args(() => CoverageArgs) args: CoverageArgs, @Ctx() ctx: Context): CoverageReport {
    // Each part is computed only when selected: overall/byEngine/byNamespace/truncated from one sum
    // in the database, byJob/trend from the scope's edges.
    const service = ctx.services.coverage;
    const value = args.value ?? null;
    // Before the parts below, which each check only what they use: a selection of `scope` alone,
    // or of `overall` with a malformed `from`, would otherwise answer.
    checkCoverageArgs(args.scope, value, args.from, args.to);
    const summary = once(() => service.summary(args.scope, value));
    const details = once(() => service.details(args.scope, value, args.bucket, args.from, args.to));
    const lazy = {
      scope: args.scope,
      value,
      get overall() {
        return summary().then((s) => s.overall);
      },
      get byEngine() {
        return summary().then((s) => s.byEngine);
      },
      get byNamespace() {
        return summary().then((s) => s.byNamespace);
      },
      get truncated() {
        return summary().then((s) => s.truncated);
      },
      get byJob() {
        return details().then((d) => d.byJob);
      },
      get trend() {
        return details().then((d) => d.trend);
      },
    };
    // GraphQL resolves each field's promise; the type says what the fields resolve to.
    return lazy as unknown as CoverageReport;
  }

  @Query(() => CoverageGaps, { description: 'Dataset-level-only edges ranked by the blast radius of their output: what to instrument next.' })
  coverageGaps(@Args(() => CoverageGapsArgs) args: CoverageGapsArgs, @Ctx() ctx: Context): Promise<CoverageGapsData> {
    return ctx.services.coverage.gaps(args.scope, args.value ?? null, args.first);
  }
}
