import { badInput } from '../errors';
import type { Executor } from '../graph/executor';
import { Query } from '../graph/queries';
import { checkFirst, normaliseAsOf } from './common';
import { scopeValue, type CoverageFigures } from './coverage-service';
import {
  compare,
  reportsNeeded,
  snapshotCoverage,
  toSnapshot,
  withCauses,
  withReports,
  type DiffChange,
  type Provenance,
  type Report,
  type Snapshot,
  type SnapshotRow,
} from './diff-compare';
import { CoverageScope, DiffChangeKind } from './types';

/**
 * Lineage diff: what changed in a scope's lineage between two times, from the run history the
 * graph keeps (the same `asOf` rule as lineage: a job's edges at T are those of its latest run that
 * had reported IO by T), and the coverage at both ends, both read by the same rules. A run counts
 * with everything it reported, also what its events after T added (a run still going at T counts
 * with its final report). Field comparisons need the runs' reports (runs projected since they are
 * kept, or after `npm run reproject`); `unrecorded` counts the edges where they are missing.
 */

export interface DiffRequest {
  scope: CoverageScope;
  value: string | null;
  /** ISO-8601. */
  from: string;
  /** ISO-8601; null: now. */
  to: string | null;
  /** Only these kinds (all when null or empty). */
  kinds: DiffChangeKind[] | null;
  first: number;
  offset: number;
}

export interface CoverageDelta {
  edges: number;
  columnLevel: number;
  columnLevelShare: number;
  fieldShare: number;
}

export interface DiffCount {
  kind: DiffChangeKind;
  count: number;
}

export interface LineageDiff {
  scope: CoverageScope;
  value: string | null;
  from: string;
  /** As asked (null: the end was the time of the request). */
  to: string | null;
  coverageFrom: CoverageFigures;
  coverageTo: CoverageFigures;
  /** to minus from. */
  delta: CoverageDelta;
  /** Changes of every kind asked for, by kind (kinds without changes left out). */
  counts: DiffCount[];
  /** A page of the changes (order: DiffChangeKind, then job id, dataset id, direction, field, input field id). */
  changes: DiffChange[];
  offset: number;
  total: number;
  /** True when the scope had more edges than TRIBUTARY_MAX_COVERAGE_EDGES at either end: the diff is partial. */
  truncated: boolean;
  /** Edges present at both ends whose fields or field edges were not compared (not recorded: reproject to fill). */
  unrecorded: number;
}

export class DiffService {
  constructor(
    private readonly executor: Executor,
    private readonly limits: { maxCoverageEdges: number },
  ) {}

  async diff(req: DiffRequest): Promise<LineageDiff> {
    if (req.scope !== CoverageScope.ALL && !req.value) throw badInput(`scope ${req.scope} needs a value`);
    checkFirst(req.first, 1000);
    const from = normaliseAsOf(req.from, 'from');
    const to = req.to ? normaliseAsOf(req.to, 'to') : null;
    // Without `to`, the end is now, read by the same rules as `from` (so nothing differs but time).
    const end = to ?? new Date().toISOString();
    if (end < from) throw badInput('to must not be before from');
    const [a, b] = await Promise.all([this.snapshot(req.scope, req.value, from), this.snapshot(req.scope, req.value, end)]);
    // The runs' full reports only where the runs differ: memory follows what changed, not the scope.
    const needed = reportsNeeded(a, b);
    const reports: Report[] = [];
    for (let i = 0; i < needed.length; i += 1000) reports.push(...(await this.executor.read<Report>(Query.RunReports, { edges: needed.slice(i, i + 1000) })));
    withReports(a, reports);
    withReports(b, reports);
    const cmp = compare(a, b);
    const wanted = req.kinds && req.kinds.length > 0 ? new Set(req.kinds) : null;
    const changes = wanted ? cmp.changes.filter((c) => wanted.has(c.kind)) : cmp.changes;
    const page = changes.slice(req.offset, req.offset + req.first);
    await this.explain(page);
    const coverageFrom = snapshotCoverage('from', a);
    const coverageTo = snapshotCoverage('to', b);
    const counts = new Map<DiffChangeKind, number>();
    for (const c of changes) counts.set(c.kind, (counts.get(c.kind) ?? 0) + 1);
    return {
      scope: req.scope,
      value: req.value,
      from,
      to,
      coverageFrom,
      coverageTo,
      delta: {
        edges: coverageTo.edges - coverageFrom.edges,
        columnLevel: coverageTo.columnLevel - coverageFrom.columnLevel,
        columnLevelShare: round(coverageTo.columnLevelShare - coverageFrom.columnLevelShare),
        fieldShare: round(coverageTo.fieldShare - coverageFrom.fieldShare),
      },
      counts: [...counts].map(([kind, count]) => ({ kind, count })),
      changes: page,
      offset: req.offset,
      total: changes.length,
      truncated: a.truncated || b.truncated,
      unrecorded: cmp.unrecorded,
    };
  }

  /**
   * The scope's lineage at `at` (null: current, as `coverage` counts it), at most
   * TRIBUTARY_MAX_COVERAGE_EDGES edges, without the runs' full reports (see withReports).
   */
  async snapshot(scope: CoverageScope, value: string | null, at: string | null): Promise<Snapshot> {
    const limit = this.limits.maxCoverageEdges;
    const rows = await this.executor.read<SnapshotRow>(Query.DiffSnapshot, { scope, value: scopeValue(scope, value), at, limit: limit + 1 });
    return toSnapshot(rows.slice(0, limit), at, rows.length > limit);
  }

  /** Fills cause and producers of the granularity changes among `changes`. */
  async explain(changes: DiffChange[]): Promise<void> {
    const runs = changes.filter(isGranularity).flatMap((c) => [c.fromRunId, c.toRunId]);
    withCauses(changes, await this.provenance(runs.filter((r): r is string => r !== null)));
  }

  /** What produced each run (producer URI, engine and adapter versions, code signature). */
  async provenance(runIds: string[]): Promise<Map<string, Provenance>> {
    const ids = [...new Set(runIds)];
    if (ids.length === 0) return new Map();
    const rows = await this.executor.read<Provenance>(Query.RunProvenance, { runIds: ids });
    return new Map(rows.map((r) => [r.runId, r]));
  }
}

const isGranularity = (c: DiffChange) => c.kind === DiffChangeKind.GRANULARITY_REGRESSED || c.kind === DiffChangeKind.GRANULARITY_IMPROVED;
const round = (x: number) => Math.round(x * 10_000) / 10_000;
