import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { declaredTables, type ParserModule } from './declared-tables';
import type { SqlDialect } from './dialects';

/**
 * The worker thread of parse-pool.ts: parses one statement per message with dt-sql-parser (the
 * CommonJS bundle tools/build-sql-parser.js writes to dist/vendor; the package itself is ESM that
 * Node cannot load) and answers {id, result}.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const parser = require(path.resolve(__dirname, '..', '..', 'vendor', 'dt-sql-parser.cjs')) as ParserModule;

parentPort?.on('message', (m: { id: number; sql: string; dialect: SqlDialect | null }) => {
  parentPort!.postMessage({ id: m.id, result: declaredTables(parser, m.sql, m.dialect) });
});
