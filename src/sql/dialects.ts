/**
 * Which SQL dialect a job's statement is written in, from what its events say: the `sql` job
 * facet's `dialect` (OpenLineage SQLJobFacet), else the job's engine (jobType integration, or the
 * producer URI: src/ingest/plan.ts engineOf), else the scheme of the namespaces of the datasets it
 * reads and writes when they all name one dialect (dbt on PostgreSQL: `postgres://…`). Only dialects dt-sql-parser has a grammar for are
 * parsed; any other (dbt on DuckDB, BigQuery, Snowflake, ...) is said, never parsed with a
 * grammar that is not its own.
 */
export const SQL_DIALECTS = ['spark', 'flink', 'hive', 'trino', 'postgresql', 'mysql'] as const;
export type SqlDialect = (typeof SQL_DIALECTS)[number];

const ALIASES: Record<string, SqlDialect> = {
  spark: 'spark',
  sparksql: 'spark',
  databricks: 'spark',
  flink: 'flink',
  flinksql: 'flink',
  hive: 'hive',
  hiveql: 'hive',
  trino: 'trino',
  presto: 'trino',
  athena: 'trino',
  postgres: 'postgresql',
  postgresql: 'postgresql',
  redshift: 'postgresql',
  mysql: 'mysql',
  mariadb: 'mysql',
};

/** Dataset namespace schemes (OpenLineage naming) that name a dialect. */
const SCHEMES: Record<string, SqlDialect> = {
  postgres: 'postgresql',
  postgresql: 'postgresql',
  redshift: 'postgresql',
  mysql: 'mysql',
  trino: 'trino',
  presto: 'trino',
  awsathena: 'trino',
  hive: 'hive',
  spark: 'spark',
  databricks: 'spark',
};

export interface DialectChoice {
  /** null: not one the parser knows. */
  dialect: SqlDialect | null;
  /** What it was read from, and what it said ("sql facet dialect duckdb", "engine spark"). */
  from: string;
}

export function dialectOf(facetDialect: string | null | undefined, engine: string | null | undefined, schemes: readonly string[] = []): DialectChoice {
  const said = (facetDialect ?? '').trim().toLowerCase();
  if (said) return { dialect: ALIASES[said.replace(/[^a-z]/g, '')] ?? null, from: `sql facet dialect ${said}` };
  const e = (engine ?? '').trim().toLowerCase();
  const byEngine = ALIASES[e.replace(/[^a-z]/g, '')];
  if (byEngine) return { dialect: byEngine, from: `engine ${e}` };
  const named = [...new Set(schemes.map((s) => SCHEMES[s.trim().toLowerCase()]))];
  if (schemes.length > 0 && named.length === 1 && named[0]) return { dialect: named[0], from: `dataset namespace ${[...new Set(schemes)].join(', ')}` };
  return { dialect: null, from: e ? `engine ${e}` : 'no dialect and no engine' };
}
