import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { EmbeddedNeo4jSettings } from '../../config-types';
import { storeHome } from './neo4j';
import { provision } from './provision';

/**
 * Neo4j's own `neo4j-admin` (org.neo4j.cli.AdminTool, in the Community jars the embedded Neo4j
 * already runs on) over the embedded store under `settings.home`: `database dump neo4j
 * --to-path=DIR`, `database load neo4j --from-path=DIR --overwrite-destination=true`, `database
 * info`. Community dumps and loads offline databases only: neo4j-admin itself refuses a store in
 * use (stop Tributary, or `npm run neo4j`, first). A home that has no store yet is created (a load
 * into a new replica). Output goes to this process's unless `output` takes it; resolves with
 * neo4j-admin's exit code.
 */
export async function neo4jAdmin(
  settings: EmbeddedNeo4jSettings,
  args: string[],
  log: (msg: string) => void,
  output?: (chunk: string) => void,
): Promise<number> {
  const { java, classpath } = await provision(settings, log);
  fs.mkdirSync(storeHome(settings), { recursive: true });
  const child = spawn(java, ['-cp', classpath, 'org.neo4j.cli.AdminTool', ...args], {
    env: { ...process.env, NEO4J_HOME: storeHome(settings) },
    stdio: ['ignore', output ? 'pipe' : 'inherit', output ? 'pipe' : 'inherit'],
  });
  child.stdout?.setEncoding('utf8').on('data', (c: string) => output?.(c));
  child.stderr?.setEncoding('utf8').on('data', (c: string) => output?.(c));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}
