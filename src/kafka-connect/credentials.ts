import fs from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../config';
import { describeIssues, parseSettingsDocument } from '../settings-file';

/**
 * TRIBUTARY_KAFKA_CONNECT_CREDENTIALS: basic-auth credentials per Connect cluster, a YAML file
 * (kept out of the environment, which process listings and crash reports show):
 *
 *   prod: { username: tributary, password: "…" }
 *
 * Contract: read once at start; a missing or malformed file, or a name that is no configured
 * cluster, stops the start with a message naming the file (never its secrets).
 */
const fileSchema = z.record(z.string(), z.object({ username: z.string().min(1).max(1_000), password: z.string().max(10_000) }).strict());

export function readConnectCredentials(file: string, clusters: string[]): Map<string, string> {
  const where = `TRIBUTARY_KAFKA_CONNECT_CREDENTIALS (${file})`;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`${where}: cannot read the file (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let doc: unknown;
  try {
    doc = parseSettingsDocument(text);
  } catch (err) {
    throw new ConfigError(`${where}: not YAML (${(err as Error).message})`);
  }
  const parsed = fileSchema.safeParse(doc);
  if (!parsed.success) throw new ConfigError(`${where}: expected <cluster name>: {username, password} entries (${describeIssues(parsed.error.issues)})`);
  const unknown = Object.keys(parsed.data).filter((n) => !clusters.includes(n));
  if (unknown.length) throw new ConfigError(`${where}: no cluster named ${unknown.join(', ')} in TRIBUTARY_KAFKA_CONNECT_URLS (${clusters.join(', ')})`);
  return new Map(Object.entries(parsed.data).map(([name, c]) => [name, `${c.username}:${c.password}`]));
}
