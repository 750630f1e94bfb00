import { ArgsType, Field } from 'type-graphql';
import { Dependencies } from '../lineage/types';
import './enums';

/** The argument every field-level walk takes (lineage, trace, blastRadius, path): which column dependencies to follow. */
@ArgsType()
export class DependenciesArgs {
  @Field(() => Dependencies, {
    defaultValue: Dependencies.ALL,
    description: 'Column dependencies to follow at field level: ALL (default; also INDIRECT ones such as filter, join and group-by keys) or DIRECT.',
  })
  dependencies!: Dependencies;
}
