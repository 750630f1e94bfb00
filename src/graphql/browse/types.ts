import { Field, Int, ObjectType } from 'type-graphql';
import type { NamespaceRecord } from '../../lineage/types';
import { Dataset, Job } from '../nodes/types';
import { PageInfo } from '../paging';

@ObjectType({ description: 'An OpenLineage namespace (of datasets, jobs or both) and how much it holds.' })
export class Namespace {
  @Field(() => String, { description: 'The namespace, as sent (e.g. postgres://db:5432, kafka://broker:9092, airflow).' })
  name!: string;

  @Field(() => Int, { description: 'Dataset names in it (symlinked names count each).' })
  datasetCount!: number;

  @Field(() => Int, { description: 'Jobs in it (parent jobs named only by a parent facet included).' })
  jobCount!: number;
}

export const toNamespace = (r: NamespaceRecord): Namespace => ({ name: r.name, datasetCount: r.datasets, jobCount: r.jobs });

@ObjectType({ description: 'One page of namespaces, by name.' })
export class NamespacePage {
  @Field(() => Int, { description: 'Namespaces in all.' })
  total!: number;

  @Field(() => [Namespace], { description: 'This page.' })
  items!: Namespace[];

  @Field(() => PageInfo, { description: 'Paging.' })
  pageInfo!: PageInfo;
}

@ObjectType({ description: 'One page of datasets, in the order asked.' })
export class DatasetPage {
  @Field(() => Int, { description: 'Datasets matching in all.' })
  total!: number;

  @Field(() => [Dataset], { description: 'This page.' })
  items!: Dataset[];

  @Field(() => PageInfo, { description: 'Paging.' })
  pageInfo!: PageInfo;
}

@ObjectType({ description: 'One page of jobs, in the order asked.' })
export class JobPage {
  @Field(() => Int, { description: 'Jobs matching in all.' })
  total!: number;

  @Field(() => [Job], { description: 'This page.' })
  items!: Job[];

  @Field(() => PageInfo, { description: 'Paging.' })
  pageInfo!: PageInfo;
}
