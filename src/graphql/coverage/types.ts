import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import type {
  CoverageFigures as CoverageFiguresData,
  CoverageGaps as CoverageGapsData,
  CoverageReport,
  GapEdge,
  LineageUnknownJob as LineageUnknownJobData,
  TrendBucket,
} from '../../lineage/coverage-service';
import { CoverageScope } from '../../lineage/types';
import '../enums';

@ObjectType({ description: 'Coverage figures of a set of job → output dataset edges.' })
export class CoverageFigures implements CoverageFiguresData {
  @Field(() => String, { description: 'What the figures are about: "all", an engine, a namespace or a job id.' })
  key!: string;

  @Field(() => Int, { description: 'Job → output dataset edges (a job writing a dataset).' })
  edges!: number;

  @Field(() => Int, { description: 'Edges where the job reports column lineage into the output.' })
  columnLevel!: number;

  @Field(() => Int, { description: 'Edges with dataset-level lineage only.' })
  datasetLevelOnly!: number;

  @Field(() => Float, { description: 'columnLevel / edges, 0 to 1 (0 when there are no edges).' })
  columnLevelShare!: number;

  @Field(() => Int, { description: 'Fields of the output datasets.' })
  outputFields!: number;

  @Field(() => Int, { description: 'Output fields with at least one input field through the job.' })
  fieldsWithInputs!: number;

  @Field(() => Float, { description: 'fieldsWithInputs / outputFields, 0 to 1.' })
  fieldShare!: number;

  @Field(() => Int, {
    description:
      'Output edges of jobs that read nothing (a Spark CREATE TABLE, a seed, a generator): no lineage to report at any level, so counted here and not in edges, columnLevel or datasetLevelOnly.',
  })
  noInputEdges!: number;

  @Field(() => Int, {
    description:
      'Output edges of jobs whose lineage Tributary collected instead of a producer reporting it (Kafka Connect connectors read from the Connect REST API): counted here and not in edges, columnLevel or datasetLevelOnly.',
  })
  collectedEdges!: number;

  @Field(() => Int, {
    description:
      "Output edges a job's SQL declares and its events do not report (Job.sqlDeclaration, resolved STRONG; one per logical dataset): counted here, never as reported lineage. 0 in trends and diffs.",
  })
  declaredEdges!: number;
}

@ObjectType({ description: 'Coverage in one time bucket, from the lineage history.' })
export class CoverageTrendBucket implements TrendBucket {
  @Field(() => String, { description: 'Bucket start (inclusive), ISO-8601 UTC.' })
  start!: string;

  @Field(() => String, { description: 'Bucket end (exclusive).' })
  end!: string;

  @Field(() => Int, { description: 'Edges seen during the bucket.' })
  edges!: number;

  @Field(() => Int, { description: 'Of those, edges whose column lineage was seen during the bucket.' })
  columnLevel!: number;

  @Field(() => Float, { description: 'columnLevel / edges.' })
  columnLevelShare!: number;
}

@ObjectType({ description: 'Where lineage is column-level and where it is dataset-level only.' })
export class Coverage implements CoverageReport {
  @Field(() => CoverageScope, { description: 'The scope asked for.' })
  scope!: CoverageScope;

  @Field(() => String, { nullable: true, description: 'The scope value asked for.' })
  value!: string | null;

  @Field(() => CoverageFigures, { description: 'The jobs current outputs in the scope.' })
  overall!: CoverageFigures;

  @Field(() => [CoverageFigures], { description: 'By engine (integration), most edges first.' })
  byEngine!: CoverageFigures[];

  @Field(() => [CoverageFigures], { description: 'By job namespace, most edges first.' })
  byNamespace!: CoverageFigures[];

  @Field(() => [CoverageFigures], { description: 'By job, most edges first.' })
  byJob!: CoverageFigures[];

  @Field(() => [CoverageTrendBucket], { description: 'Coverage over time, oldest bucket first.' })
  trend!: CoverageTrendBucket[];

  @Field(() => Boolean, {
    description:
      'True when the scope has more edges than the server reads at once (TRIBUTARY_MAX_COVERAGE_EDGES): byJob and trend ' +
      'are then partial; overall, byEngine and byNamespace are always complete.',
  })
  truncated!: boolean;
}

@ObjectType({ description: 'A job → output dataset edge with dataset-level lineage only, and what depends on it.' })
export class CoverageGap implements GapEdge {
  @Field(() => ID, { description: 'The job.' })
  jobId!: string;

  @Field(() => ID, { description: 'The output dataset.' })
  datasetId!: string;

  @Field(() => String, { description: 'The job engine.' })
  engine!: string;

  @Field(() => String, { description: 'The job namespace.' })
  namespace!: string;

  @Field(() => Int, { description: 'Datasets downstream of the output: how much the missing column lineage hides.' })
  downstreamDatasets!: number;

  @Field(() => Int, { description: 'Jobs downstream of the output.' })
  downstreamJobs!: number;

  @Field(() => Boolean, { description: 'True when the downstream counts are lower bounds (a limit was hit).' })
  impactTruncated!: boolean;
}

@ObjectType({ description: 'A job whose lineage nobody reports (a Kafka Connect connector of a class Tributary does not map): no edge to rank, never a guess.' })
export class LineageUnknownJob implements LineageUnknownJobData {
  @Field(() => ID, { description: 'The job.' })
  jobId!: string;

  @Field(() => String, { description: 'The job namespace.' })
  namespace!: string;

  @Field(() => String, { description: 'The job engine.' })
  engine!: string;

  @Field(() => String, { description: 'Why its lineage is unknown, as its reporter says.' })
  reason!: string;

  @Field(() => String, { nullable: true, description: 'Latest event time of the job.' })
  lastSeen!: string | null;
}

@ObjectType({ description: 'Dataset-level-only edges ranked by downstream impact, and jobs whose lineage is unknown: what to instrument next.' })
export class CoverageGaps implements CoverageGapsData {
  @Field(() => [CoverageGap], { description: 'Most downstream impact first.' })
  gaps!: CoverageGap[];

  @Field(() => Int, { description: 'Gaps in the scope in all.' })
  totalGaps!: number;

  @Field(() => [LineageUnknownJob], { description: 'Jobs of the scope whose lineage nobody reports (no edges, so not among gaps), most recently seen first; at most `first`.' })
  lineageUnknown!: LineageUnknownJob[];

  @Field(() => Int, { description: 'Jobs of the scope whose lineage is unknown, in all.' })
  totalLineageUnknown!: number;

  @Field(() => Boolean, { description: 'True when not every gap could be ranked (over 500) or the scope was truncated.' })
  truncated!: boolean;
}
