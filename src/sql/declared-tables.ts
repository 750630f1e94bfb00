import type { SqlDialect } from './dialects';

/**
 * The tables one SQL statement reads and writes, from dt-sql-parser's parse tree (its ANTLR
 * grammars for Spark, Flink, Hive, Trino, PostgreSQL and MySQL): the DECLARED lineage of a job
 * whose `sql` facet names tables its events do not list.
 *
 * Contract: total and honest. A statement that does not parse is UNPARSED with the parser's first
 * error, never partly guessed; a dialect without a grammar is UNPARSED (UNKNOWN_DIALECT); a
 * statement longer than MAX_SQL_CHARS or nested deeper than MAX_NESTING is refused before the
 * parser sees it (TOO_LARGE, TOO_DEEP). Time is bounded by the caller (parse-pool.ts runs this in
 * a worker it terminates). Roles: a table a statement inserts into, merges into, updates, deletes
 * from, overwrites or creates is an OUTPUT; every other table it names is an INPUT, common table
 * expressions excepted.
 */

export const MAX_SQL_CHARS = 256 * 1024;
export const MAX_NESTING = 100;

export interface DeclaredTable {
  role: 'INPUT' | 'OUTPUT';
  /** As written, its parts unquoted and joined with '.' (`lake.shop.revenue_summary`). */
  name: string;
  /** Where the statement names it first: 1-based line, 0-based column, character offsets [start, end). */
  line: number;
  column: number;
  start: number;
  end: number;
}

export type UnparsedReason = 'TOO_LARGE' | 'TOO_DEEP' | 'UNKNOWN_DIALECT' | 'SYNTAX' | 'TIMEOUT' | 'BUSY' | 'FAILED';

export type SqlParse =
  | { status: 'PARSED'; dialect: SqlDialect; tables: DeclaredTable[] }
  | { status: 'UNPARSED'; dialect: SqlDialect | null; reason: UnparsedReason; message: string };

/** The part of dt-sql-parser this module uses (its bundle: tools/build-sql-parser.js). */
export interface ParserModule {
  [cls: string]: unknown;
}
interface Ctx {
  children?: Ctx[] | null;
  parent?: Ctx | null;
  start?: { line: number; column: number; start: number } | null;
  stop?: { stop: number } | null;
  getText(): string;
}
interface Token {
  text: string;
  start: number;
  stop: number;
  channel: number;
}
interface Parser {
  getAllTokens(sql: string): Token[];
  parse(sql: string, onError?: (e: { message: string; startLine: number; startColumn: number }) => void): Ctx;
}

const PARSERS: Record<SqlDialect, string> = { spark: 'SparkSQL', flink: 'FlinkSQL', hive: 'HiveSQL', trino: 'TrinoSQL', postgresql: 'PostgreSQL', mysql: 'MySQL' };

/**
 * Parse-tree classes that name a table, per grammar (those its entity collector reads); Spark's
 * `IdentifierReference` only as a table source (a three-part name in a query).
 */
const TABLE_REFS: Record<SqlDialect, RegExp> = {
  spark: /^(TableName(Create)?|IdentifierReference)Context$/,
  flink: /^TablePath(Create)?Context$/,
  hive: /^TableName(Create)?Context$/,
  trino: /^(TableRef|TableNameCreate)Context$/,
  postgresql: /^TableName(Create)?Context$/,
  mysql: /^TableName(Create)?Context$/,
};
/** An ancestor that makes the table a read (a relation of a query)… */
const READ_SCOPE = /Query|Relation|FromClause|Select|Subquery|TableSource|Join/;
/** …or a write (the target of a DML statement). */
const WRITE_SCOPE = /Insert|Merge|Update|Delete|Replace|Overwrite|Upsert/;
const CTE = /^(NamedQuery|WithItem|CommonTableExpression|Cte|WithElement)Context$/;

/**
 * dt-sql-parser's Spark grammar takes `catalog.db.table` only where a query reads a table, not as
 * the target of CREATE, INSERT, MERGE, UPDATE or DELETE (4.5.1: "'.' is not valid at this
 * position"), though Spark 3 accepts it everywhere. So for Spark, every name of three or more parts
 * (the parser's own tokens, quoted parts included) is folded into one quoted identifier of the same
 * length before parsing: positions stay exact, the tree keeps its shape, and the name is taken back
 * from the tokens by its start offset. A folded column path (`s.addr.city`) stays a column.
 */
function foldMultipart(parser: Parser, sql: string): { sql: string; names: Map<number, string> } {
  const names = new Map<number, string>();
  const tokens = parser.getAllTokens(sql);
  const ident = (t: Token | undefined) => !!t && t.channel === 0 && /^(?:[\p{L}_][\p{L}\p{N}_$]*|`(?:[^`]|``)*`)$/u.test(t.text);
  const dot = (t: Token | undefined) => !!t && t.channel === 0 && t.text === '.';
  let out = '';
  let at = 0;
  for (let i = 0; i < tokens.length; i++) {
    if (!ident(tokens[i]) || (i > 0 && dot(tokens[i - 1]))) continue;
    let j = i;
    while (dot(tokens[j + 1]) && ident(tokens[j + 2])) j += 2;
    if (j - i < 4) continue;
    const start = tokens[i]!.start;
    const end = tokens[j]!.stop + 1;
    const parts = [];
    for (let k = i; k <= j; k += 2) parts.push(unquote(tokens[k]!.text).replace(/``/g, '`'));
    names.set(start, parts.join('.'));
    out += sql.slice(at, start) + '`' + '_'.repeat(end - start - 2) + '`';
    at = end;
    i = j;
  }
  return { sql: names.size ? out + sql.slice(at) : sql, names };
}

const className = (c: Ctx) => (c.constructor?.name ?? '').replace(/\$\d+$/, '');

/** Deepest bracket nesting, and whether it exceeds `max` (quotes and comments are not read: a bound, not a parse). */
export function nestingOver(sql: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql.charCodeAt(i);
    if (ch === 40 || ch === 91) {
      if (++depth > max) return true;
    } else if ((ch === 41 || ch === 93) && depth > 0) depth--;
  }
  return false;
}

const unquote = (part: string) => part.replace(/^[`"[]|[`"\]]$/g, '');

const NO_GRAMMAR = { status: 'UNPARSED', dialect: null, reason: 'UNKNOWN_DIALECT', message: 'a dialect the parser has no grammar for' } as const;

/** What is refused before parsing: no grammar, too large, too deep (null: parse it). */
export function refusal(sql: string, dialect: SqlDialect | null): Extract<SqlParse, { status: 'UNPARSED' }> | null {
  if (!dialect) return NO_GRAMMAR;
  if (sql.length > MAX_SQL_CHARS) return { status: 'UNPARSED', dialect, reason: 'TOO_LARGE', message: `${sql.length} characters, over ${MAX_SQL_CHARS}` };
  if (nestingOver(sql, MAX_NESTING)) return { status: 'UNPARSED', dialect, reason: 'TOO_DEEP', message: `brackets nested deeper than ${MAX_NESTING}` };
  return null;
}

export function declaredTables(mod: ParserModule, sql: string, dialect: SqlDialect | null): SqlParse {
  if (!dialect) return NO_GRAMMAR;
  const refused = refusal(sql, dialect);
  if (refused) return refused;
  const Cls = mod[PARSERS[dialect]] as (new () => Parser) | undefined;
  if (typeof Cls !== 'function') return { status: 'UNPARSED', dialect, reason: 'FAILED', message: `the parser module has no ${PARSERS[dialect]}` };
  let first: { message: string; startLine: number; startColumn: number } | null = null;
  let tree: Ctx;
  let folded = new Map<number, string>();
  try {
    const parser = new Cls();
    let text = sql;
    if (dialect === 'spark') ({ sql: text, names: folded } = foldMultipart(parser, sql));
    tree = parser.parse(text, (e) => void (first ??= e));
  } catch (err) {
    return { status: 'UNPARSED', dialect, reason: 'FAILED', message: `the parser failed (${(err as Error)?.message ?? err})` };
  }
  if (first) {
    const e = first as { message: string; startLine: number; startColumn: number };
    return { status: 'UNPARSED', dialect, reason: 'SYNTAX', message: `line ${e.startLine}:${e.startColumn}: ${e.message}` };
  }
  const refs: Ctx[] = [];
  const ctes = new Set<string>();
  // Iterative: the tree of a long statement is deep.
  const stack: Ctx[] = [tree];
  while (stack.length) {
    const node = stack.pop()!;
    const name = className(node);
    if (CTE.test(name) && node.children?.[0]) ctes.add(unquote(node.children[0].getText()).toLowerCase());
    if (TABLE_REFS[dialect].test(name) && (name !== 'IdentifierReferenceContext' || className(node.parent ?? ({} as Ctx)) === 'TableSourceContext')) {
      refs.push(node);
      continue;
    }
    for (let i = (node.children?.length ?? 0) - 1; i >= 0; i--) stack.push(node.children![i]!);
  }
  const seen = new Set<string>();
  const tables: DeclaredTable[] = [];
  for (const ref of refs) {
    const tableName = folded.get(ref.start?.start ?? -1) ?? ref.getText().split('.').map(unquote).join('.');
    const role = roleOf(ref);
    if (role === 'INPUT' && !tableName.includes('.') && ctes.has(tableName.toLowerCase())) continue;
    const key = `${role}\u0000${tableName.toLowerCase()}`;
    if (seen.has(key) || !tableName) continue;
    seen.add(key);
    tables.push({ role, name: tableName, line: ref.start?.line ?? 0, column: ref.start?.column ?? 0, start: ref.start?.start ?? 0, end: (ref.stop?.stop ?? -1) + 1 });
  }
  return { status: 'PARSED', dialect, tables };
}

function roleOf(ref: Ctx): 'INPUT' | 'OUTPUT' {
  if (className(ref).endsWith('CreateContext')) return 'OUTPUT';
  for (let a = ref.parent; a; a = a.parent) {
    const n = className(a);
    if (READ_SCOPE.test(n)) return 'INPUT';
    if (WRITE_SCOPE.test(n)) return 'OUTPUT';
  }
  return 'INPUT';
}
