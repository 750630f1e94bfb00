import fs from 'node:fs';
import path from 'node:path';
import { Query } from './queries';
import type { Executor } from './executor';
import { defaultCypherDir, listCypherFiles } from './queries';

/**
 * Graph schema: constraints and indexes from cypher/schema/*.cypher, in file order. Each file holds
 * `;`-terminated statements, all idempotent (IF NOT EXISTS), so applying them at every start-up is
 * safe. `isSchemaApplied` checks that every named constraint and index exists and is ONLINE.
 */

export interface SchemaStatement {
  name: string;
  text: string;
}

export function loadSchemaStatements(dir: string = defaultCypherDir()): SchemaStatement[] {
  const out: SchemaStatement[] = [];
  for (const rel of listCypherFiles(dir).filter((f) => f.startsWith('schema/'))) {
    const body = fs
      .readFileSync(path.join(dir, rel), 'utf8')
      .split('\n')
      .filter((l) => !l.trim().startsWith('//'))
      .join('\n');
    for (const stmt of body.split(';').map((s) => s.trim()).filter(Boolean)) {
      const name = /^CREATE\s+(?:CONSTRAINT|(?:FULLTEXT\s+|RANGE\s+|TEXT\s+|POINT\s+)?INDEX)\s+(\w+)/i.exec(stmt)?.[1];
      if (!name) throw new Error(`${rel}: every schema statement must create a named constraint or index: ${stmt}`);
      out.push({ name, text: stmt });
    }
  }
  return out;
}

export async function applySchema(executor: Executor, statements: SchemaStatement[]): Promise<void> {
  for (const s of statements) await executor.schema(s.text);
  await executor.schema('CALL db.awaitIndexes(300)');
}

export async function isSchemaApplied(executor: Executor, statements: SchemaStatement[]): Promise<boolean> {
  const names = statements.map((s) => s.name);
  const rows = await executor.read<{ online: number }>(Query.SchemaApplied, { names });
  return rows[0]?.online === names.length;
}
