import { badInput } from '../errors';
import type { Executor } from '../graph/executor';
import { Query } from '../graph/queries';
import { kindOf } from '../ids';
import { checkFirst, cmp } from './common';
import { checkTrendWindow, coverageTrend, ratio, type TrendBucket } from './coverage-trend';
import { groupBy } from './group';
import { downstreamOfEach } from './traversal';
import { Bucket, CoverageScope, EntityKind } from './types';

export type { TrendBucket } from './coverage-trend';

export { Bucket, CoverageScope };

/**
 * Coverage: where lineage is column-level and where it is only dataset-level, as plain numbers a
 * dashboard can embed. The unit is the job → output dataset edge (a job writing a dataset): it is
 * column-level when the job reports column lineage into that dataset. Field share: of the output
 * fields, those with at least one input field through the job. Current figures use the jobs'
 * current outputs; the trend uses the history (an edge counts in a bucket if it was seen during it).
 */

export interface CoverageFigures {
  key: string;
  edges: number;
  columnLevel: number;
  datasetLevelOnly: number;
  /** columnLevel / edges (0 when there are no edges). */
  columnLevelShare: number;
  outputFields: number;
  fieldsWithInputs: number;
  /** fieldsWithInputs / outputFields (0 when there are no fields). */
  fieldShare: number;
  /**
   * Current output edges of jobs that read nothing (a Spark CREATE TABLE, a seed, a generator):
   * no lineage to report at any level, so not counted in edges (nor as dataset level only).
   */
  noInputEdges: number;
  /**
   * Current output edges of jobs whose lineage Tributary collected (a Kafka Connect connector read
   * from the Connect REST API): no producer reports them, so not counted in edges either.
   */
  collectedEdges: number;
  /**
   * Output edges a job's SQL declares and its events do not report (the SQL declarer, resolved
   * STRONG; one per logical dataset): never counted as reported lineage, so not in edges either.
   */
  declaredEdges: number;
}

/** The scope's figures, overall and by engine and namespace: always complete (summed in the database). */
export interface CoverageSummary {
  overall: CoverageFigures;
  byEngine: CoverageFigures[];
  byNamespace: CoverageFigures[];
  /** True when the scope has more edges than TRIBUTARY_MAX_COVERAGE_EDGES: byJob and trend are then partial. */
  truncated: boolean;
}

/** By job and over time: read edge by edge (at most TRIBUTARY_MAX_COVERAGE_EDGES). */
export interface CoverageDetails {
  byJob: CoverageFigures[];
  trend: TrendBucket[];
}

export interface CoverageReport extends CoverageSummary, CoverageDetails {
  scope: CoverageScope;
  value: string | null;
}

export interface GapEdge {
  jobId: string;
  datasetId: string;
  engine: string;
  namespace: string;
  /** Datasets and jobs downstream of the output dataset (its blast radius). */
  downstreamDatasets: number;
  downstreamJobs: number;
  /** True when the downstream walk hit a limit: the counts are lower bounds. */
  impactTruncated: boolean;
}

/** A job whose lineage nobody reports (derive.ts LINEAGE_UNKNOWN_FACET): no edge to rank, so a gap of its own. */
export interface LineageUnknownJob {
  jobId: string;
  namespace: string;
  engine: string;
  /** Why, as the reporter said (e.g. "connector class … is not in the mapping table"). */
  reason: string;
  lastSeen: string | null;
}

export interface CoverageGaps {
  /** Most downstream impact first (datasets, then jobs, then job id and dataset id). */
  gaps: GapEdge[];
  totalGaps: number;
  /** Jobs whose lineage is unknown, most recently seen first (at most `first`). */
  lineageUnknown: LineageUnknownJob[];
  totalLineageUnknown: number;
  /** True when not every gap could be ranked (over 500) or the scope was truncated. */
  truncated: boolean;
}

interface EdgeRow {
  jobId: string;
  readsNothing: boolean;
  /** Lineage collected by Tributary (the Kafka Connect collector), not reported: counted apart. */
  collected: boolean;
  namespace: string;
  engine: string;
  datasetId: string;
  current: boolean;
  firstSeen: string | null;
  lastSeen: string | null;
  outputFields: number;
  fieldsWithInputs: number;
  cllFirstSeen: string | null;
  cllLastSeen: string | null;
}

export class CoverageService {
  constructor(
    private readonly executor: Executor,
    private readonly limits: { maxNodes: number; maxDepth: number; maxCoverageEdges: number },
  ) {}

  async coverage(scope: CoverageScope, value: string | null, bucket: Bucket, from?: string | null, to?: string | null): Promise<CoverageReport> {
    const [summary, details] = await Promise.all([this.summary(scope, value), this.details(scope, value, bucket, from, to)]);
    return { scope, value, ...summary, ...details };
  }

  /**
   * Overall, by engine and by namespace, summed in Neo4j from the figures kept on each edge (a few
   * rows cross the wire whatever the scope's size). A store with edges written before those figures
   * were kept is summed here from its edges instead (bounded, and then possibly truncated).
   */
  async summary(scope: CoverageScope, value: string | null): Promise<CoverageSummary> {
    checkScope(scope, value);
    const groups = await this.executor.read<SummaryRow>(Query.CoverageSummary, { scope, value: scopeValue(scope, value) });
    const declared = await this.declared(scope, value);
    if (groups.some((g) => g.legacy > 0)) {
      const { rows, truncated } = await this.edges(scope, value);
      const current = rows.filter((r) => r.current);
      return {
        overall: withDeclared([figures('all', current)], declared, () => 'all')[0]!,
        byEngine: withDeclared(breakdown(current, (r) => r.engine), declared, (d) => d.engine),
        byNamespace: withDeclared(breakdown(current, (r) => r.namespace), declared, (d) => d.namespace),
        truncated,
      };
    }
    const sum = (key: string, rows: SummaryRow[]) => summed(key, rows);
    return {
      overall: withDeclared([sum('all', groups)], declared, () => 'all')[0]!,
      byEngine: withDeclared([...groupBy(groups, (g) => g.engine)].map(([k, rs]) => sum(k, rs)), declared, (d) => d.engine),
      byNamespace: withDeclared([...groupBy(groups, (g) => g.namespace)].map(([k, rs]) => sum(k, rs)), declared, (d) => d.namespace),
      truncated: groups.reduce((n, g) => n + g.allEdges, 0) > this.limits.maxCoverageEdges,
    };
  }

  /** The scope's DECLARED output edges per job (coverage-declared.cypher). */
  private declared(scope: CoverageScope, value: string | null): Promise<DeclaredRow[]> {
    return this.executor.read<DeclaredRow>(Query.CoverageDeclared, { scope, value: scopeValue(scope, value) });
  }

  /**
   * Current figures of every job (ALL scope) per (namespace, engine) of the job, summed in Neo4j;
   * most edges first. Edges written before the figures were kept count as dataset level here.
   */
  async byNamespaceAndEngine(): Promise<(CoverageFigures & { namespace: string; engine: string })[]> {
    const groups = await this.executor.read<SummaryRow>(Query.CoverageSummary, { scope: CoverageScope.ALL, value: scopeValue(CoverageScope.ALL, null) });
    return groups
      .map((g) => ({ ...summed(`${g.namespace}|${g.engine}`, [g]), namespace: g.namespace, engine: g.engine }))
      .sort((a, b) => b.edges - a.edges || (a.key < b.key ? -1 : 1));
  }

  /** By job (most edges first) and the trend, from the scope's edges (at most TRIBUTARY_MAX_COVERAGE_EDGES of them). */
  async details(scope: CoverageScope, value: string | null, bucket: Bucket, from?: string | null, to?: string | null): Promise<CoverageDetails> {
    checkCoverageArgs(scope, value, from, to);
    const [{ rows }, declared] = await Promise.all([this.edges(scope, value), this.declared(scope, value)]);
    return { byJob: withDeclared(breakdown(rows.filter((r) => r.current), (r) => r.jobId), declared, (d) => d.jobId), trend: coverageTrend(rows.filter((r) => !r.readsNothing && !r.collected), bucket, from, to) };
  }

  /**
   * Dataset-level-only current edges, ranked by the size of their output's blast radius. The
   * downstream of every ranked output comes from one engine walk from all of them at once; each
   * output's counts are then read off that walk's edges in memory, bounded like a lineage request
   * (maxDepth hops, maxNodes nodes) and marked truncated where the walk or those bounds stopped.
   */
  async gaps(scope: CoverageScope, value: string | null, first: number): Promise<CoverageGaps> {
    checkFirst(first, 200);
    const [{ rows, truncated }, unknown] = await Promise.all([
      this.edges(scope, value),
      this.executor.read<{ total: number; jobs: LineageUnknownJob[] }>(Query.LineageUnknownJobs, { scope, value: scopeValue(scope, value), limit: first }),
    ]);
    // A collected job has no producer to instrument: not a gap.
    const gapRows = rows.filter((r) => r.current && !r.readsNothing && !r.collected && r.fieldsWithInputs === 0);
    const ranked = gapRows.slice(0, MAX_RANKED_GAPS);
    const outputs = [...new Set(ranked.map((r) => r.datasetId))];
    const impact = await this.downstreamOf(outputs);
    const gaps: GapEdge[] = ranked.map((r) => {
      const i = impact.get(r.datasetId)!;
      return {
        jobId: r.jobId,
        datasetId: r.datasetId,
        engine: r.engine,
        namespace: r.namespace,
        downstreamDatasets: i.datasets,
        downstreamJobs: i.jobs,
        impactTruncated: i.truncated,
      };
    });
    gaps.sort((a, b) => b.downstreamDatasets - a.downstreamDatasets || b.downstreamJobs - a.downstreamJobs || cmp(a.jobId, b.jobId) || cmp(a.datasetId, b.datasetId));
    return {
      gaps: gaps.slice(0, first),
      totalGaps: gapRows.length,
      lineageUnknown: unknown[0]?.jobs ?? [],
      totalLineageUnknown: unknown[0]?.total ?? 0,
      truncated: truncated || gapRows.length > MAX_RANKED_GAPS,
    };
  }

  /** Datasets and jobs downstream of each dataset (current lineage), from one walk from all of them. */
  private async downstreamOf(datasetIds: string[]): Promise<Map<string, { datasets: number; jobs: number; truncated: boolean }>> {
    const out = new Map<string, { datasets: number; jobs: number; truncated: boolean }>();
    const { maxDepth, maxNodes, maxCoverageEdges } = this.limits;
    const reach = await this.executor.readTx('coverageGaps', (tx) =>
      downstreamOfEach(tx, datasetIds, { depth: maxDepth, maxNodes, maxTotal: maxCoverageEdges }),
    );
    for (const [id, { distance, truncated }] of reach) {
      let jobs = 0;
      for (const reached of distance.keys()) if (reached !== id && kindOf(reached) === EntityKind.JOB) jobs++;
      out.set(id, { datasets: distance.size - 1 - jobs, jobs, truncated });
    }
    return out;
  }

  private async edges(scope: CoverageScope, value: string | null): Promise<{ rows: EdgeRow[]; truncated: boolean }> {
    checkScope(scope, value);
    const limit = this.limits.maxCoverageEdges;
    const rows = await this.executor.read<EdgeRow>(Query.CoverageEdges, { scope, value: scopeValue(scope, value), limit: limit + 1 });
    return { rows: rows.slice(0, limit), truncated: rows.length > limit };
  }
}

/** Figures of current edges; the edges of jobs that read nothing only counted in noInputEdges. */
function figures(key: string, all: EdgeRow[]): CoverageFigures {
  const reported = all.filter((r) => !r.collected);
  const rows = reported.filter((r) => !r.readsNothing);
  const columnLevel = rows.filter((r) => r.fieldsWithInputs > 0).length;
  const outputFields = rows.reduce((n, r) => n + r.outputFields, 0);
  const fieldsWithInputs = rows.reduce((n, r) => n + r.fieldsWithInputs, 0);
  return coverageFigures(key, rows.length, columnLevel, outputFields, fieldsWithInputs, reported.length - rows.length, all.length - reported.length);
}

function breakdown(rows: EdgeRow[], key: (r: EdgeRow) => string): CoverageFigures[] {
  const groups = groupBy(rows, key);
  return sortFigures([...groups].map(([k, rs]) => figures(k, rs)));
}

/** Most edges first, then by key. */
function sortFigures(list: CoverageFigures[]): CoverageFigures[] {
  return list.sort((a, b) => b.edges - a.edges || cmp(a.key, b.key));
}

interface DeclaredRow {
  jobId: string;
  engine: string;
  namespace: string;
  declaredEdges: number;
}

/** Figures with their declaredEdges summed by `key`; a key with declared edges only gets a row of its own. */
function withDeclared(list: CoverageFigures[], declared: DeclaredRow[], key: (d: DeclaredRow) => string): CoverageFigures[] {
  const counts = new Map<string, number>();
  for (const d of declared) counts.set(key(d), (counts.get(key(d)) ?? 0) + Number(d.declaredEdges));
  const out = list.map((f) => ({ ...f, declaredEdges: counts.get(f.key) ?? 0 }));
  for (const [k, n] of counts) if (!list.some((f) => f.key === k)) out.push({ ...coverageFigures(k, 0, 0, 0, 0), declaredEdges: n });
  return sortFigures(out);
}

interface SummaryRow {
  engine: string;
  namespace: string;
  allEdges: number;
  legacy: number;
  edges: number;
  columnLevel: number;
  outputFields: number;
  fieldsWithInputs: number;
  noInputEdges: number;
  collectedEdges: number;
}

/** The figures of summed groups: the same numbers `figures` gives from their edges. */
function summed(key: string, rows: SummaryRow[]): CoverageFigures {
  const add = (f: (r: SummaryRow) => number) => rows.reduce((n, r) => n + f(r), 0);
  return coverageFigures(key, add((r) => r.edges), add((r) => r.columnLevel), add((r) => r.outputFields), add((r) => r.fieldsWithInputs), add((r) => r.noInputEdges), add((r) => r.collectedEdges));
}

/** Coverage figures from counts (shares rounded to 4 decimals, 0 for an empty denominator). */
export function coverageFigures(key: string, edges: number, columnLevel: number, outputFields: number, fieldsWithInputs: number, noInputEdges = 0, collectedEdges = 0): CoverageFigures {
  return {
    key,
    edges,
    columnLevel,
    datasetLevelOnly: edges - columnLevel,
    columnLevelShare: ratio(columnLevel, edges),
    outputFields,
    fieldsWithInputs,
    fieldShare: ratio(fieldsWithInputs, outputFields),
    noInputEdges,
    collectedEdges,
    declaredEdges: 0,
  };
}

function checkScope(scope: CoverageScope, value: string | null): void {
  if (scope !== CoverageScope.ALL && !value) throw badInput(`scope ${scope} needs a value`);
}

/**
 * Throws BAD_INPUT for arguments no coverage answer can use, before any work and whichever parts
 * are asked for: a scope other than ALL without a value, a trend `from` or `to` that is not an
 * ISO-8601 time, `to` before `from`.
 */
export function checkCoverageArgs(scope: CoverageScope, value: string | null, from?: string | null, to?: string | null): void {
  checkScope(scope, value);
  checkTrendWindow(from, to);
}

/**
 * A scope's value as the analytics queries take it: engines lower-cased, as they are stored; ALL's
 * (none) as '', which no query reads, so that every scope shares one plan (null is a parameter
 * type apart, and would need its own).
 */
export const scopeValue = (scope: CoverageScope, value: string | null): string =>
  scope === CoverageScope.ALL ? '' : scope === CoverageScope.ENGINE ? value!.toLowerCase() : value!;

/** Ranked gaps at most (the rest are counted in totalGaps). */
const MAX_RANKED_GAPS = 500;
