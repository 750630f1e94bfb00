import { RE2JS } from 're2js';

/**
 * What a Kafka Connect connector reads and writes, from its class and configuration (as the
 * Connect REST API returns them), in OpenLineage dataset naming. One entry per connector class;
 * a class not in the table is UNKNOWN (never a guess), and a connector that reports its own
 * lineage (Debezium with `openlineage.integration.enabled=true`) is SELF_REPORTED: the collector
 * leaves it to its integration.
 *
 * Contract: pure and total. Any configuration (missing keys, garbage, a regex that does not
 * compile or matches nothing) gives an answer with its reasons in `notes`; nothing throws.
 */

export interface DatasetName {
  namespace: string;
  name: string;
}

export type MappingStatus = 'MAPPED' | 'UNKNOWN' | 'SELF_REPORTED';

export interface ConnectorLineage {
  status: MappingStatus;
  /** The table row that applied (its connector class), or null for UNKNOWN. */
  mapping: string | null;
  inputs: DatasetName[];
  outputs: DatasetName[];
  /** What was read from the configuration and how (topics.regex matches, defaults used, keys missing). */
  notes: string[];
}

export interface MappingContext {
  /** The Kafka namespace of the cluster's topics: kafka://<the worker's bootstrap servers>. */
  kafkaNamespace: string;
  /** Topic names Tributary knows under that cluster (to match `topics.regex`). */
  knownTopics: readonly string[];
}

type Config = Record<string, string | undefined>;

interface Row {
  /** How the table in the README names the row. */
  label: string;
  map(config: Config, ctx: MappingContext, notes: string[]): { inputs: DatasetName[]; outputs: DatasetName[] };
}

/** Most topics one `topics.regex` may expand to; the rest are said in notes. */
export const MAX_REGEX_TOPICS = 1_000;
/** Longest `topics.regex` compiled. Matching is RE2 (linear time): no pattern can stall a round. */
const MAX_REGEX_LENGTH = 10_000;

const list = (v: string | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const topic = (ctx: MappingContext, name: string): DatasetName => ({ namespace: ctx.kafkaNamespace, name });

/** A sink's topics: `topics`, or `topics.regex` matched against the topics Tributary knows. */
function sinkTopics(config: Config, ctx: MappingContext, notes: string[]): string[] {
  const named = list(config.topics);
  if (named.length) return named;
  const pattern = config['topics.regex'];
  if (!pattern) {
    notes.push('neither topics nor topics.regex is set');
    return [];
  }
  if (pattern.length > MAX_REGEX_LENGTH) {
    notes.push(`topics.regex is ${pattern.length} characters long: not compiled (at most ${MAX_REGEX_LENGTH})`);
    return [];
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (err) {
    // RE2 has no lookaround or backreferences (java.util.regex has): such a pattern is said, not run.
    notes.push(`topics.regex ${JSON.stringify(pattern)} is not an RE2 pattern (${(err as Error).message}): its topics are unknown`);
    return [];
  }
  // Kafka matches the whole topic name (java.util.regex Matcher.matches).
  const matched = ctx.knownTopics.filter((t) => re.matches(t)).sort();
  if (matched.length === 0) notes.push(`topics.regex ${JSON.stringify(pattern)} matches none of the ${ctx.knownTopics.length} topics Tributary knows under ${ctx.kafkaNamespace}`);
  else notes.push(`topics.regex ${JSON.stringify(pattern)} matches ${matched.length} known topic(s): ${matched.slice(0, 10).join(', ')}${matched.length > 10 ? ', …' : ''}`);
  if (matched.length > MAX_REGEX_TOPICS) notes.push(`only the first ${MAX_REGEX_TOPICS} matches are inputs`);
  return matched.slice(0, MAX_REGEX_TOPICS);
}

/** A JDBC URL's OpenLineage namespace (scheme://host:port) and database, or null. */
export function jdbcNamespace(url: string | undefined): { namespace: string; database: string | null } | null {
  const m = /^jdbc:([a-z0-9]+):\/\/([^/;?]+)(?:\/([^;?]*))?/i.exec(url ?? '');
  if (!m) return null;
  const scheme = m[1]!.toLowerCase() === 'postgresql' ? 'postgres' : m[1]!.toLowerCase();
  const defaults: Record<string, string> = { postgres: '5432', mysql: '3306', mariadb: '3306', sqlserver: '1433' };
  const host = m[2]!.includes(':') || !defaults[scheme] ? m[2]! : `${m[2]}:${defaults[scheme]}`;
  return { namespace: `${scheme}://${host.toLowerCase()}`, database: m[3] ? decoded(m[3]) : null };
}

const decoded = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s; // a % that is no escape
  }
};

const qualified = (database: string | null, table: string, defaultSchema: string | null) => {
  const parts = table.split('.');
  const withSchema = parts.length === 1 && defaultSchema ? [defaultSchema, ...parts] : parts;
  return [...(database && withSchema.length < 3 ? [database] : []), ...withSchema].join('.');
};

const debezium = (scheme: string, port: string): Row => ({
  label: `Debezium ${scheme} source`,
  map: (config, ctx, notes) => {
    const host = config['database.hostname'];
    const prefix = config['topic.prefix'] ?? config['database.server.name'];
    const tables = list(config['table.include.list'] ?? config['table.whitelist']);
    if (!host) notes.push('database.hostname is not set');
    if (!prefix) notes.push('topic.prefix is not set');
    if (!tables.length) notes.push('table.include.list is not set: every captured table is unknown here');
    const ns = `${scheme}://${(host ?? 'unknown').toLowerCase()}:${config['database.port'] ?? port}`;
    const db = config['database.dbname'] ?? null;
    return {
      inputs: host ? tables.map((t) => ({ namespace: ns, name: qualified(db, t, null) })) : [],
      outputs: prefix ? tables.map((t) => topic(ctx, `${prefix}.${t}`)) : [],
    };
  },
});

const jdbcSource: Row = {
  label: 'JDBC source',
  map: (config, ctx, notes) => {
    const url = jdbcNamespace(config['connection.url']);
    if (!url) notes.push('connection.url is not a JDBC URL');
    const tables = list(config['table.whitelist'] ?? config['table.include.list']);
    const prefix = config['topic.prefix'] ?? '';
    if (config.query) notes.push('query mode: the tables of the query are not read (see DECLARED datasets)');
    if (!tables.length && !config.query) notes.push('table.whitelist is not set: every table of the database is unknown here');
    return {
      inputs: url ? tables.map((t) => ({ namespace: url.namespace, name: qualified(url.database, t, url.namespace.startsWith('postgres') ? 'public' : null) })) : [],
      outputs: config.query ? (prefix ? [topic(ctx, prefix)] : []) : tables.map((t) => topic(ctx, `${prefix}${t}`)),
    };
  },
};

const jdbcSink: Row = {
  label: 'JDBC sink',
  map: (config, ctx, notes) => {
    const url = jdbcNamespace(config['connection.url']);
    if (!url) notes.push('connection.url is not a JDBC URL');
    const topics = sinkTopics(config, ctx, notes);
    const format = config['table.name.format'] ?? '${topic}';
    return {
      inputs: topics.map((t) => topic(ctx, t)),
      outputs: url ? topics.map((t) => ({ namespace: url.namespace, name: qualified(url.database, format.split('${topic}').join(t), url.namespace.startsWith('postgres') ? 'public' : null) })) : [],
    };
  },
};

/** The connector classes the collector maps (README: "Lineage no producer sends"). */
export const CONNECTOR_CLASSES: Readonly<Record<string, Row>> = {
  'org.apache.kafka.connect.file.FileStreamSinkConnector': {
    label: 'FileStreamSink',
    map: (config, ctx, notes) => {
      if (!config.file) notes.push('file is not set (the worker writes to its standard output)');
      return { inputs: sinkTopics(config, ctx, notes).map((t) => topic(ctx, t)), outputs: config.file ? [{ namespace: 'file', name: config.file }] : [] };
    },
  },
  'org.apache.kafka.connect.file.FileStreamSourceConnector': {
    label: 'FileStreamSource',
    map: (config, ctx, notes) => {
      if (!config.file) notes.push('file is not set (the worker reads its standard input)');
      if (!config.topic) notes.push('topic is not set');
      return { inputs: config.file ? [{ namespace: 'file', name: config.file }] : [], outputs: config.topic ? [topic(ctx, config.topic)] : [] };
    },
  },
  'io.confluent.connect.s3.S3SinkConnector': {
    label: 'Confluent S3 sink',
    map: (config, ctx, notes) => {
      const bucket = config['s3.bucket.name'];
      if (!bucket) notes.push('s3.bucket.name is not set');
      const dir = config['topics.dir'] ?? 'topics';
      const topics = sinkTopics(config, ctx, notes);
      return { inputs: topics.map((t) => topic(ctx, t)), outputs: bucket ? topics.map((t) => ({ namespace: `s3://${bucket}`, name: `${dir}/${t}` })) : [] };
    },
  },
  'io.confluent.connect.jdbc.JdbcSinkConnector': jdbcSink,
  'io.confluent.connect.jdbc.JdbcSourceConnector': jdbcSource,
  'io.debezium.connector.jdbc.JdbcSinkConnector': jdbcSink,
  'io.confluent.connect.elasticsearch.ElasticsearchSinkConnector': {
    label: 'Elasticsearch sink',
    map: (config, ctx, notes) => {
      const url = list(config['connection.url'])[0];
      const m = url ? /^(https?):\/\/([^/]+)/i.exec(url) : null;
      if (!m) notes.push('connection.url is not an http(s) URL');
      const topics = sinkTopics(config, ctx, notes);
      return { inputs: topics.map((t) => topic(ctx, t)), outputs: m ? topics.map((t) => ({ namespace: `elasticsearch://${m[2]!.toLowerCase()}`, name: t.toLowerCase() })) : [] };
    },
  },
  'org.apache.iceberg.connect.IcebergSinkConnector': iceberg(),
  'io.tabular.iceberg.connect.IcebergSinkConnector': iceberg(),
  'io.debezium.connector.postgresql.PostgresConnector': debezium('postgres', '5432'),
  'io.debezium.connector.mysql.MySqlConnector': debezium('mysql', '3306'),
  'io.debezium.connector.sqlserver.SqlServerConnector': debezium('sqlserver', '1433'),
};

function iceberg(): Row {
  return {
    label: 'Iceberg sink',
    map: (config, ctx, notes) => {
      const tables = list(config['iceberg.tables']);
      const catalog = config['iceberg.catalog.warehouse'] ?? config['iceberg.catalog.uri'];
      if (!tables.length) notes.push(config['iceberg.tables.dynamic-enabled'] === 'true' ? 'dynamic tables (iceberg.tables.route-field): the tables are not in the configuration' : 'iceberg.tables is not set');
      if (!catalog) notes.push('neither iceberg.catalog.warehouse nor iceberg.catalog.uri is set: tables named with an empty namespace');
      return { inputs: sinkTopics(config, ctx, notes).map((t) => topic(ctx, t)), outputs: tables.map((t) => ({ namespace: catalog ?? '', name: t })) };
    },
  };
}

export function connectorLineage(config: Config, ctx: MappingContext): ConnectorLineage {
  const cls = config['connector.class'] ?? '';
  if (config['openlineage.integration.enabled'] === 'true') {
    return { status: 'SELF_REPORTED', mapping: null, inputs: [], outputs: [], notes: [`${cls} reports its own lineage (openlineage.integration.enabled=true)`] };
  }
  const row = Object.hasOwn(CONNECTOR_CLASSES, cls) ? CONNECTOR_CLASSES[cls]! : null;
  if (!row) return { status: 'UNKNOWN', mapping: null, inputs: [], outputs: [], notes: [`connector class ${cls || '(none)'} is not in the mapping table: its lineage is unknown`] };
  const notes: string[] = [];
  const { inputs, outputs } = row.map(config, ctx, notes);
  return { status: 'MAPPED', mapping: row.label, inputs, outputs, notes };
}
