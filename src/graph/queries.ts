import fs from 'node:fs';
import path from 'node:path';

/**
 * The query loader. Every Cypher query is one file under cypher/ (schema statements excepted,
 * see schema.ts), named for what it answers, and listed here. Files are read once at start-up;
 * loading fails when a listed file is missing, an unlisted file exists, or a header lacks one of
 * `Purpose:`, `Parameters:` and `Columns:`. Queries run only through the executor, with parameters.
 */
export enum Query {
  StoreEvents = 'ingest/store-events',
  MarkProjected = 'ingest/mark-projected',
  PendingEvents = 'ingest/pending-events',
  StillPending = 'ingest/still-pending',
  ProjectionBacklog = 'admin/projection-backlog',
  LockProjection = 'ingest/lock-projection',
  RecordLogOffset = 'ingest/record-log-offset',
  LogOffsets = 'ingest/log-offsets',
  MergeJobs = 'ingest/merge-jobs',
  MergeDatasets = 'ingest/merge-datasets',
  MergeFields = 'ingest/merge-fields',
  MergeRuns = 'ingest/merge-runs',
  MergeInputs = 'ingest/merge-inputs',
  MergeOutputs = 'ingest/merge-outputs',
  MergeColumnLineage = 'ingest/merge-column-lineage',
  MergeFacets = 'ingest/merge-facets',
  MergeDatasetDependencies = 'ingest/merge-dataset-dependencies',
  MergeSymlinks = 'ingest/merge-symlinks',
  MergeParents = 'ingest/merge-parents',
  MergeNamespaces = 'ingest/merge-namespaces',
  RefreshCurrentIo = 'ingest/refresh-current-io',
  RefreshOutputCoverage = 'ingest/refresh-output-coverage',
  RunIoForVersions = 'ingest/run-io-for-versions',
  MergeJobVersions = 'ingest/merge-job-versions',
  DatasetsById = 'nodes/datasets-by-id',
  JobsById = 'nodes/jobs-by-id',
  RunsById = 'nodes/runs-by-id',
  FieldsOfDatasets = 'nodes/fields-of-datasets',
  LatestRunOfJobs = 'nodes/latest-run-of-jobs',
  JobIoOfJobs = 'nodes/job-io-of-jobs',
  RunIoOfRuns = 'nodes/run-io-of-runs',
  VersionsOfJobs = 'nodes/versions-of-jobs',
  DatasetProducersConsumers = 'nodes/dataset-producers-consumers',
  ExpandDownstream = 'lineage/expand-downstream',
  ExpandUpstream = 'lineage/expand-upstream',
  ExpandDownstreamAsOf = 'lineage/expand-downstream-as-of',
  ExpandUpstreamAsOf = 'lineage/expand-upstream-as-of',
  ExpandFieldsDownstream = 'lineage/expand-fields-downstream',
  ExpandFieldsUpstream = 'lineage/expand-fields-upstream',
  NodeExists = 'lineage/node-exists',
  TraceUpstreamStep = 'lineage/trace-upstream-step',
  TraceDownstreamStep = 'lineage/trace-downstream-step',
  ExpandDeclaredUpstream = 'lineage/expand-declared-upstream',
  ExpandDeclaredDownstream = 'lineage/expand-declared-downstream',
  TraceDeclaredUpstreamStep = 'lineage/trace-declared-upstream-step',
  TraceDeclaredDownstreamStep = 'lineage/trace-declared-downstream-step',
  StopContext = 'lineage/stop-context',
  DeclaredJobsOfDatasets = 'lineage/declared-jobs-of-datasets',
  JobsWritingNothing = 'lineage/jobs-writing-nothing',
  NamesLike = 'lineage/names-like',
  DeleteProjection = 'admin/delete-projection',
  EventsPage = 'admin/events-page',
  CountEvents = 'admin/count-events',
  SchemaApplied = 'admin/schema-applied',
  Ping = 'health/ping',
  PlanCache = 'health/plan-cache',
  PlanCompiles = 'health/plan-compiles',
  GraphCounts = 'health/graph-counts',
  UncommittedWrite = 'admin/uncommitted-write',
  CreateTokens = 'admin/create-tokens',
  IdentityRulesState = 'admin/identity-rules-state',
  RecordIdentityRules = 'admin/record-identity-rules',
  FacetStorageState = 'admin/facet-storage-state',
  RecordFacetStorage = 'admin/record-facet-storage',
  MigrateFacetStorage = 'admin/migrate-facet-storage',
  SummarizeNamespaces = 'admin/summarize-namespaces',
  CoverageEdges = 'analytics/coverage-edges',
  CoverageSummary = 'analytics/coverage-summary',
  DiffSnapshot = 'analytics/diff-snapshot',
  RunProvenance = 'analytics/run-provenance',
  RunReports = 'analytics/run-reports',
  LineageBreaks = 'analytics/lineage-breaks',
  CoverageDeclared = 'analytics/coverage-declared',
  LineageUnknownJobs = 'analytics/lineage-unknown-jobs',
  Search = 'nodes/search',
  Identity = 'nodes/identity',
  RunsOfJob = 'nodes/runs-of-job',
  RunLineage = 'lineage/run-lineage',
  ImpactDetails = 'lineage/impact-details',
  Namespaces = 'browse/namespaces',
  DatasetsByName = 'browse/datasets-by-name',
  DatasetsByLastSeen = 'browse/datasets-by-last-seen',
  JobsByName = 'browse/jobs-by-name',
  JobsByLastSeen = 'browse/jobs-by-last-seen',
  KnownTopics = 'kafka-connect/known-topics',
  ConnectorRuns = 'kafka-connect/connector-runs',
  PendingStatements = 'sql/pending-statements',
  WriteDeclared = 'sql/write-declared',
  TableCandidates = 'sql/table-candidates',
  WriteResolutions = 'sql/write-resolutions',
  DeclaredOfJobs = 'sql/declared-of-jobs',
  ExpandUndirected = 'lineage/expand-undirected',
  MarquezNamespaces = 'marquez/namespaces',
  MarquezJobsPage = 'marquez/jobs-page',
  MarquezJobsDetail = 'marquez/jobs-detail',
  MarquezRunsDetail = 'marquez/runs-detail',
  MarquezRunEvents = 'marquez/run-events',
  MarquezDatasetsPage = 'marquez/datasets-page',
  MarquezDatasetsDetail = 'marquez/datasets-detail',
  MarquezDatasetVersions = 'marquez/dataset-versions',
  MarquezFieldsDetail = 'marquez/fields-detail',
  MarquezColumnLineageStarts = 'marquez/column-lineage-starts',
  MarquezEventsPage = 'marquez/events-page',
  MarquezStatsEvents = 'marquez/stats-events',
  MarquezStatsCreated = 'marquez/stats-created',
  MarquezTags = 'marquez/tags',
  MarquezPutTag = 'marquez/put-tag',
  MarquezAnnotate = 'marquez/annotate',
  MarquezExistingIds = 'marquez/existing-ids',
  MarquezSources = 'marquez/sources',
  MarquezJobVersions = 'marquez/job-versions',
  MarquezEventsOfRuns = 'marquez/events-of-runs',
  MarquezSearch = 'marquez/search',
  MarquezLineageJobs = 'marquez/lineage-jobs',
  MarquezLineageDatasets = 'marquez/lineage-datasets',
}

export type QueryTexts = Readonly<Record<Query, string>>;

export const defaultCypherDir = (): string => path.resolve(__dirname, '..', '..', '..', 'cypher');

export function loadQueries(dir: string = defaultCypherDir()): QueryTexts {
  const files = listCypherFiles(dir).filter((f) => !f.startsWith('schema/'));
  const known = new Set<string>(Object.values(Query));
  const unlisted = files.map((f) => f.replace(/\.cypher$/, '')).filter((n) => !known.has(n));
  if (unlisted.length) throw new Error(`cypher files not listed in Query: ${unlisted.join(', ')}`);
  const out = {} as Record<Query, string>;
  for (const name of Object.values(Query)) {
    const file = path.join(dir, `${name}.cypher`);
    if (!fs.existsSync(file)) throw new Error(`missing cypher file for query ${name}: ${file}`);
    const text = fs.readFileSync(file, 'utf8');
    const header = text.split('\n').filter((l) => l.startsWith('//')).join('\n');
    for (const section of ['Purpose:', 'Parameters:', 'Columns:']) {
      if (!header.includes(section)) throw new Error(`${file}: header comment lacks "${section}"`);
    }
    out[name] = text;
  }
  return Object.freeze(out);
}

/** Relative paths (with '/') of all .cypher files below dir. */
export function listCypherFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (sub: string) => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.cypher')) out.push(rel);
    }
  };
  walk('');
  return out.sort();
}

/** A query's text without its comments and with every string literal emptied: what names and parameters are read from. */
export function cypherCode(text: string): string {
  return text.replace(/\/\/[^\n]*|'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, (m) => (m.startsWith('//') ? ' ' : "''"));
}

/** The parameters a query's text uses (`$name`). */
export function parameterNames(text: string): ReadonlySet<string> {
  return new Set([...cypherCode(text).matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!));
}
