import { ArgsType, Field, Int } from 'type-graphql';
import { Bucket, CoverageScope } from '../../lineage/types';
import '../enums';

@ArgsType()
export class CoverageArgs {
  @Field(() => CoverageScope, { defaultValue: CoverageScope.ALL, description: 'ALL (default), NAMESPACE, JOB or ENGINE.' })
  scope!: CoverageScope;

  @Field(() => String, { nullable: true, description: 'The namespace, job id or engine of the scope.' })
  value?: string | null;

  @Field(() => Bucket, { defaultValue: Bucket.WEEK, description: 'Trend bucket width (default WEEK).' })
  bucket!: Bucket;

  @Field(() => String, { nullable: true, description: 'Trend start (ISO-8601); default: the earliest edge.' })
  from?: string | null;

  @Field(() => String, { nullable: true, description: 'Trend end (ISO-8601); default: the latest edge.' })
  to?: string | null;
}

@ArgsType()
export class CoverageGapsArgs {
  @Field(() => CoverageScope, { defaultValue: CoverageScope.ALL, description: 'ALL (default), NAMESPACE, JOB or ENGINE.' })
  scope!: CoverageScope;

  @Field(() => String, { nullable: true, description: 'The namespace, job id or engine of the scope.' })
  value?: string | null;

  @Field(() => Int, { defaultValue: 20, description: 'How many gaps (at most 200).' })
  first!: number;
}
