import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import type { DiffChange as DiffChangeData } from '../../lineage/diff-compare';
import type { CoverageDelta as CoverageDeltaData, DiffCount as DiffCountData } from '../../lineage/diff-service';
import { ChangeCause, CoverageScope, DiffChangeKind, IoDirection } from '../../lineage/types';
import { CoverageFigures } from '../coverage/types';
import '../enums';
import { PageInfo } from '../paging';

@ObjectType({ description: 'One change in a scope\'s lineage between two times.' })
export class LineageChange implements DiffChangeData {
  @Field(() => DiffChangeKind, { description: 'What changed.' })
  kind!: DiffChangeKind;

  @Field(() => ID, { nullable: true, description: 'The job (job, edge, granularity and field-edge changes).' })
  jobId!: string | null;

  @Field(() => ID, { nullable: true, description: 'The dataset (dataset, edge, granularity, field and field-edge changes).' })
  datasetId!: string | null;

  @Field(() => IoDirection, { nullable: true, description: 'INPUT (the job reads the dataset) or OUTPUT (writes it), for edge changes.' })
  direction!: IoDirection | null;

  @Field(() => String, { nullable: true, description: 'FIELD_*: the field; FIELD_EDGE_*: the output field (null: the whole output).' })
  field!: string | null;

  @Field(() => ID, { nullable: true, description: 'FIELD_EDGE_*: the input field id.' })
  inputFieldId!: string | null;

  @Field(() => ID, { nullable: true, description: 'The run the edge was read from at `from` (for granularity: the run that decided it).' })
  fromRunId!: string | null;

  @Field(() => ID, { nullable: true, description: 'The run the edge was read from at `to`.' })
  toRunId!: string | null;

  @Field(() => ChangeCause, { nullable: true, description: 'GRANULARITY_*: the likely cause, from what the two runs\' events say.' })
  cause!: ChangeCause | null;

  @Field(() => String, { nullable: true, description: 'GRANULARITY_*: producer URI of the run at `from`.' })
  fromProducer!: string | null;

  @Field(() => String, { nullable: true, description: 'GRANULARITY_*: producer URI of the run at `to`.' })
  toProducer!: string | null;
}

@ObjectType({ description: 'Coverage at `to` minus coverage at `from`.' })
export class CoverageDelta implements CoverageDeltaData {
  @Field(() => Int, { description: 'Change in job → output edges.' })
  edges!: number;

  @Field(() => Int, { description: 'Change in edges with column lineage.' })
  columnLevel!: number;

  @Field(() => Float, { description: 'Change in the column-level share; negative: it dropped.' })
  columnLevelShare!: number;

  @Field(() => Float, { description: 'Change in the share of output fields with inputs.' })
  fieldShare!: number;
}

@ObjectType({ description: 'How many changes of one kind.' })
export class LineageChangeCount implements DiffCountData {
  @Field(() => DiffChangeKind, { description: 'The kind.' })
  kind!: DiffChangeKind;

  @Field(() => Int, { description: 'Changes of that kind (of the kinds asked for).' })
  count!: number;
}

@ObjectType({ description: 'One page of lineage changes.' })
export class LineageChangePage {
  @Field(() => Int, { description: 'Changes (of the kinds asked for) in all.' })
  total!: number;

  @Field(() => [LineageChange], { description: 'This page.' })
  items!: LineageChange[];

  @Field(() => PageInfo, { description: 'Paging.' })
  pageInfo!: PageInfo;
}

@ObjectType({ description: 'What changed in a scope\'s lineage between two times, and its coverage at both.' })
export class LineageDiff {
  @Field(() => CoverageScope, { description: 'The scope asked for.' })
  scope!: CoverageScope;

  @Field(() => String, { nullable: true, description: 'The scope value asked for.' })
  value!: string | null;

  @Field(() => String, { description: 'The start, ISO-8601 UTC.' })
  from!: string;

  @Field(() => String, { nullable: true, description: 'The end as asked; null: the time of the request.' })
  to!: string | null;

  @Field(() => CoverageFigures, { description: 'Coverage of the scope\'s output edges at `from`.' })
  coverageFrom!: CoverageFigures;

  @Field(() => CoverageFigures, { description: 'Coverage of the scope\'s output edges at `to`, counted as at `from`.' })
  coverageTo!: CoverageFigures;

  @Field(() => CoverageDelta, { description: 'coverageTo minus coverageFrom.' })
  delta!: CoverageDelta;

  @Field(() => [LineageChangeCount], { description: 'Changes by kind (kinds without changes left out).' })
  counts!: LineageChangeCount[];

  @Field(() => LineageChangePage, { description: 'Granularity changes first, then jobs, datasets, edges, fields, field edges; each by job id, dataset id, field.' })
  changes!: LineageChangePage;

  @Field(() => Boolean, { description: 'True when the scope has more edges than the server reads at once (TRIBUTARY_MAX_COVERAGE_EDGES): the diff is partial.' })
  truncated!: boolean;

  @Field(() => Int, {
    description: 'Edges present at both times whose fields or field edges were not compared: their runs were projected before per-run reports were kept (`npm run reproject` fills them).',
  })
  unrecorded!: number;
}
