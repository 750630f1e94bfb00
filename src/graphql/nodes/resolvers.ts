import { Arg, Args, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import { datasetId, fieldId, parseId, parseIdOfKind, runId } from '../../ids';
import { optionalTime } from '../../lineage/common';
import { EntityKind, type DatasetRecord, type FieldRecord, type JobRecord, type JobVersionRecord, type RunRecord } from '../../lineage/types';
import { loadAll, type Context } from '../context';
import { offsetAfter, pageInfo } from '../paging';
import { RunsArgs } from './args';
import { Dataset, DatasetField, Job, JobVersion, Node, Run, RunLink, RunPage } from './types';
import { isMetadataColumn } from '../../lineage/metadata-columns';

/** Lookups by id. A well-formed id that matches nothing gives null; a malformed one BAD_INPUT. */
@Resolver()
export class NodeQueries {
  @Query(() => Dataset, {
    nullable: true,
    description:
      'A dataset by id (dataset:<namespace>:<name>), also by the spelling a producer sent (normalised as at ingestion: ' +
      'the answer then has the stored id; identity(id) says why).',
  })
  async dataset(@Arg('id', () => ID, { description: 'dataset:<namespace>:<name>' }) id: string, @Ctx() ctx: Context): Promise<DatasetRecord | null> {
    const canonical = ctx.services.identity.canonicalDatasetId(id);
    return (await ctx.loaders.dataset.load(id)) ?? (canonical !== id ? ctx.loaders.dataset.load(canonical) : null);
  }

  @Query(() => Job, { nullable: true, description: 'A job by id (job:<namespace>:<name>).' })
  job(@Arg('id', () => ID, { description: 'job:<namespace>:<name>' }) id: string, @Ctx() ctx: Context): Promise<JobRecord | null> {
    parseIdOfKind(id, EntityKind.JOB);
    return ctx.loaders.job.load(id);
  }

  @Query(() => Node, {
    nullable: true,
    description: 'Any dataset, job, run or dataset field by its exact id (Relay); null when nothing has that id. A malformed id is BAD_INPUT.',
  })
  async node(@Arg('id', () => ID, { description: 'dataset:…, job:…, run:… or datasetField:… (src/ids.ts forms).' }) id: string, @Ctx() ctx: Context): Promise<DatasetRecord | JobRecord | RunRecord | FieldRecord | null> {
    const ref = parseId(id);
    switch (ref.kind) {
      case EntityKind.DATASET:
        return ctx.loaders.dataset.load(id);
      case EntityKind.JOB:
        return ctx.loaders.job.load(id);
      case EntityKind.RUN:
        return ctx.loaders.run.load(runId(ref.runId));
      case EntityKind.FIELD:
        // Compared in the canonical spelling (%3a and %3A are one id).
        return (await ctx.loaders.fields.load(datasetId(ref.namespace, ref.name))).find((f) => f.id === fieldId(ref.namespace, ref.name, ref.field)) ?? null;
    }
  }

  @Query(() => Run, { nullable: true, description: 'A run by id (run:<uuid>).' })
  run(@Arg('id', () => ID, { description: 'run:<uuid>' }) id: string, @Ctx() ctx: Context): Promise<RunRecord | null> {
    return ctx.loaders.run.load(runId(parseIdOfKind(id, EntityKind.RUN).runId));
  }
}

@Resolver(() => Dataset)
export class DatasetResolver {
  @FieldResolver(() => [DatasetField], { description: 'Fields ordered by name.' })
  fields(@Root() d: DatasetRecord, @Ctx() ctx: Context): Promise<FieldRecord[]> {
    return ctx.loaders.fields.load(d.id);
  }

  @FieldResolver(() => [Job], { description: 'Jobs that have written this dataset, ordered by id.' })
  async producers(@Root() d: DatasetRecord, @Ctx() ctx: Context): Promise<JobRecord[]> {
    return loadAll(ctx.loaders.job, (await ctx.loaders.datasetJobs.load(d.id)).producers);
  }

  @FieldResolver(() => [Job], { description: 'Jobs that have read this dataset, ordered by id.' })
  async consumers(@Root() d: DatasetRecord, @Ctx() ctx: Context): Promise<JobRecord[]> {
    return loadAll(ctx.loaders.job, (await ctx.loaders.datasetJobs.load(d.id)).consumers);
  }
}

@Resolver(() => DatasetField)
export class DatasetFieldResolver {
  @FieldResolver(() => Dataset, { nullable: true, description: 'The dataset this field belongs to.' })
  dataset(@Root() f: FieldRecord, @Ctx() ctx: Context): Promise<DatasetRecord | null> {
    return ctx.loaders.dataset.load(f.datasetId);
  }

  @FieldResolver(() => Boolean, {
    description:
      "A metadata column of the dataset's table format (Iceberg's _file, _pos, ...; Delta's _metadata, change-feed columns), from its storage facet: kept, and left out of field-level walks unless they ask for metadataColumns.",
  })
  async metadataColumn(@Root() f: FieldRecord, @Ctx() ctx: Context): Promise<boolean> {
    return isMetadataColumn((await ctx.loaders.dataset.load(f.datasetId))?.storageLayer, f.name);
  }
}

@Resolver(() => Job)
export class JobResolver {
  @FieldResolver(() => [JobVersion], { description: 'Versions (inputs, outputs, source code) across runs, newest first.' })
  versions(@Root() j: JobRecord, @Ctx() ctx: Context): Promise<JobVersionRecord[]> {
    return ctx.loaders.versions.load(j.id);
  }

  @FieldResolver(() => RunPage, { description: 'Runs of the job, newest first (latest event time), filtered and paged.' })
  async runs(@Root() j: JobRecord, @Args(() => RunsArgs) args: RunsArgs, @Ctx() ctx: Context): Promise<RunPage> {
    const offset = offsetAfter(args.after);
    const filter = { states: args.states ?? null, since: optionalTime(args.since, 'since'), until: optionalTime(args.until, 'until') };
    const page = await ctx.services.catalog.runsOfJob(j.id, filter, offset, args.first);
    const info = pageInfo(offset, page.runIds.length, page.total);
    return { total: page.total, items: await loadAll(ctx.loaders.run, page.runIds), pageInfo: info, ...info };
  }

  @FieldResolver(() => Run, { nullable: true, description: 'The run with the latest event time.' })
  async latestRun(@Root() j: JobRecord, @Ctx() ctx: Context): Promise<RunRecord | null> {
    const id = await ctx.loaders.latestRun.load(j.id);
    return id ? ctx.loaders.run.load(id) : null;
  }

  @FieldResolver(() => [Dataset], { description: 'Datasets the job has read (any run), ordered by id; includes datasets only its column lineage names (LineageEdge.declared = false).' })
  async inputs(@Root() j: JobRecord, @Ctx() ctx: Context): Promise<DatasetRecord[]> {
    return loadAll(ctx.loaders.dataset, (await ctx.loaders.jobIo.load(j.id)).inputs);
  }

  @FieldResolver(() => [Dataset], { description: 'Datasets the job has written (any run), ordered by id.' })
  async outputs(@Root() j: JobRecord, @Ctx() ctx: Context): Promise<DatasetRecord[]> {
    return loadAll(ctx.loaders.dataset, (await ctx.loaders.jobIo.load(j.id)).outputs);
  }
}

@Resolver(() => Run)
export class RunResolver {
  @FieldResolver(() => JobVersion, { nullable: true, description: 'The job version of this run (its inputs, outputs and source code).' })
  async version(@Root() r: RunRecord, @Ctx() ctx: Context): Promise<JobVersionRecord | null> {
    if (!r.versionId) return null;
    return (await ctx.loaders.versions.load(r.jobId)).find((v) => v.id === r.versionId) ?? null;
  }

  @FieldResolver(() => [RunLink], { description: 'Run-level lineage: for each dataset this run read, the run that last wrote it before.' })
  async upstreamRuns(@Root() r: RunRecord, @Ctx() ctx: Context): Promise<{ datasetId: string; runId: string }[]> {
    return (await ctx.loaders.runLineage.load(r.id)).upstream;
  }

  @FieldResolver(() => [RunLink], { description: 'Run-level lineage: runs that read what this run wrote, before anyone wrote it again.' })
  async downstreamRuns(@Root() r: RunRecord, @Ctx() ctx: Context): Promise<{ datasetId: string; runId: string }[]> {
    return (await ctx.loaders.runLineage.load(r.id)).downstream;
  }

  @FieldResolver(() => Run, { nullable: true, description: 'The parent run (parent run facet): e.g. the Airflow DAG run of a task run.' })
  parent(@Root() r: RunRecord, @Ctx() ctx: Context): Promise<RunRecord | null> | null {
    return r.parentRunId ? ctx.loaders.run.load(r.parentRunId) : null;
  }

  @FieldResolver(() => Run, { nullable: true, description: 'The root run named by the parent run facet, when it names one.' })
  root(@Root() r: RunRecord, @Ctx() ctx: Context): Promise<RunRecord | null> | null {
    return r.rootRunId ? ctx.loaders.run.load(r.rootRunId) : null;
  }

  @FieldResolver(() => Job, { nullable: true, description: 'The job this run belongs to.' })
  job(@Root() r: RunRecord, @Ctx() ctx: Context): Promise<JobRecord | null> {
    return ctx.loaders.job.load(r.jobId);
  }

  @FieldResolver(() => [Dataset], { description: 'Datasets this run read, ordered by id; includes datasets only its column lineage names.' })
  async inputs(@Root() r: RunRecord, @Ctx() ctx: Context): Promise<DatasetRecord[]> {
    return loadAll(ctx.loaders.dataset, (await ctx.loaders.runIo.load(r.id)).inputs);
  }

  @FieldResolver(() => [Dataset], { description: 'Datasets this run wrote, ordered by id.' })
  async outputs(@Root() r: RunRecord, @Ctx() ctx: Context): Promise<DatasetRecord[]> {
    return loadAll(ctx.loaders.dataset, (await ctx.loaders.runIo.load(r.id)).outputs);
  }
}

@Resolver(() => RunLink)
export class RunLinkResolver {
  @FieldResolver(() => Dataset, { nullable: true, description: 'The dataset linking the two runs.' })
  dataset(@Root() l: { datasetId: string }, @Ctx() ctx: Context): Promise<DatasetRecord | null> {
    return ctx.loaders.dataset.load(l.datasetId);
  }

  @FieldResolver(() => Run, { nullable: true, description: 'The other run.' })
  run(@Root() l: { runId: string }, @Ctx() ctx: Context): Promise<RunRecord | null> {
    return ctx.loaders.run.load(l.runId);
  }
}
