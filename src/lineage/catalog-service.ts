import type { Executor } from '../graph/executor';
import { Query } from '../graph/queries';
import { badInput } from '../errors';
import { parseJsonProperty } from '../graph/mappers';
import { checkFirst } from './common';
import { fieldId } from '../ids';
import { parseNormalisation } from '../ingest/naming';
import { EntityKind, type DatasetRecord, type Facets, type FieldRecord, type JobRecord, type JobVersionRecord, type RunRecord, type SearchMatch, type SqlDeclarationRecord, type DeclaredTableRecord } from './types';

/** A run and a dataset: which run wrote (or read) that dataset. */
export interface RunLink {
  datasetId: string;
  runId: string;
}

type WithFacetPairs<T> = Omit<T, 'facets' | 'tags' | 'hiddenAt'> & { facets: [string, string | null][]; annotation?: { tags: string[] | null; hiddenAt: string | null } | null };

/** `[[key, json], ...]` as read (*-by-id.cypher, from the facet lists) → `{key: parsed}`. */
function facetsOf<T extends { facets: Facets }>(row: WithFacetPairs<T>): T {
  const facets: Facets = {};
  for (const [key, json] of [...row.facets].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (json !== null) facets[key] = parseJsonProperty(json);
  }
  const { annotation, ...rest } = row;
  return { ...rest, facets, ...annotated(annotation, (row as { lastSeen?: string | null }).lastSeen ?? null) } as unknown as T;
}

/** Tags and soft deletion written through Marquez's API; a deletion no longer holds once an event named the node after it. */
function annotated(a: { tags: string[] | null; hiddenAt: string | null } | null | undefined, lastSeen: string | null): { tags: string[]; hiddenAt: string | null } {
  const hiddenAt = a?.hiddenAt && (lastSeen === null || a.hiddenAt >= lastSeen) ? a.hiddenAt : null;
  return { tags: a?.tags ?? [], hiddenAt };
}

/**
 * Batched lookups of datasets, jobs, runs and their neighbourhoods. Every method takes a list of
 * ids and answers in the same order (null or [] where nothing matches): the shape DataLoader needs,
 * so a GraphQL response costs one query per kind of lookup, not one per parent.
 */
export class CatalogService {
  constructor(private readonly executor: Executor) {}

  async datasets(ids: readonly string[]): Promise<(DatasetRecord | null)[]> {
    const rows = await this.executor.read<{ dataset: WithFacetPairs<DatasetRecord> }>(Query.DatasetsById, { ids });
    const datasets = rows.map((r) => facetsOf<DatasetRecord>(r.dataset));
    for (const d of datasets) {
      d.rawNames ??= [];
      // Stored as JSON steps (identity-service.ts reads their codes); here `namespace|name: why`.
      d.normalisations = (d.normalisations ?? []).map((entry) => {
        const step = parseNormalisation(entry);
        return step ? `${step.namespace}|${step.name}: ${step.message}` : entry;
      });
    }
    return align(ids, datasets, (d) => d.id, null);
  }

  async jobs(ids: readonly string[]): Promise<(JobRecord | null)[]> {
    const rows = await this.executor.read<{ job: WithFacetPairs<JobRecord> }>(Query.JobsById, { ids });
    return align(ids, rows.map((r) => facetsOf<JobRecord>(r.job)), (j) => j.id, null);
  }

  async runs(ids: readonly string[]): Promise<(RunRecord | null)[]> {
    const rows = await this.executor.read<{ run: WithFacetPairs<RunRecord> }>(Query.RunsById, { ids });
    return align(ids, rows.map((r) => facetsOf<RunRecord>(r.run)), (r) => r.id, null);
  }

  /** Fields of each dataset, ordered by name. */
  async fieldsOfDatasets(ids: readonly string[]): Promise<FieldRecord[][]> {
    const rows = await this.executor.read<{ datasetId: string; fields: FieldRecord[] }>(Query.FieldsOfDatasets, { ids });
    return align(ids, rows, (r) => r.datasetId, null).map((r) => r?.fields ?? []);
  }

  /** The id of each job's latest run (by last event time), or null for a job never run. */
  async latestRunOfJobs(ids: readonly string[]): Promise<(string | null)[]> {
    const rows = await this.executor.read<{ jobId: string; runId: string | null }>(Query.LatestRunOfJobs, { ids });
    return align(ids, rows, (r) => r.jobId, null).map((r) => r?.runId ?? null);
  }

  /** Dataset ids each job reads and writes. */
  async jobIo(ids: readonly string[]): Promise<{ inputs: string[]; outputs: string[] }[]> {
    const rows = await this.executor.read<{ jobId: string; inputs: string[]; outputs: string[] }>(Query.JobIoOfJobs, { ids });
    return align(ids, rows, (r) => r.jobId, null).map((r) => ({ inputs: r?.inputs ?? [], outputs: r?.outputs ?? [] }));
  }

  /**
   * Full-text search over names, namespaces and descriptions (optionally within one namespace); one
   * page (at most 100) and the total. Ranked among the index's SEARCH_CANDIDATES most relevant
   * matches (`capped` when there were more): its cost follows that bound, not the graph. Kinds
   * without FIELD search the jobs-and-datasets index, so fields never crowd them out.
   */
  async search(text: string, kinds: EntityKind[] | null, skip: number, limit: number, namespace: string | null = null): Promise<{ total: number; capped: boolean; hits: SearchHit[] }> {
    checkFirst(limit, 100);
    const catalogOnly = kinds !== null && kinds.length > 0 && !kinds.includes(EntityKind.FIELD);
    const [row] = await this.executor.read<{ total: number; capped: boolean; hits: (Omit<SearchHit, 'otherNames'> & { aliases: AliasRow[] })[] }>(Query.Search, {
      index: catalogOnly ? 'catalog_search' : 'entity_search_v2',
      candidates: SEARCH_CANDIDATES,
      query: rankedQuery(text),
      text: text.trim().toLowerCase(),
      labels: kinds?.length ? kinds.map((k) => LABELS[k]) : null,
      namespace,
      skip,
      limit,
    });
    if (!row) return { total: 0, capped: false, hits: [] };
    const hits = row.hits.map(({ aliases, ...hit }) => ({
      ...hit,
      otherNames: aliases.map((a) => (hit.kind === EntityKind.FIELD ? fieldId(a.namespace, a.name, hit.name) : a.id)).sort(),
    }));
    return { total: row.total, capped: row.capped, hits };
  }

  /** One page of a job's runs, newest first, and the total. */
  async runsOfJob(
    jobId: string,
    filter: { states: string[] | null; since: string | null; until: string | null },
    skip: number,
    limit: number,
  ): Promise<{ total: number; runIds: string[] }> {
    checkFirst(limit, 200);
    const [row] = await this.executor.read<{ total: number; runIds: string[] }>(Query.RunsOfJob, { jobId, ...filter, skip, limit });
    return row ?? { total: 0, runIds: [] };
  }

  /** Run-level lineage: the runs that wrote what each run read, and the runs that read what it wrote. */
  async runLineage(ids: readonly string[]): Promise<{ upstream: RunLink[]; downstream: RunLink[] }[]> {
    const rows = await this.executor.read<{ runId: string; upstream: RunLink[]; downstream: RunLink[] }>(Query.RunLineage, { runIds: ids, limit: 200 });
    return align(ids, rows, (r) => r.runId, null).map((r) => ({ upstream: r?.upstream ?? [], downstream: r?.downstream ?? [] }));
  }

  /** Versions of each job, newest first. */
  async versionsOfJobs(ids: readonly string[]): Promise<JobVersionRecord[][]> {
    const rows = await this.executor.read<{ jobId: string; versions: JobVersionRecord[] }>(Query.VersionsOfJobs, { ids });
    return align(ids, rows, (r) => r.jobId, null).map((r) => r?.versions ?? []);
  }

  /** What the SQL declarer recorded for each job's current statement (null: no statement, or not parsed yet). */
  async sqlDeclarations(ids: readonly string[]): Promise<(SqlDeclarationRecord | null)[]> {
    const rows = await this.executor.read<{ jobId: string; parse: Omit<SqlDeclarationRecord, 'tables'>; tables: DeclaredTableRecord[] }>(Query.DeclaredOfJobs, { ids });
    return align(ids, rows, (r) => r.jobId, null).map((r) => (r ? { ...r.parse, tables: r.tables } : null));
  }

  /** Dataset ids each run read and wrote. */
  async runIo(ids: readonly string[]): Promise<{ inputs: string[]; outputs: string[] }[]> {
    const rows = await this.executor.read<{ runId: string; inputs: string[]; outputs: string[] }>(Query.RunIoOfRuns, { ids });
    return align(ids, rows, (r) => r.runId, null).map((r) => ({ inputs: r?.inputs ?? [], outputs: r?.outputs ?? [] }));
  }

  /** Job ids that write (producers) and read (consumers) each dataset. */
  async datasetJobs(ids: readonly string[]): Promise<{ producers: string[]; consumers: string[] }[]> {
    const rows = await this.executor.read<{ datasetId: string; producers: string[]; consumers: string[] }>(
      Query.DatasetProducersConsumers,
      { ids },
    );
    return align(ids, rows, (r) => r.datasetId, null).map((r) => ({
      producers: r?.producers ?? [],
      consumers: r?.consumers ?? [],
    }));
  }
}

/**
 * Index matches a search ranks at most (nodes/search.cypher): a one-letter prefix over millions of
 * fields stays cheap (XL, a word 10,000 tables share: 128 ms p50 ranking 10,000, see bench/README).
 */
export const SEARCH_CANDIDATES = 2_000;

/** The node label of each kind (runs are not in the search index: a RUN filter finds nothing). */
const LABELS: Record<EntityKind, string> = { DATASET: 'Dataset', JOB: 'Job', FIELD: 'Field', RUN: 'Run' };

export interface SearchHit {
  id: string;
  kind: EntityKind;
  namespace: string | null;
  name: string;
  description: string | null;
  datasetId: string | null;
  score: number;
  /** How the name matches the text (the ranking: EXACT, PREFIX, SEGMENT, WORD). */
  match: SearchMatch;
  /**
   * The hit's other names (symlinks of its dataset), by id: a dataset's other dataset ids, a field's
   * id under the other names of its dataset. They are not hits of their own.
   */
  otherNames: string[];
}

interface AliasRow {
  id: string;
  namespace: string;
  name: string;
}

/**
 * A Lucene query from free text: its words, split like the indexed `words` of a name (at anything
 * but letters and digits, so also at `.`, `_`, `/`, `:` and `-`), lower-cased, every word a required
 * prefix match (`paid_orders` → `+paid* +orders*`, `Orders cust-i` → `+orders* +cust* +i*`; CJK characters
 * one by one, as the analyzer indexes them). Nothing
 * else reaches Lucene, so no input is a syntax error. The ranking by the whole text is search.cypher's.
 */
const MAX_WORD = 200;

export function luceneQuery(text: string): string {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    // The index's standard analyzer makes each Han, Hiragana or Katakana character its own token.
    .flatMap((w) => w.split(/(\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana})/u))
    .filter(Boolean);
  if (words.length === 0) throw badInput('search text must contain a letter or digit');
  if (words.length > 20) throw badInput('search text has more than 20 words');
  // Lucene refuses a prefix query on a term of about 1,000 characters or more (automaton too large).
  if (words.some((w) => w.length > MAX_WORD)) throw badInput(`search words are at most ${MAX_WORD} characters long`);
  return words.map((w) => `+${w}*`).join(' ');
}

/**
 * luceneQuery, plus optional clauses that score a name equal to the whole text twenty times higher
 * and names starting with it ten times (`name:<text>^20 name:<text>*^10`; the standard analyzer
 * keeps a name such as `eval_shop.main.orders` one token): the index hands over its best matches
 * first, so exact and prefix matches are among the candidates a capped search ranks. Matches
 * nothing more. Only for text of at most 200 characters without spaces; every Lucene special
 * character escaped.
 */
export function rankedQuery(text: string): string {
  const words = luceneQuery(text);
  const whole = text.trim().toLowerCase();
  if (whole.length > MAX_WORD || /\s/.test(whole)) return words;
  const term = whole.replace(/[+\-&|!(){}[\]^"~*?:\\/]/g, '\\$&');
  return `${words} name:${term}^20 name:${term}*^10`;
}

function align<T, D>(ids: readonly string[], rows: T[], key: (t: T) => string, missing: D): (T | D)[] {
  const byId = new Map(rows.map((r) => [key(r), r]));
  return ids.map((id) => byId.get(id) ?? missing);
}
