import { Field, ID, Int, ObjectType } from 'type-graphql';
import { IoDirection, MatchStrength, SqlParseStatus, SqlUnparsedReason, type DeclaredTableRecord, type SqlDeclarationRecord } from '../../lineage/types';
import '../enums';

/**
 * DECLARED lineage: the tables a job's SQL statement (sql job facet) names, as the SQL declarer
 * parsed them (src/sql/declarer.ts). Kept apart from what producers report: never counted as
 * reported lineage, never merged into a job's inputs and outputs.
 */

@ObjectType({ description: 'A dataset a declared table name resolves to.' })
export class DeclaredResolution {
  @Field(() => ID, { description: 'The dataset.' })
  datasetId!: string;

  @Field(() => MatchStrength, { description: 'STRONG: the qualified name matches (schema.table, or the whole name); MEDIUM: the table name alone.' })
  strength!: MatchStrength;
}

@ObjectType({ description: "A table a job's SQL statement names, with its position in the statement as evidence." })
export class DeclaredTable implements DeclaredTableRecord {
  @Field(() => IoDirection, { description: 'OUTPUT: inserted into, merged into, updated, deleted from, overwritten or created; INPUT: any other table the statement names (common table expressions excepted).' })
  role!: IoDirection;

  @Field(() => String, { description: 'As the statement writes it, unquoted, its parts joined with ".".' })
  name!: string;

  @Field(() => Int, { description: 'Line (from 1) where the statement first names it.' })
  line!: number;

  @Field(() => Int, { description: 'Column (from 0) on that line.' })
  column!: number;

  @Field(() => Int, { description: 'Character offset of the name in the statement (from 0).' })
  start!: number;

  @Field(() => Int, { description: 'Character offset just after the name.' })
  end!: number;

  @Field(() => Boolean, { description: "Whether the job's events already list a dataset it resolves to that way (then it adds nothing)." })
  reported!: boolean;

  @Field(() => [DeclaredResolution], { description: 'The datasets the name resolves to (STRONG ones when there are any), by id; empty when no known dataset matches.' })
  resolved!: DeclaredResolution[];
}

@ObjectType({ description: "What the SQL declarer made of a job's current statement." })
export class SqlDeclaration implements SqlDeclarationRecord {
  @Field(() => SqlParseStatus, { description: "PARSED: the tables below are the statement's; UNPARSED: see reason and message, no table is guessed." })
  status!: SqlParseStatus;

  @Field(() => String, { nullable: true, description: 'The grammar used (spark, flink, hive, trino, postgresql, mysql); null when none applies.' })
  dialect!: string | null;

  @Field(() => String, { description: 'Where the dialect was read from ("sql facet dialect spark", "engine flink").' })
  dialectFrom!: string;

  @Field(() => SqlUnparsedReason, { nullable: true, description: 'Why it was not parsed (UNPARSED only).' })
  reason!: SqlUnparsedReason | null;

  @Field(() => String, { nullable: true, description: "The reason in words: the parser's first error, the size, ... (UNPARSED only)." })
  message!: string | null;

  @Field(() => String, { description: 'When the declarer parsed it (UTC).' })
  parsedAt!: string;

  @Field(() => [DeclaredTable], { description: 'The tables it names, in the order it names them.' })
  tables!: DeclaredTable[];
}
