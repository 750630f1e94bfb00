import { ArgsType, Field } from 'type-graphql';
import { Dependencies } from '../lineage/types';
import './enums';

/** The arguments every field-level walk takes (lineage, trace, blastRadius, path): which column dependencies to follow. */
@ArgsType()
export class DependenciesArgs {
  @Field(() => Dependencies, {
    defaultValue: Dependencies.ALL,
    description: 'Column dependencies to follow at field level: ALL (default; also INDIRECT ones such as filter, join and group-by keys) or DIRECT.',
  })
  dependencies!: Dependencies;

  @Field(() => Boolean, {
    defaultValue: false,
    description:
      "Field level: also walk through metadata columns of table formats (Iceberg's _file, _pos, _spec_id, ...; Delta's _metadata and change-feed columns), on datasets whose storage facet names the format. Spark reports them when a query or a row-level operation reads them; they are kept, and left out of walks unless this is true.",
  })
  metadataColumns!: boolean;
}
