import DataLoader from 'dataloader';
import type { BrowseService } from '../lineage/browse-service';
import type { CatalogService, RunLink } from '../lineage/catalog-service';
import type { LineageService } from '../lineage/lineage-service';
import type { TraceService } from '../lineage/trace-service';
import type { ImpactService } from '../lineage/impact-service';
import type { CoverageService } from '../lineage/coverage-service';
import type { DiffService } from '../lineage/diff-service';
import type { BreaksService } from '../lineage/breaks-service';
import type { PathService } from '../lineage/path-service';
import type { IdentityService } from '../lineage/identity-service';
import type { DatasetRecord, FieldRecord, JobRecord, JobVersionRecord, RunRecord, SqlDeclarationRecord } from '../lineage/types';

/** Services shared by all requests. */
export interface Services {
  catalog: CatalogService;
  browse: BrowseService;
  lineage: LineageService;
  trace: TraceService;
  impact: ImpactService;
  coverage: CoverageService;
  diff: DiffService;
  breaks: BreaksService;
  paths: PathService;
  identity: IdentityService;
  /** Defaults of arguments that come from config (TRIBUTARY_DEFAULT_DEPTH, TRIBUTARY_MAX_DEPTH). */
  limits: { defaultDepth: number; maxDepth: number };
}

/**
 * Per-request DataLoaders: each batches the keys requested in one tick into one Cypher query and
 * caches results for the request only (no stale data across requests).
 */
export interface Loaders {
  dataset: DataLoader<string, DatasetRecord | null>;
  job: DataLoader<string, JobRecord | null>;
  run: DataLoader<string, RunRecord | null>;
  fields: DataLoader<string, FieldRecord[]>;
  latestRun: DataLoader<string, string | null>;
  jobIo: DataLoader<string, { inputs: string[]; outputs: string[] }>;
  runIo: DataLoader<string, { inputs: string[]; outputs: string[] }>;
  datasetJobs: DataLoader<string, { producers: string[]; consumers: string[] }>;
  versions: DataLoader<string, JobVersionRecord[]>;
  runLineage: DataLoader<string, { upstream: RunLink[]; downstream: RunLink[] }>;
  sqlDeclaration: DataLoader<string, SqlDeclarationRecord | null>;
}

export interface Context {
  services: Services;
  loaders: Loaders;
  /**
   * Runs this request's walks (root fields in WALK_FIELDS) one after another: a request holds one
   * heavy admission slot (src/http/lanes.ts), so its aliases must not run twenty walks in Neo4j at
   * once behind it (src/graphql/walks.ts).
   */
  walks: <T>(work: () => Promise<T>) => Promise<T>;
}

export function createContext(services: Services): Context {
  const c = services.catalog;
  return {
    services,
    walks: oneAtATime(),
    loaders: {
      dataset: new DataLoader((ids) => c.datasets(ids)),
      job: new DataLoader((ids) => c.jobs(ids)),
      run: new DataLoader((ids) => c.runs(ids)),
      fields: new DataLoader((ids) => c.fieldsOfDatasets(ids)),
      latestRun: new DataLoader((ids) => c.latestRunOfJobs(ids)),
      jobIo: new DataLoader((ids) => c.jobIo(ids)),
      runIo: new DataLoader((ids) => c.runIo(ids)),
      datasetJobs: new DataLoader((ids) => c.datasetJobs(ids)),
      versions: new DataLoader((ids) => c.versionsOfJobs(ids)),
      runLineage: new DataLoader((ids) => c.runLineage(ids)),
      sqlDeclaration: new DataLoader((ids) => c.sqlDeclarations(ids)),
    },
  };
}

/** Loads many ids and drops the ones that no longer exist. */
export async function loadAll<T>(loader: DataLoader<string, T | null>, ids: string[]): Promise<T[]> {
  const values = await loader.loadMany(ids);
  return values.filter((v): v is T => v !== null && !(v instanceof Error));
}

/** A FIFO of async work, one at a time; a failure fails only its own work. */
export function oneAtATime(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>) => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
}
