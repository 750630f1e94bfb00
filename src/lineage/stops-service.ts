import type { TxRunner } from '../graph/executor';
import { Query } from '../graph/queries';
import { compare, rawNamespaces, segments, spelled, type Candidate } from './breaks-evidence';
import { luceneQuery } from './catalog-service';
import { cmp } from './common';
import { Direction, EdgeType, EntityKind, MatchStrength, StopReason, type FlowDirection, type IdentityRuleKind } from './types';
import { metadataStops } from './metadata-stops';
import { parentIdOf, type StepRow, type Traversal } from './traversal';

/**
 * Where a walk stops, and why, in words a steward reads: the datasets of a trace (or of its fields)
 * from which lineage does not go on, though the walk's bounds would have let it. For each, the
 * reason (StopReason) and candidates with evidence: another name of the dataset that lineage goes
 * on from (compared as lineageBreaks compares, STRONG or MEDIUM, with the identity rule that joins them), or a job
 * that reads and reports no output and whose SQL or name points at the dataset. Read in the walk's
 * transaction; at most MAX_STOPS stops are explained (the nearest first), `truncated` says so.
 */

export interface StopCandidate {
  /** A dataset (another name) or a job (an unreported writer). */
  id: string;
  kind: EntityKind;
  strength: MatchStrength;
  evidence: string[];
  /** The identity rule (TRIBUTARY_IDENTITY_RULES fragment, JSON) that joins the names; null for a job. */
  ruleKind: IdentityRuleKind | null;
  rule: string | null;
}

export interface TraceStop {
  /** The dataset where lineage stops (the name the walk reached). */
  datasetId: string;
  /** The walk's items in that dataset where it stops: fields, or the dataset itself. */
  itemIds: string[];
  /** Hops from the start (the nearest item). */
  distance: number;
  reason: StopReason;
  /** Why, in one or two sentences. */
  explanation: string;
  /** Strongest first. */
  candidates: StopCandidate[];
}

export interface Stops {
  stops: TraceStop[];
  /** More datasets stop than MAX_STOPS, or a candidate list was cut short: some are not explained. */
  truncated: boolean;
}

const MAX_STOPS = 20;
/** Search hits compared per stop, and jobs without outputs considered. */
const NAME_CANDIDATES = 50;
const SILENT_JOBS = 1000;
const CANDIDATES_PER_STOP = 5;
const RANK: Record<MatchStrength, number> = { [MatchStrength.STRONG]: 0, [MatchStrength.MEDIUM]: 1, [MatchStrength.WEAK]: 2 };

interface Context {
  id: string;
  namespace: string;
  name: string;
  aliases: { id: string; namespace: string; name: string }[];
  rawNames: string[];
  readers: string[];
  writers: string[];
  pastWriters: number;
  fields: string[];
}

/** A row of declared-jobs-of-datasets.cypher: a job whose SQL declares the edge its events do not report. */
interface DeclaredJob {
  jobId: string;
  engine: string | null;
  strength: 'STRONG' | 'MEDIUM';
  name: string;
  line: number;
  column: number;
  silent: boolean;
}

interface NameHit {
  id: string;
  namespace: string;
  name: string;
  written: boolean;
  read: boolean;
  writers: string[];
  readers: string[];
  rawNames: string[];
  fields: string[];
}

interface SilentJob {
  id: string;
  namespace: string;
  name: string;
  engine: string | null;
  integration: string | null;
  sql: string | null;
  inputs: string[];
}

/** A dataset a walk stops at: its items there, the nearest one's distance. */
export interface StopSite {
  datasetId: string;
  itemIds: string[];
  distance: number;
}

/** The datasets a walk stops at (items with no further edge, within its bounds), nearest first. */
export function stopsOf<R extends StepRow>(walk: Traversal<R>): StopSite[] {
  const continued = new Set<string>();
  for (const { row } of walk.edges) if (row.type !== EdgeType.ALIAS) continued.add(parentIdOf(row, walk.direction));
  const byDataset = new Map<string, StopSite>();
  for (const [id, { node, distance, parent }] of walk.reached) {
    if (node.kind === EntityKind.JOB || continued.has(id) || parent?.type === EdgeType.ALIAS) continue;
    if (walk.openFrom !== null && distance >= walk.openFrom) continue;
    const datasetId = node.kind === EntityKind.DATASET ? id : node.datasetId;
    if (!datasetId) continue;
    const entry = byDataset.get(datasetId) ?? { datasetId, itemIds: [], distance };
    entry.itemIds.push(id);
    entry.distance = Math.min(entry.distance, distance);
    byDataset.set(datasetId, entry);
  }
  return [...byDataset.values()].sort((a, b) => a.distance - b.distance || cmp(a.datasetId, b.datasetId)).map((e) => ({ ...e, itemIds: e.itemIds.sort(cmp) }));
}

export async function explainStops<R extends StepRow>(tx: TxRunner, walk: Traversal<R>): Promise<Stops> {
  const { metadata, rest } = metadataStops(walk, stopsOf(walk));
  const { stops, truncated } = await explainOthers(tx, walk, rest);
  const all = [...metadata, ...stops].sort((a, b) => a.distance - b.distance || cmp(a.datasetId, b.datasetId) || cmp(a.reason, b.reason));
  return { stops: all.slice(0, MAX_STOPS), truncated: truncated || all.length > MAX_STOPS };
}

async function explainOthers<R extends StepRow>(tx: TxRunner, walk: Traversal<R>, all: StopSite[]): Promise<Stops> {
  const found = all.slice(0, MAX_STOPS);
  if (found.length === 0) return { stops: [], truncated: false };
  const upstream = walk.direction === Direction.UPSTREAM;
  const contexts = new Map((await tx.run<Context>(Query.StopContext, { datasetIds: found.map((f) => f.datasetId) })).map((c) => [c.id, c]));
  const items = found.flatMap((f) => {
    const c = contexts.get(f.datasetId);
    const key = c ? lastWords(c) : '';
    if (!key) return [];
    try {
      return [{ datasetId: f.datasetId, query: luceneQuery(key) }];
    } catch {
      return []; // a name without searchable words: no other name to find
    }
  });
  const hits = new Map(
    (await tx.run<{ datasetId: string; candidates: NameHit[] }>(Query.NamesLike, { items, limit: NAME_CANDIDATES })).map((r) => [r.datasetId, r.candidates]),
  );
  const declared = new Map(
    (
      await tx.run<{ datasetId: string; jobs: DeclaredJob[] }>(Query.DeclaredJobsOfDatasets, { ids: found.map((f) => f.datasetId), role: upstream ? 'OUTPUT' : 'INPUT' })
    ).map((r) => [r.datasetId, r.jobs]),
  );
  let truncated = all.length > found.length;
  const explainAll = (silent: SilentJob[]) =>
    found.map((f) => {
      const c = contexts.get(f.datasetId);
      if (!c) return { ...f, reason: upstream ? StopReason.ORIGIN : StopReason.END, explanation: 'The dataset is no longer in the graph.', candidates: [] };
      const names = hits.get(f.datasetId) ?? [];
      if (names.length >= NAME_CANDIDATES) truncated = true;
      return { ...f, ...explain(c, names, silent, walk.direction, declared.get(f.datasetId) ?? []) };
    });
  let stops = explainAll([]);
  // Jobs without outputs (a scan of every job) are read only when a stop upstream is not already
  // explained by another name.
  if (upstream && stops.some((st) => st.reason !== StopReason.OTHER_NAME && st.reason !== StopReason.UNREPORTED_WRITER)) {
    const silent = await tx.run<SilentJob>(Query.JobsWritingNothing, { limit: SILENT_JOBS + 1 });
    truncated ||= silent.length > SILENT_JOBS;
    stops = explainAll(silent.slice(0, SILENT_JOBS));
  }
  return { stops, truncated };
}

/** The words a dataset's other names must share: its topic (Kafka) or last name segment. */
function lastWords(c: Context): string {
  return c.namespace.startsWith('kafka://') ? c.name : (segments(c.name).at(-1) ?? '');
}

function explain(
  c: Context,
  hits: NameHit[],
  silent: SilentJob[],
  direction: FlowDirection,
  declared: DeclaredJob[],
): Pick<TraceStop, 'reason' | 'explanation' | 'candidates'> {
  const upstream = direction === Direction.UPSTREAM;
  const own = new Set([c.id, ...c.aliases.map((a) => a.id)]);
  const me: Candidate = { id: c.id, namespace: c.namespace, name: c.name, fields: c.fields, rawNamespaces: rawNamespaces(c.rawNames) };
  const others: StopCandidate[] = [];
  for (const h of hits) {
    if (own.has(h.id) || !(upstream ? h.written : h.read)) continue;
    const them: Candidate = { id: h.id, namespace: h.namespace, name: h.name, fields: h.fields, rawNamespaces: rawNamespaces(h.rawNames) };
    // Upstream the stop is read and never written: it is the `read` side; downstream the other way.
    const e = upstream ? compare(me, them) : compare(them, me);
    // Only the last segment in common (or schemas that disagree): a guess, not an explanation.
    if (!e || e.strength === MatchStrength.WEAK) continue;
    const jobs = upstream ? h.writers : h.readers;
    others.push({
      id: h.id,
      kind: EntityKind.DATASET,
      strength: e.strength,
      evidence: [...e.evidence, `${spelled(h.namespace, h.name)} is ${upstream ? 'written' : 'read'} by ${jobs.join(', ')}`],
      ruleKind: e.ruleKind,
      rule: e.rule,
    });
  }
  const sqlJobs = declared.map((j) => declaredCandidate(j, upstream));
  const writers = upstream ? silentWriters(c, silent).filter((w) => !declared.some((j) => j.jobId === w.id)) : [];
  const candidates = [...others, ...sqlJobs, ...writers].sort((a, b) => RANK[a.strength] - RANK[b.strength] || cmp(a.id, b.id)).slice(0, CANDIDATES_PER_STOP);
  const title = `${c.name} (${c.namespace || 'empty namespace'})`;
  const best = candidates[0];
  // A STRONG other name explains the stop; MEDIUM ones (the same schema.table, nothing else to
  // compare) are listed, the reason staying ORIGIN or END.
  const maybe = candidates.length > 0 ? ` Names that may be the same dataset (${candidates[0]!.strength.toLowerCase()} evidence) are listed as candidates.` : '';
  if (best?.kind === EntityKind.DATASET && best.strength === MatchStrength.STRONG) {
    const [ns, name] = [hits.find((h) => h.id === best.id)!.namespace, hits.find((h) => h.id === best.id)!.name];
    return {
      reason: StopReason.OTHER_NAME,
      explanation: upstream
        ? `Lineage stops at ${title}: no job Tributary knows writes it under this name. It is probably ${name} (${ns || 'empty namespace'}) under another producer's naming (${best.strength.toLowerCase()} evidence); the identity rule in \`rule\` joins the two names and the trace goes on.`
        : `Nothing Tributary knows reads ${title} under this name. It is probably ${name} (${ns || 'empty namespace'}) under another producer's naming (${best.strength.toLowerCase()} evidence); the identity rule in \`rule\` joins the two names and lineage goes on.`,
      candidates,
    };
  }
  const sql = declared[0];
  if (sql && sql.strength === 'STRONG' && !(best?.kind === EntityKind.DATASET && best.strength === MatchStrength.STRONG)) {
    const at = `${sql.name} (line ${sql.line}, column ${sql.column})`;
    return upstream
      ? {
          reason: StopReason.UNREPORTED_WRITER,
          explanation: `Lineage stops at ${title}: no job reports writing it. ${sql.jobId} ${sql.silent ? 'reported no output' : 'does not report writing it'}; its SQL writes ${at}: DECLARED lineage, which trace(evidence: ALL) follows.`,
          candidates,
        }
      : {
          reason: StopReason.UNREPORTED_READER,
          explanation: `Lineage ends at ${title} as reported: ${sql.jobId}'s SQL reads ${at}, though its events do not list it: DECLARED lineage, which trace(evidence: ALL) follows.`,
          candidates,
        };
  }
  const writer = candidates.find((x) => x.kind === EntityKind.JOB);
  if (writer) {
    return {
      reason: StopReason.UNREPORTED_WRITER,
      explanation: `Lineage stops at ${title}: no job reports writing it. ${writer.id} reads and reports no output, and ${writer.evidence[0]}: its producer does not report this output.`,
      candidates,
    };
  }
  if (upstream) {
    const readBy = c.readers.length ? ` read by ${c.readers.join(', ')} and` : '';
    const past = c.pastWriters > 0 ? ` (${c.pastWriters} job(s) wrote it before; none does now)` : '';
    return {
      reason: StopReason.ORIGIN,
      explanation: `Lineage starts at ${title}: it is${readBy} written by no job Tributary knows${past}: a source system, or a producer that sends no OpenLineage.${maybe}`,
      candidates,
    };
  }
  const kafka = c.namespace.startsWith('kafka://')
    ? ' Kafka Connect sink connectors are such readers: no OpenLineage producer reports them.'
    : '';
  return { reason: StopReason.END, explanation: `Lineage ends at ${title}: nothing Tributary knows reads it, or its readers send no OpenLineage.${kafka}${maybe}`, candidates };
}

/**
 * Jobs that read and report no output whose SQL names the dataset (its whole name, or its last two
 * segments: STRONG) or whose name holds the words (two or more) of its last segment (MEDIUM).
 */
function silentWriters(c: Context, silent: SilentJob[]): StopCandidate[] {
  const names = [c, ...c.aliases];
  const keys = names.flatMap((n) => {
    const s = segments(n.name);
    return [n.name.toLowerCase(), s.length > 1 ? `${s.at(-2)}.${s.at(-1)}` : ''].filter((k) => k.length > 2);
  });
  const last = segments(c.name).at(-1) ?? '';
  // A name match needs two words at least (`orders_by_country`): one common word (`orders`) names too many jobs.
  const lastTokens = last.split(/[^a-z0-9]+/).filter(Boolean);
  const byNameAtAll = lastTokens.length >= 2;
  const out: StopCandidate[] = [];
  for (const j of silent) {
    const sql = (j.sql ?? '').toLowerCase().replace(/[`"[\]]/g, '');
    const inSql = keys.find((k) => sql.includes(k));
    const jobTokens = new Set(j.name.toLowerCase().split(/[^a-z0-9]+/));
    const byName = byNameAtAll && lastTokens.every((t) => jobTokens.has(t));
    if (!inSql && !byName) continue;
    const engine = j.integration ?? j.engine ?? 'its engine';
    out.push({
      id: j.id,
      kind: EntityKind.JOB,
      strength: inSql ? MatchStrength.STRONG : MatchStrength.MEDIUM,
      evidence: [
        inSql ? `its SQL names ${inSql}` : `its name ${j.name} holds the words of ${last}`,
        `it reads ${j.inputs.join(', ')} and reports no output (${engine})`,
      ],
      ruleKind: null,
      rule: null,
    });
  }
  return out;
}

/** A job whose SQL declares the edge at a stop (declared-jobs-of-datasets.cypher) as a candidate. */
function declaredCandidate(j: DeclaredJob, upstream: boolean): StopCandidate {
  const engine = j.engine ?? 'its engine';
  return {
    id: j.jobId,
    kind: EntityKind.JOB,
    strength: j.strength === 'STRONG' ? MatchStrength.STRONG : MatchStrength.MEDIUM,
    evidence: [
      `its SQL ${upstream ? 'writes' : 'reads'} ${j.name} (line ${j.line}, column ${j.column}), resolved to this dataset ${j.strength === 'STRONG' ? 'by its qualified name' : 'by its table name alone'}`,
      upstream
        ? j.silent ? `it reports no output (${engine})` : `its events do not report writing this dataset (${engine})`
        : j.silent ? `it reports no input (${engine})` : `its events do not list this dataset as an input (${engine})`,
    ],
    ruleKind: null,
    rule: null,
  };
}
