import type { Executor } from '../graph/executor';
import { Query } from '../graph/queries';
import { compare, lastSegment, rawNamespaces, spelled, type Evidence } from './breaks-evidence';
import { cmp } from './common';
import { groupBy } from './group';
import { downstreamOfEach } from './traversal';
import { BreakRole, type IdentityRuleKind, IoDirection, MatchStrength } from './types';

/**
 * Where lineage breaks at engine boundaries: datasets read but never written by a known job
 * (SOURCE), written but never read (SINK), and probable matches: a SOURCE and a written dataset
 * (read elsewhere or not) whose names probably denote one dataset under other naming
 * (breaks-evidence.ts grades them). Every SOURCE is compared with every written dataset sharing its
 * last name segment (the topic, for Kafka); a pair is never a match when the two are one node, are
 * symlinked, or the written one is downstream of the read one (a job, or a path, already connects
 * them: a connector reading topic `orders` and writing `topics/orders` is not a break).
 */

export interface BreakDataset {
  id: string;
  namespace: string;
  name: string;
  role: BreakRole;
  /** Up to 5 readers (SOURCE) or writers (SINK). */
  jobs: string[];
  engines: string[];
  aliases: string[];
}

export interface ProbableMatch {
  /** The dataset read and never written (a SOURCE). */
  sourceId: string;
  /** The written dataset it probably is. */
  writtenId: string;
  /** Same as writtenId (kept for clients of the sink/source pairs). */
  sinkId: string;
  /** What both names share: schema.table, the last segment, or the topic. */
  key: string;
  strength: MatchStrength;
  evidence: string[];
  /** The identity rule that would merge them, and the rules-file fragment (JSON). */
  ruleKind: IdentityRuleKind;
  rule: string;
}

/**
 * A job whose SQL declares the missing edge of a break (the SQL declarer): it writes a SOURCE
 * (OUTPUT) or reads a SINK (INPUT), though its events do not report that edge.
 */
export interface DeclaredBreakJob {
  datasetId: string;
  role: BreakRole;
  jobId: string;
  direction: IoDirection;
  /** STRONG: the statement's qualified name resolves to the dataset; MEDIUM: the table name alone. */
  strength: MatchStrength;
  /** The table as the statement names it, and where. */
  name: string;
  line: number;
  column: number;
  /** The job reports no output at all (OUTPUT), or no input (INPUT). */
  silent: boolean;
}

export interface LineageBreaks {
  sources: BreakDataset[];
  sinks: BreakDataset[];
  probableMatches: ProbableMatch[];
  /** Breaks a job's SQL declares the edge of: by datasetId, then strength, jobId; at most 5 per break. */
  declaredJobs: DeclaredBreakJob[];
  /** True when more datasets exist than were compared (the limit), or a connectivity walk was cut short. */
  truncated: boolean;
}

/** A row of lineage-breaks.cypher: a break (SOURCE, SINK) or a dataset read and written (THROUGH). */
type Row = (BreakDataset | (Omit<BreakDataset, 'role'> & { role: 'THROUGH' })) & { rawNames?: string[] };
type Break = BreakDataset & { rawNames?: string[] };

/** Matches kept per read dataset (the strongest), so that a common name cannot flood the answer. */
const MATCHES_PER_SOURCE = 10;
const RANK: Record<MatchStrength, number> = { [MatchStrength.STRONG]: 0, [MatchStrength.MEDIUM]: 1, [MatchStrength.WEAK]: 2 };

export class BreaksService {
  constructor(
    private readonly executor: Executor,
    private readonly limits: { maxRows: number; maxDepth: number; maxNodes: number; maxCoverageEdges: number },
  ) {}

  async breaks(namespacePrefix: string | null): Promise<LineageBreaks> {
    const { maxRows } = this.limits;
    const rows = await this.executor.read<Row>(Query.LineageBreaks, { namespace: namespacePrefix, limit: maxRows + 1 });
    const list = rows.slice(0, maxRows);
    const sources = oneEntryPerDataset(list.filter((r): r is Break => r.role === BreakRole.SOURCE));
    const sinks = oneEntryPerDataset(list.filter((r): r is Break => r.role === BreakRole.SINK));
    const [{ matches, truncated }, declaredJobs] = await Promise.all([
      this.matches(sources, list.filter((r) => r.role !== BreakRole.SOURCE)),
      this.declaredJobs(sources, sinks),
    ]);
    return { sources, sinks, probableMatches: matches, declaredJobs, truncated: truncated || rows.length > maxRows };
  }

  /** Jobs whose SQL writes a SOURCE or reads a SINK, unreported (declared-jobs-of-datasets.cypher). */
  private async declaredJobs(sources: Break[], sinks: Break[]): Promise<DeclaredBreakJob[]> {
    type Row = { datasetId: string; jobs: Omit<DeclaredBreakJob, 'datasetId' | 'role' | 'direction'>[] };
    const ask = async (breaks: Break[], role: BreakRole, direction: IoDirection) =>
      breaks.length === 0
        ? []
        : (await this.executor.read<Row>(Query.DeclaredJobsOfDatasets, { ids: breaks.map((b) => b.id), role: direction })).flatMap((r) =>
            r.jobs.map((j) => ({ ...j, line: Number(j.line), column: Number(j.column), datasetId: r.datasetId, role, direction })),
          );
    const [written, read] = await Promise.all([ask(sources, BreakRole.SOURCE, IoDirection.OUTPUT), ask(sinks, BreakRole.SINK, IoDirection.INPUT)]);
    return [...written, ...read].sort((a, b) => cmp(a.datasetId, b.datasetId) || RANK[a.strength] - RANK[b.strength] || cmp(a.jobId, b.jobId));
  }

  private async matches(sources: Break[], written: Row[]): Promise<{ matches: ProbableMatch[]; truncated: boolean }> {
    const byKey = groupBy(written, (w) => lastSegment(w) || undefined);
    const pairs = sources.flatMap((s) =>
      (byKey.get(lastSegment(s)) ?? []).filter((w) => w.id !== s.id && !s.aliases.includes(w.id)).map((w) => ({ s, w })),
    );
    if (pairs.length === 0) return { matches: [], truncated: false };
    const ids = [...new Set(pairs.flatMap((p) => [p.s.id, p.w.id]))];
    const [fields, connected] = await Promise.all([this.fieldNames(ids), this.downstream([...new Set(pairs.map((p) => p.s.id))])]);
    const found: ProbableMatch[] = [];
    for (const { s, w } of pairs) {
      const reach = connected.get(s.id)!;
      if (reach.distance.has(w.id) || w.aliases.some((a) => reach.distance.has(a))) continue;
      const e = compare(
        { ...s, fields: fields.get(s.id) ?? [], rawNamespaces: rawNamespaces(s.rawNames) },
        { ...w, fields: fields.get(w.id) ?? [], rawNamespaces: rawNamespaces(w.rawNames) },
      );
      if (!e) continue;
      found.push(match(s, w, e, reach.truncated));
    }
    const kept = [...groupBy(found, (m) => m.sourceId).values()].flatMap((ms) => ms.sort(order).slice(0, MATCHES_PER_SOURCE));
    return { matches: kept.sort(order), truncated: [...connected.values()].some((c) => c.truncated) };
  }

  /** Field names known under each dataset. */
  private async fieldNames(ids: string[]): Promise<Map<string, string[]>> {
    const rows = await this.executor.read<{ datasetId: string; fields: { name: string }[] }>(Query.FieldsOfDatasets, { ids });
    return new Map(rows.map((r) => [r.datasetId, r.fields.map((f) => f.name)]));
  }

  /** What each dataset reaches downstream (current lineage), from one walk from all of them. */
  private downstream(ids: string[]): Promise<Map<string, { distance: Map<string, number>; truncated: boolean }>> {
    const { maxDepth, maxNodes, maxCoverageEdges } = this.limits;
    return this.executor.readTx('lineageBreaks', (tx) => downstreamOfEach(tx, ids, { depth: maxDepth, maxNodes, maxTotal: maxCoverageEdges }));
  }
}

/**
 * The names of one dataset (joined by SYMLINK: a warehouse path and its catalog table) as one
 * entry: the name its jobs use (the lowest id among those with jobs, else the lowest id), with the
 * other names in `aliases` and the jobs and engines of all of them. Ordered by id.
 */
export function oneEntryPerDataset<T extends BreakDataset & { rawNames?: string[] }>(rows: T[]): T[] {
  const groups = groupBy(rows, (r) => [r.id, ...r.aliases].sort(cmp)[0]!);
  const merged = [...groups.values()].map((members) => {
    const ordered = [...members].sort((a, b) => Number(b.jobs.length > 0) - Number(a.jobs.length > 0) || cmp(a.id, b.id));
    const head = ordered[0]!;
    const names = new Set(members.flatMap((m) => [m.id, ...m.aliases]));
    names.delete(head.id);
    const union = (pick: (m: T) => string[], cap: number) => [...new Set(ordered.flatMap(pick))].sort(cmp).slice(0, cap);
    const rawNames = union((m) => m.rawNames ?? [], Infinity);
    return { ...head, aliases: [...names].sort(cmp), jobs: union((m) => m.jobs, 5), engines: union((m) => m.engines, Infinity), ...(rawNames.length ? { rawNames } : {}) };
  });
  return merged.sort((a, b) => cmp(a.id, b.id));
}

function match(s: Break, w: Row, e: Evidence, walkTruncated: boolean): ProbableMatch {
  const written = w.role === BreakRole.SINK ? 'written and never read' : 'written and read';
  return {
    sourceId: s.id,
    writtenId: w.id,
    sinkId: w.id,
    key: e.key,
    strength: e.strength,
    evidence: [
      ...e.evidence,
      `${spelled(s.namespace, s.name)} is read (by ${s.jobs.join(', ')}; ${s.engines.join(', ')}) and never written`,
      `${spelled(w.namespace, w.name)} is ${written} (by ${w.jobs.join(', ') || 'no job'}; ${w.engines.join(', ')})`,
      walkTruncated ? 'no lineage connects them within the walked bounds (the walk was cut short)' : 'no job or lineage path connects them',
    ],
    ruleKind: e.ruleKind,
    rule: e.rule,
  };
}

const order = (a: ProbableMatch, b: ProbableMatch) => RANK[a.strength] - RANK[b.strength] || cmp(a.sourceId, b.sourceId) || cmp(a.writtenId, b.writtenId);
