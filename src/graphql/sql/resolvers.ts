import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { DatasetRecord, JobRecord, SqlDeclarationRecord } from '../../lineage/types';
import type { Context } from '../context';
import { Dataset, Job } from '../nodes/types';
import { DeclaredResolution, SqlDeclaration } from './types';

@Resolver(() => Job)
export class JobSqlResolver {
  @FieldResolver(() => SqlDeclaration, {
    nullable: true,
    description:
      "DECLARED lineage: the tables the job's sql facet names, parsed in the background (a few seconds after the event; TRIBUTARY_SQL_DECLARE_INTERVAL_S). " +
      'Null when the job has no statement or it is not parsed yet. Kept apart from inputs and outputs, which are what producers report.',
  })
  sqlDeclaration(@Root() j: JobRecord, @Ctx() ctx: Context): Promise<SqlDeclarationRecord | null> {
    return ctx.loaders.sqlDeclaration.load(j.id);
  }
}

@Resolver(() => DeclaredResolution)
export class DeclaredResolutionResolver {
  @FieldResolver(() => Dataset, { nullable: true, description: 'The dataset (null if it was deleted since).' })
  dataset(@Root() r: DeclaredResolution, @Ctx() ctx: Context): Promise<DatasetRecord | null> {
    return ctx.loaders.dataset.load(r.datasetId);
  }
}
