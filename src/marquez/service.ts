import { notFound } from '../errors';
import type { Executor, TxRunner } from '../graph/executor';
import { eventText } from '../graph/event-text';
import { parseJsonProperty } from '../graph/mappers';
import { Query } from '../graph/queries';
import { datasetId, derivedUuid, fieldId, jobId, runId } from '../ids';
import { rankedQuery, type CatalogService } from '../lineage/catalog-service';
import { EntityKind } from '../lineage/types';
import { normaliseDatasetName, type IdentityRules } from '../ingest/naming';
import { NamespaceList, type NamespaceRow } from './namespace-list';
import { datasetShape, datasetVersionShape, datasetVersionUuid, jobShape, runShape, TRIBUTARY_STATES, type DatasetRow, type Json, type JobRow, type RunRow, type VersionRow } from './shapes';

/**
 * Marquez's read API over Tributary's graph (src/marquez/routes.ts serves it): namespaces, jobs,
 * runs and their facets, datasets and their versions, events, search, tags, and the writes Marquez's
 * web UI makes (tags, soft delete: cypher/marquez/annotate.cypher). Lineage is in lineage.ts.
 * Answers are Marquez's shapes (shapes.ts); a missing namespace, job, dataset or run is NOT_FOUND
 * with Marquez's message. Pages are bounded by the route's limit (Marquez's default 100).
 */
export interface Page {
  limit: number;
  offset: number;
}

/** The most run events read to rebuild one run's facets (a run of more is answered from its first events). */
const MAX_RUN_EVENTS = 1_000;

export class MarquezService {
  private readonly namespaceList: NamespaceList;

  constructor(
    private readonly executor: Executor,
    private readonly catalog: CatalogService,
    /** The identity rules in force: event names are matched to datasets as projection names them. */
    private readonly rules: IdentityRules,
    /** Moves whenever this process's projection may have changed the graph (ProjectionWriter.finished). */
    projections: () => number,
  ) {
    this.namespaceList = new NamespaceList({ load: (limit) => this.namespaceRows(null, 0, limit), generation: projections });
  }

  async namespaces(page: Page): Promise<Json[]> {
    const all = await this.namespaceList.all();
    const rows = all ? all.slice(page.offset, page.offset + page.limit) : await this.namespaceRows(null, page.offset, page.limit);
    return rows.map((r) => namespaceShape(r));
  }

  async namespace(name: string): Promise<Json> {
    const all = await this.namespaceList.all();
    const row = all ? all.find((r) => r.name === name) : (await this.namespaceRows(name, 0, 1))[0];
    if (!row) throw notFound(`Namespace '${name}' not found.`);
    return namespaceShape(row);
  }

  private namespaceRows(name: string | null, skip: number, limit: number): Promise<NamespaceRow[]> {
    return this.executor.read<NamespaceRow>(Query.MarquezNamespaces, { name, skip, limit });
  }

  /** `query` in `tx` when given (one snapshot with the caller's other reads), else in its own read transaction. */
  private query<Row>(tx: TxRunner | undefined, query: Query, params: Record<string, unknown>): Promise<Row[]> {
    return tx ? tx.run<Row>(query, params) : this.executor.read<Row>(query, params);
  }

  private jobsPage(namespace: string | null, states: string[] | null, page: Page, tx?: TxRunner) {
    return this.query<{ total: number; ids: string[] }>(tx, Query.MarquezJobsPage, { namespace, states, skip: page.offset, limit: page.limit }).then((r) => r[0] ?? { total: 0, ids: [] });
  }

  private datasetsPage(namespace: string, page: Page, tx: TxRunner) {
    return this.query<{ total: number; ids: string[] }>(tx, Query.MarquezDatasetsPage, { namespace, skip: page.offset, limit: page.limit }).then((r) => r[0] ?? { total: 0, ids: [] });
  }

  /**
   * Jobs of a namespace (null: all), newest first; `states` are Marquez run states (null: all). The
   * page, its jobs and their runs are read in one transaction: one snapshot, one commit.
   */
  jobs(namespace: string | null, states: string[] | null, page: Page): Promise<{ jobs: Json[]; totalCount: number }> {
    const tributaryStates = states ? [...new Set(states.flatMap((s) => TRIBUTARY_STATES[s] ?? []))] : null;
    return this.executor.readTx('marquez jobs', async (tx) => {
      const { total, ids } = await this.jobsPage(namespace, tributaryStates, page, tx);
      return { jobs: await this.jobsById(ids, false, tx), totalCount: total };
    });
  }

  /** A job; a soft-deleted one is NOT_FOUND unless `withHidden` (the answer to its own deletion). */
  async job(namespace: string, name: string, withHidden = false): Promise<Json> {
    const [job] = await this.jobsById([jobId(namespace, name)], withHidden);
    if (!job) throw notFound(`Job '${name}' not found.`);
    return job;
  }

  /** Jobs in Marquez's shape, in the order of `ids` (missing or soft-deleted ones left out unless `withHidden`). */
  async jobsById(ids: string[], withHidden = false, tx?: TxRunner): Promise<Json[]> {
    if (ids.length === 0) return [];
    const rows = await this.jobRows(ids, tx);
    const visible = rows.filter((r) => withHidden || !r.hidden);
    const runs = await this.runsById(visible.flatMap((r) => r.runIds), tx);
    return visible.map((r) => jobShape(r, r.runIds.map((id) => runs.get(id)).filter((x): x is Json => x !== undefined)));
  }

  /** The rows of jobs-detail.cypher, in the order of `ids`, missing ones left out. */
  async jobRows(ids: string[], tx?: TxRunner): Promise<JobRow[]> {
    const rows = await this.query<JobRow>(tx, Query.MarquezJobsDetail, { ids });
    const byId = new Map(rows.map((r) => [r.job.id, r]));
    return ids.map((id) => byId.get(id)).filter((r): r is JobRow => r !== undefined);
  }

  /** Runs in Marquez's shape by run node id. */
  async runsById(ids: string[], tx?: TxRunner): Promise<Map<string, Json>> {
    if (ids.length === 0) return new Map();
    const rows = await this.query<RunRow>(tx, Query.MarquezRunsDetail, { ids: [...new Set(ids)] });
    return new Map(rows.map((r) => [r.run.id, runShape(r)]));
  }

  async runsOfJob(namespace: string, name: string, page: Page): Promise<{ runs: Json[]; totalCount: number }> {
    const id = jobId(namespace, name);
    const [exists] = await this.jobRows([id]);
    if (!exists) throw notFound(`Job '${name}' not found.`);
    const { total, runIds } = await this.catalog.runsOfJob(id, { states: null, since: null, until: null }, page.offset, Math.max(1, page.limit));
    const runs = await this.runsById(page.limit === 0 ? [] : runIds);
    return { runs: runIds.slice(0, page.limit).map((r) => runs.get(r)).filter((r): r is Json => r !== undefined), totalCount: total };
  }

  async run(uuid: string): Promise<Json> {
    const runs = await this.runsById([runId(uuid)]);
    const run = runs.get(runId(uuid));
    if (!run) throw notFound(`Run '${uuid}' not found.`);
    return run;
  }

  /**
   * The job or run facets of a run, as its events sent them (later events' facets replace earlier
   * ones of the same key), rebuilt from the stored events: Marquez keeps facets per run, Tributary's
   * graph keeps the latest per job.
   */
  async runFacets(uuid: string, type: 'JOB' | 'RUN'): Promise<Json> {
    const id = runId(uuid);
    const rows = await this.executor.read<{ raw: unknown }>(Query.MarquezRunEvents, { runId: id, limit: MAX_RUN_EVENTS });
    if (rows.length === 0) {
      if ((await this.runsById([id])).size === 0) throw notFound(`Run '${uuid}' not found.`);
    }
    const facets: Json = {};
    for (const { raw } of rows) {
      const event = parseJsonProperty(eventText(raw)) as { job?: { facets?: Json }; run?: { facets?: Json } } | null;
      const sent = type === 'JOB' ? event?.job?.facets : event?.run?.facets;
      if (sent && typeof sent === 'object') Object.assign(facets, sent);
    }
    return { runId: uuid.toLowerCase(), facets };
  }

  /** A namespace's datasets, page and details read in one transaction. */
  datasets(namespace: string, page: Page): Promise<{ datasets: Json[]; totalCount: number }> {
    return this.executor.readTx('marquez datasets', async (tx) => {
      const { total, ids } = await this.datasetsPage(namespace, page, tx);
      if (total === 0 && (await this.jobsPage(namespace, null, { limit: 1, offset: 0 }, tx)).total === 0) throw notFound(`Namespace '${namespace}' not found.`);
      const rows = await this.datasetRows(ids, true, tx);
      return { datasets: rows.map(datasetShape), totalCount: total };
    });
  }

  /** A dataset; a soft-deleted one is NOT_FOUND unless `withHidden` (the answer to its own deletion). */
  async dataset(namespace: string, name: string, withHidden = false): Promise<Json> {
    const [row] = await this.datasetRows([datasetId(namespace, name)]);
    if (!row || (row.hidden && !withHidden)) throw notFound(`Dataset '${name}' not found.`);
    return datasetShape(row);
  }

  /** The rows of datasets-detail.cypher, in the order of `ids`, missing ones left out (column lineage read unless told not to). */
  async datasetRows(ids: string[], withColumnLineage = true, tx?: TxRunner): Promise<DatasetRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.query<DatasetRow>(tx, Query.MarquezDatasetsDetail, { ids, withColumnLineage });
    const byId = new Map(rows.map((r) => [r.dataset.id, r]));
    return ids.map((id) => byId.get(id)).filter((r): r is DatasetRow => r !== undefined);
  }

  async datasetVersions(namespace: string, name: string, page: Page): Promise<{ versions: Json[]; totalCount: number }> {
    const id = datasetId(namespace, name);
    const [ds] = await this.datasetRows([id]);
    if (!ds) throw notFound(`Dataset '${name}' not found.`);
    const [row] = await this.executor.read<{ total: number; versions: VersionRow[] }>(Query.MarquezDatasetVersions, { datasetId: id, skip: page.offset, limit: page.limit });
    const versions = row?.versions ?? [];
    const [runs, facets] = await Promise.all([this.runsById(versions.map((v) => v.runId)), this.writtenFacets(id, versions.map((v) => v.runId))]);
    return { versions: versions.map((v) => datasetVersionShape(ds, v, runs.get(v.runId) ?? null, facets.get(v.runId) ?? {})), totalCount: row?.total ?? 0 };
  }

  /**
   * The dataset facets each run's stored events sent for the dataset `dsId` as an output (later
   * events' keys replace earlier ones), by run: what Marquez keeps on a dataset version.
   */
  private async writtenFacets(dsId: string, runIds: string[]): Promise<Map<string, Json>> {
    if (runIds.length === 0) return new Map();
    const rows = await this.executor.read<{ runId: string; raws: unknown[] }>(Query.MarquezEventsOfRuns, { runIds, limit: MAX_RUN_EVENTS });
    const out = new Map<string, Json>();
    for (const { runId: run, raws } of rows) {
      const facets: Json = {};
      for (const raw of raws) {
        type Io = { namespace?: unknown; name?: unknown; facets?: unknown; inputFacets?: unknown };
        const event = parseJsonProperty(eventText(raw)) as { inputs?: Io[]; outputs?: Io[] } | null;
        const list = (x: Io[] | undefined) => (Array.isArray(x) ? x : []);
        // As Marquez merges them: the output's dataset facets, then what the same run read of it
        // (a MERGE reads its target too), dataset facets and input facets (inputStatistics).
        for (const [io, keys] of [[list(event?.outputs), ['facets']], [list(event?.inputs), ['facets', 'inputFacets']]] as const) {
          for (const o of io) {
            if (typeof o?.namespace !== 'string' || typeof o.name !== 'string') continue;
            const n = normaliseDatasetName(o.namespace, o.name, this.rules);
            if (datasetId(n.namespace, n.name) !== dsId) continue;
            for (const key of keys) if (o[key] && typeof o[key] === 'object') Object.assign(facets, o[key]);
          }
        }
      }
      out.set(run, facets);
    }
    return out;
  }

  async datasetVersion(namespace: string, name: string, version: string): Promise<Json> {
    const id = datasetId(namespace, name);
    const [ds] = await this.datasetRows([id]);
    if (!ds) throw notFound(`Dataset '${name}' not found.`);
    const [row] = await this.executor.read<{ total: number; versions: VersionRow[] }>(Query.MarquezDatasetVersions, { datasetId: id, skip: 0, limit: 100_000 });
    const v = (row?.versions ?? []).find((x) => datasetVersionUuid(id, x.runId) === version.toLowerCase());
    if (v) {
      const [runs, facets] = await Promise.all([this.runsById([v.runId]), this.writtenFacets(id, [v.runId])]);
      return datasetVersionShape(ds, v, runs.get(v.runId) ?? null, facets.get(v.runId) ?? {});
    }
    throw notFound(`Dataset version '${version}' not found.`);
  }

  /** Sources: the datasets' dataSource names (Marquez's type is the connection URI's scheme here, not always POSTGRESQL). */
  async sources(name: string | null, page: Page): Promise<Json[]> {
    const rows = await this.executor.read<{ name: string; connectionUrl: string | null; createdAt: string; updatedAt: string }>(Query.MarquezSources, { name, skip: page.offset, limit: page.limit });
    return rows.map((r) => ({
      type: /^([a-z][a-z0-9+.-]*):/i.exec(r.connectionUrl ?? '')?.[1]?.toUpperCase() ?? 'DB',
      name: r.name,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      connectionUrl: r.connectionUrl ?? '',
      description: null,
    }));
  }

  async source(name: string): Promise<Json> {
    const [source] = await this.sources(name, { limit: 1, offset: 0 });
    if (!source) throw notFound(`Source '${name}' not found.`);
    return source;
  }

  /** A job's versions, newest first (Marquez's JobVersion: the datasets of each, its latest run). */
  async jobVersions(namespace: string, name: string, page: Page): Promise<Json[]> {
    const id = jobId(namespace, name);
    const [job] = await this.jobRows([id]);
    if (!job) throw notFound(`Job '${name}' not found.`);
    const rows = await this.executor.read<{ id: string; firstSeen: string; inputs: Json[]; outputs: Json[]; latestRunId: string | null }>(Query.MarquezJobVersions, {
      jobId: id,
      skip: page.offset,
      limit: page.limit,
    });
    const runs = await this.runsById(rows.map((r) => r.latestRunId).filter((r): r is string => r !== null));
    return rows.map((v) => {
      const version = derivedUuid(v.id);
      return {
        id: { namespace, name, version },
        name,
        createdAt: v.firstSeen,
        version,
        namespace,
        location: job.job.sourceCodeUrl ?? null,
        inputs: v.inputs,
        outputs: v.outputs,
        latestRun: v.latestRunId ? (runs.get(v.latestRunId) ?? null) : null,
      };
    });
  }

  async jobVersion(namespace: string, name: string, version: string): Promise<Json> {
    const found = (await this.jobVersions(namespace, name, { limit: 100_000, offset: 0 })).find((v) => v.version === version);
    if (!found) throw notFound(`Job version '${version}' not found.`);
    return found;
  }

  /** Events in [after, before), RunEvents listed; the total counts every stored event in the window. */
  async events(after: string, before: string, asc: boolean, page: Page): Promise<{ events: unknown[]; totalCount: number }> {
    const [row] = await this.executor.read<{ total: number; raws: unknown[] }>(Query.MarquezEventsPage, { after, before, asc, skip: page.offset, limit: page.limit });
    return { events: (row?.raws ?? []).map((r) => parseJsonProperty(eventText(r))), totalCount: row?.total ?? 0 };
  }

  async statsEvents(buckets: { start: string; end: string }[]): Promise<Json[]> {
    const rows = await this.executor.read<{ start: string; end: string; fail: number; started: number; complete: number; abort: number }>(Query.MarquezStatsEvents, { buckets });
    return rows.map((r) => ({ startInterval: r.start, endInterval: r.end, fail: r.fail, start: r.started, complete: r.complete, abort: r.abort }));
  }

  async statsCreated(what: 'jobs' | 'datasets' | 'sources', buckets: { start: string; end: string }[]): Promise<Json[]> {
    const [row] = await this.executor.read<{ counts: number[] }>(Query.MarquezStatsCreated, { what, ends: buckets.map((b) => b.end) });
    return buckets.map((b, i) => ({ startInterval: b.start, endInterval: b.end, count: row?.counts[i] ?? 0 }));
  }

  async tags(page: Page): Promise<Json[]> {
    return this.executor.read<{ name: string; description: string | null }>(Query.MarquezTags, { skip: page.offset, limit: page.limit });
  }

  async putTag(name: string, description: string | null): Promise<Json> {
    const [row] = await this.executor.writeTx('marquez put-tag', (tx) => tx.run<Json>(Query.MarquezPutTag, { name, description, now: new Date().toISOString() }));
    return row!;
  }

  /** Adds or removes a tag on a job, dataset or field, or soft-deletes a job or dataset; NOT_FOUND when it does not exist. */
  async annotate(target: { kind: EntityKind.JOB | EntityKind.DATASET; namespace: string; name: string; field?: string }, change: { addTag?: string; removeTag?: string; hide?: boolean }): Promise<void> {
    const kind = target.field !== undefined ? EntityKind.FIELD : target.kind;
    const id =
      target.field !== undefined ? fieldId(target.namespace, target.name, target.field) : target.kind === EntityKind.JOB ? jobId(target.namespace, target.name) : datasetId(target.namespace, target.name);
    const rows = await this.executor.writeTx('marquez annotate', (tx) =>
      tx.run(Query.MarquezAnnotate, { id, kind, addTag: change.addTag ?? null, removeTag: change.removeTag ?? null, hide: change.hide ?? false, now: new Date().toISOString() }),
    );
    if (rows.length === 0) {
      const what = target.field !== undefined ? `Field '${target.field}'` : target.kind === EntityKind.JOB ? `Job '${target.name}'` : `Dataset '${target.name}'`;
      throw notFound(`${what} not found.`);
    }
  }

  /**
   * Search as Marquez's `/search` answers it: jobs and datasets whose words start with the text's
   * words (Tributary's full-text index; Marquez matches a substring anywhere), in the index's score
   * order, soft-deleted ones left out; `totalCount` is the page's length, as Marquez's is.
   */
  async search(q: string, filter: 'JOB' | 'DATASET' | null, namespace: string | null, limit: number): Promise<{ totalCount: number; results: Json[] }> {
    const labels = filter === 'JOB' ? ['Job'] : filter === 'DATASET' ? ['Dataset'] : ['Job', 'Dataset'];
    const rows = await this.executor.read<{ kind: 'JOB' | 'DATASET'; name: string; namespace: string; lastSeen: string | null }>(Query.MarquezSearch, {
      query: rankedQuery(q),
      labels,
      namespace,
      limit,
    });
    const results = rows.map((h) => ({
      type: h.kind,
      name: h.name,
      updatedAt: h.lastSeen,
      namespace: h.namespace,
      nodeId: `${h.kind === 'JOB' ? 'job' : 'dataset'}:${h.namespace}:${h.name}`,
    }));
    return { totalCount: results.length, results };
  }
}

function namespaceShape(r: NamespaceRow): Json {
  return { name: r.name, createdAt: r.createdAt, updatedAt: r.updatedAt, ownerName: 'anonymous', description: null, isHidden: false };
}
