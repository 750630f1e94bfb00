import { ArgsType, Field, Int } from 'type-graphql';
import { BrowseOrder } from '../../lineage/types';

@ArgsType()
export class NamespacesArgs {
  @Field(() => Int, { defaultValue: 100, description: 'Page size (at most 1000).' })
  first!: number;

  @Field(() => String, { nullable: true, description: 'endCursor of the previous page.' })
  after?: string | null;
}

@ArgsType()
export class BrowseArgs {
  @Field(() => String, { nullable: true, description: 'Only this namespace (exact, as sent); all when absent.' })
  namespace?: string | null;

  @Field(() => BrowseOrder, { defaultValue: BrowseOrder.NAME, description: 'NAME (default) or LAST_SEEN.' })
  orderBy!: BrowseOrder;

  @Field(() => Int, { defaultValue: 50, description: 'Page size (at most 500).' })
  first!: number;

  @Field(() => String, { nullable: true, description: 'endCursor of the previous page.' })
  after?: string | null;
}
