import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import type { BreakDataset as BreakDatasetData, DeclaredBreakJob as DeclaredBreakJobData, LineageBreaks as LineageBreaksData, ProbableMatch as ProbableMatchData } from '../../lineage/breaks-service';
import { SEARCH_CANDIDATES, type SearchHit as SearchHitData } from '../../lineage/catalog-service';
import type { LineagePath as LineagePathData, PathEdge as PathEdgeData, PathResult as PathResultData } from '../../lineage/path-service';
import { BreakRole, EntityKind, IdentityRuleKind, IoDirection, MatchStrength, SearchMatch, TruncationReason, type EntityRef } from '../../lineage/types';
import '../enums';
import { PageInfo } from '../paging';

@ObjectType({ description: 'A dataset where lineage starts or ends.' })
export class BreakDataset implements BreakDatasetData {
  @Field(() => ID, { description: 'Dataset id.' })
  id!: string;

  @Field(() => String, { description: 'Namespace.' })
  namespace!: string;

  @Field(() => String, { description: 'Name.' })
  name!: string;

  @Field(() => BreakRole, { description: 'SOURCE or SINK.' })
  role!: BreakRole;

  @Field(() => [ID], { description: 'Up to 5 readers (SOURCE) or writers (SINK).' })
  jobs!: string[];

  @Field(() => [String], { description: 'Engines of those jobs.' })
  engines!: string[];

  @Field(() => [ID], { description: 'The dataset\'s other names (symlinks): one entry stands for all of its names, under the name its jobs use.' })
  aliases!: string[];
}

@ObjectType({ description: 'A dataset read and never written, and a written dataset it probably is under other naming.' })
export class ProbableMatch implements ProbableMatchData {
  @Field(() => ID, { description: 'The dataset read and never written (a SOURCE).' })
  sourceId!: string;

  @Field(() => ID, { description: 'The written dataset (read elsewhere or not) it probably is.' })
  writtenId!: string;

  @Field(() => ID, { deprecationReason: 'Use writtenId: the written dataset need not be a sink.', description: 'Same as writtenId.' })
  sinkId!: string;

  @Field(() => String, { description: 'What both names share: schema.table, the last name segment, or the Kafka topic.' })
  key!: string;

  @Field(() => MatchStrength, { description: 'STRONG, MEDIUM or WEAK (see MatchStrength).' })
  strength!: MatchStrength;

  @Field(() => [String], { description: 'Why they are thought to match, and that nothing connects them yet.' })
  evidence!: string[];

  @Field(() => IdentityRuleKind, { description: 'The kind of identity rule that would merge them.' })
  ruleKind!: IdentityRuleKind;

  @Field(() => String, { description: 'That rule as a TRIBUTARY_IDENTITY_RULES fragment (JSON; YAML accepts it as is).' })
  rule!: string;
}

@ObjectType({ description: "A job whose SQL declares the missing edge of a break: it writes a SOURCE or reads a SINK, though its events do not report it." })
export class DeclaredBreakJob implements DeclaredBreakJobData {
  @Field(() => ID, { description: 'The break (a SOURCE or a SINK).' })
  datasetId!: string;

  @Field(() => BreakRole, { description: 'SOURCE (read, never written) or SINK (written, never read).' })
  role!: BreakRole;

  @Field(() => ID, { description: 'The job whose SQL declares the edge.' })
  jobId!: string;

  @Field(() => IoDirection, { description: 'OUTPUT: its SQL writes the SOURCE; INPUT: its SQL reads the SINK.' })
  direction!: IoDirection;

  @Field(() => MatchStrength, { description: "STRONG: the statement's qualified name resolves to the dataset; MEDIUM: by the table name alone." })
  strength!: MatchStrength;

  @Field(() => String, { description: 'The table as the statement names it.' })
  name!: string;

  @Field(() => Int, { description: 'Where: 1-based line.' })
  line!: number;

  @Field(() => Int, { description: 'And 0-based column.' })
  column!: number;

  @Field(() => Boolean, { description: 'The job reports no output at all (OUTPUT), or no input at all (INPUT).' })
  silent!: boolean;
}

@ObjectType({ description: 'Where lineage breaks at engine boundaries.' })
export class LineageBreaks implements LineageBreaksData {
  @Field(() => [BreakDataset], { description: 'Datasets read but never written, by id.' })
  sources!: BreakDataset[];

  @Field(() => [BreakDataset], { description: 'Datasets written but never read, by id.' })
  sinks!: BreakDataset[];

  @Field(() => [ProbableMatch], {
    description: 'Read-never-written datasets and written ones that probably name one dataset: STRONG first, then by sourceId, writtenId; at most 10 per source.',
  })
  probableMatches!: ProbableMatch[];

  @Field(() => [DeclaredBreakJob], {
    description: "Breaks a job's SQL declares the missing edge of (Job.sqlDeclaration): by datasetId, then strength, jobId; at most 5 per break.",
  })
  declaredJobs!: DeclaredBreakJob[];

  @Field(() => Boolean, { description: 'True when there were more datasets than the server compares at once, or a connectivity walk was cut short.' })
  truncated!: boolean;
}

@ObjectType({ description: 'A node on a path.' })
export class PathNode implements EntityRef {
  @Field(() => ID, { description: 'Dataset, job or field id.' })
  id!: string;

  @Field(() => EntityKind, { description: 'DATASET, JOB or FIELD.' })
  kind!: EntityKind;

  @Field(() => String, { description: 'Namespace (of its dataset, for a field).' })
  namespace!: string;

  @Field(() => String, { description: 'Name (field path for fields).' })
  name!: string;

  @Field(() => ID, { nullable: true, description: 'For fields: their dataset.' })
  datasetId!: string | null;
}

@ObjectType({ description: 'An edge on a path, in data-flow direction.' })
export class PathEdge implements PathEdgeData {
  @Field(() => ID, { description: 'Where data comes from.' })
  fromId!: string;

  @Field(() => ID, { description: 'Where data goes.' })
  toId!: string;

  @Field(() => String, { description: 'FEEDS, PRODUCES, DERIVES or INFLUENCES.' })
  type!: string;

  @Field(() => ID, { nullable: true, description: 'DERIVES, INFLUENCES: the job.' })
  jobId!: string | null;

  @Field(() => [String], { nullable: true, description: 'Column lineage: transformation types (INDIRECT where the input only shapes the value).' })
  types!: string[] | null;

  @Field(() => [String], { nullable: true, description: 'Column lineage: transformation subtypes (IDENTITY, AGGREGATION, FILTER, JOIN, GROUP_BY, ...).' })
  subtypes!: string[] | null;
}

@ObjectType({ description: 'One path from A to B.' })
export class LineagePath implements LineagePathData {
  @Field(() => Int, { description: 'Edges on the path; an ALIAS edge (the same field under another name of its dataset) adds nothing.' })
  length!: number;

  @Field(() => [PathNode], { description: 'Nodes from A to B.' })
  nodes!: PathNode[];

  @Field(() => [PathEdge], { description: 'Edges from A to B.' })
  edges!: PathEdge[];
}

@ObjectType({ description: 'How node A reaches node B.' })
export class PathResult implements PathResultData {
  @Field(() => ID, { description: 'A.' })
  fromId!: string;

  @Field(() => ID, { description: 'B.' })
  toId!: string;

  @Field(() => Boolean, { description: 'Whether A reaches B within maxLength.' })
  found!: boolean;

  @Field(() => [LineagePath], { description: 'The shortest paths first; within a length, by the ids along the path.' })
  paths!: LineagePath[];

  @Field(() => Boolean, { description: 'True when the search hit the server node limit (TRIBUTARY_MAX_NODES), so a path may be missing.' })
  truncated!: boolean;

  @Field(() => [TruncationReason], { description: 'Why the search is truncated (NODE_LIMIT); empty when complete.' })
  truncatedBy!: TruncationReason[];
}

@ObjectType({ description: 'A search hit.' })
export class SearchHit implements SearchHitData {
  @Field(() => ID, { description: 'Dataset, job or field id.' })
  id!: string;

  @Field(() => EntityKind, { description: 'DATASET, JOB or FIELD.' })
  kind!: EntityKind;

  @Field(() => String, { nullable: true, description: 'Namespace (datasets and jobs).' })
  namespace!: string | null;

  @Field(() => String, { description: 'Name (field path for fields).' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Description.' })
  description!: string | null;

  @Field(() => ID, { nullable: true, description: 'For fields: their dataset.' })
  datasetId!: string | null;

  @Field(() => Float, { description: 'Lucene relevance within a match kind; higher is better.' })
  score!: number;

  @Field(() => SearchMatch, { description: 'How the name matches the text: hits come EXACT first, then PREFIX, SEGMENT, WORD.' })
  match!: SearchMatch;

  @Field(() => [ID], {
    description:
      "The same dataset (or field) under its other names, from symlinks (a warehouse path and its catalog table), by id: one hit stands for all of them, the best-matching name first. Not listed as hits of their own.",
  })
  otherNames!: string[];
}

const CANDIDATES = SEARCH_CANDIDATES.toLocaleString('en');

@ObjectType({ description: 'One page of search hits.' })
export class SearchResult {
  @Field(() => Int, { description: `Hits in all (among the ${CANDIDATES} most relevant index matches when capped).` })
  total!: number;

  @Field({ description: `True when more than ${CANDIDATES} names, namespaces or descriptions matched: total and the ranking cover the ${CANDIDATES} most relevant (a longer text narrows it).` })
  capped!: boolean;

  @Field(() => [SearchHit], { description: 'This page, best first.' })
  hits!: SearchHit[];

  @Field(() => PageInfo, { description: 'Paging.' })
  pageInfo!: PageInfo;
}
