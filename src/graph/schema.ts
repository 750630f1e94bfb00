import fs from 'node:fs';
import path from 'node:path';
import { Query } from './queries';
import type { Executor } from './executor';
import { defaultCypherDir, listCypherFiles } from './queries';

/**
 * Graph schema: constraints and indexes from cypher/schema/*.cypher, in file order. Each file holds
 * `;`-terminated statements, all idempotent (IF NOT EXISTS), so applying them at every start-up is
 * safe; `CALL db.awaitIndexes(<seconds>)` statements run last. `isSchemaApplied` checks that every
 * named constraint and index exists and is ONLINE.
 */

export interface SchemaStatement {
  name: string;
  text: string;
}

/** The named, idempotent constraint and index statements of cypher/schema/, in file order. */
export function loadSchemaStatements(dir: string = defaultCypherDir()): SchemaStatement[] {
  return parseSchemaFiles(dir).statements;
}

/** The `CALL db.awaitIndexes(...)` statements of cypher/schema/, run after all the others. */
export function loadSchemaWaits(dir: string = defaultCypherDir()): string[] {
  return parseSchemaFiles(dir).waits;
}

function parseSchemaFiles(dir: string): { statements: SchemaStatement[]; waits: string[] } {
  const statements: SchemaStatement[] = [];
  const waits: string[] = [];
  for (const rel of listCypherFiles(dir).filter((f) => f.startsWith('schema/'))) {
    const body = fs
      .readFileSync(path.join(dir, rel), 'utf8')
      .split('\n')
      .filter((l) => !l.trim().startsWith('//'))
      .join('\n');
    for (const stmt of body.split(';').map((s) => s.trim()).filter(Boolean)) {
      if (/^CALL\s+db\.awaitIndexes\(\s*\d+\s*\)$/i.test(stmt)) {
        waits.push(stmt);
        continue;
      }
      const name = /^CREATE\s+(?:CONSTRAINT|(?:FULLTEXT\s+|RANGE\s+|TEXT\s+|POINT\s+)?INDEX)\s+(\w+)/i.exec(stmt)?.[1];
      if (!name) throw new Error(`${rel}: every schema statement must create a named constraint or index, or be CALL db.awaitIndexes(<s>): ${stmt}`);
      statements.push({ name, text: stmt });
    }
  }
  return { statements, waits };
}

/**
 * Runs every statement. `IF NOT EXISTS` is not atomic across sessions: when another process (a
 * second replica, a parallel test file) creates the same rule at the same moment, Neo4j refuses
 * ours as already existing. That rule is what the statement asks for, so it counts as applied.
 */
export async function applySchema(executor: Executor, statements: SchemaStatement[], waits: string[] = loadSchemaWaits()): Promise<void> {
  for (const s of statements) {
    await executor.schema(s.text).catch((err: unknown) => {
      if (!createdConcurrently(err)) throw err;
    });
  }
  for (const w of waits) await executor.schema(w);
}

const ALREADY_EXISTS = new Set([
  'Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists',
  'Neo.ClientError.Schema.ConstraintAlreadyExists',
  'Neo.ClientError.Schema.IndexAlreadyExists',
]);

/** Neo4j's refusal of a schema rule because the same one exists (created meanwhile by another session). */
export function createdConcurrently(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && ALREADY_EXISTS.has(code);
}

export async function isSchemaApplied(executor: Executor, statements: SchemaStatement[]): Promise<boolean> {
  const names = statements.map((s) => s.name);
  const rows = await executor.read<{ online: number }>(Query.SchemaApplied, { names });
  return rows[0]?.online === names.length;
}
