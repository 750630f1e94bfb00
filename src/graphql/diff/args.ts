import { ArgsType, Field, Int } from 'type-graphql';
import { CoverageScope, DiffChangeKind } from '../../lineage/types';
import '../enums';

@ArgsType()
export class LineageDiffArgs {
  @Field(() => String, { description: 'Start of the comparison (ISO-8601): lineage as of this time.' })
  from!: string;

  @Field(() => String, { nullable: true, description: 'End (ISO-8601); default: now.' })
  to?: string | null;

  @Field(() => CoverageScope, { defaultValue: CoverageScope.ALL, description: 'Which jobs: ALL (default), NAMESPACE, JOB or ENGINE.' })
  scope!: CoverageScope;

  @Field(() => String, { nullable: true, description: 'The namespace, job id or engine of the scope.' })
  value?: string | null;

  @Field(() => [DiffChangeKind], { nullable: true, description: 'Only changes of these kinds (default: every kind).' })
  kinds?: DiffChangeKind[] | null;

  @Field(() => Int, { defaultValue: 100, description: 'Changes per page (1 to 1000).' })
  first!: number;

  @Field(() => String, { nullable: true, description: 'The endCursor of the previous page.' })
  after?: string | null;
}
