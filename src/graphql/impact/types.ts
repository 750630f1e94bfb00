import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { BlastRadius as BlastRadiusData, Count as CountData, ImpactItem as ImpactItemData } from '../../lineage/impact-service';
import { EntityKind, TruncationReason } from '../../lineage/types';
import '../enums';
import { PageInfo } from '../paging';

type ImpactTotalsData = BlastRadiusData['totals'];

@ObjectType({ description: 'A count for one key of a breakdown.' })
export class Count implements CountData {
  @Field(() => String, { description: 'The key: a distance, a namespace or an owner ("(no owner)" when none).' })
  key!: string;

  @Field(() => Int, { description: 'How many items have it.' })
  count!: number;
}

@ObjectType({ description: 'Totals over every item that matches the filters, whatever page is returned.' })
export class ImpactTotals implements ImpactTotalsData {
  @Field(() => Int, { description: 'Items in all.' })
  items!: number;

  @Field(() => Int, { description: 'Datasets.' })
  datasets!: number;

  @Field(() => Int, { description: 'Fields.' })
  fields!: number;

  @Field(() => Int, { description: 'Jobs.' })
  jobs!: number;

  @Field(() => [Count], { description: 'Items by distance from the start, nearest first.' })
  byDistance!: Count[];

  @Field(() => [Count], { description: 'Items by namespace, most first.' })
  byNamespace!: Count[];

  @Field(() => [Count], { description: 'Items by owner (an item with two owners counts for both), most first.' })
  byOwner!: Count[];
}

@ObjectType({ description: 'Something downstream of the start: a dataset, field or job.' })
export class ImpactItem implements ImpactItemData {
  @Field(() => ID, { description: 'Dataset, field or job id.' })
  id!: string;

  @Field(() => EntityKind, { description: 'DATASET, FIELD or JOB.' })
  kind!: EntityKind;

  @Field(() => String, { description: 'Namespace.' })
  namespace!: string;

  @Field(() => String, { description: 'Name (field path for fields).' })
  name!: string;

  @Field(() => ID, { nullable: true, description: 'For fields: their dataset.' })
  datasetId!: string | null;

  @Field(() => Int, { description: 'Hops from the start.' })
  distance!: number;

  @Field(() => [ID], { description: 'Job ids on a shortest path from the start, in flow order.' })
  via!: string[];

  @Field(() => [String], { description: 'Owners from the ownership facet (a field: its dataset owners).' })
  owners!: string[];

  @Field(() => String, { nullable: true, description: 'For jobs: state of the latest run (COMPLETE, FAIL, RUNNING, ...).' })
  lastRunState!: string | null;
}

@ObjectType({ description: 'Everything downstream of a dataset or field: what breaks if it changes.' })
export class BlastRadius implements Omit<BlastRadiusData, 'offset' | 'total'> {
  @Field(() => ID, { description: 'The start.' })
  rootId!: string;

  @Field(() => Int, { description: 'Depth traversed.' })
  depth!: number;

  @Field(() => Boolean, { description: 'True when the impact goes on beyond what was counted.' })
  truncated!: boolean;

  @Field(() => [TruncationReason], { description: 'Why it is truncated; empty when complete.' })
  truncatedBy!: TruncationReason[];

  @Field(() => ImpactTotals, { description: 'Exact totals over all matching items.' })
  totals!: ImpactTotals;

  @Field(() => [ImpactItem], { description: 'One page of items, by distance, then kind, then id.' })
  items!: ImpactItem[];

  @Field(() => PageInfo, { description: 'Paging.' })
  pageInfo!: PageInfo;
}
