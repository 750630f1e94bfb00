import fs from 'node:fs';
import path from 'node:path';
import { seedSource } from './contract';

/** The `<name>` property of a part's pom (e.g. debezium.version), or 'unknown'. */
export function pomProperty(part: string, name: string): string {
  const pom = fs.readFileSync(path.join(seedSource, part, 'pom.xml'), 'utf8');
  const m = new RegExp(`<${name.replace(/\./g, '\\.')}>([^<]+)</`).exec(pom);
  return m?.[1]?.trim() ?? 'unknown';
}

/** The version a part's pom gives a dependency inline (`<artifactId>x</artifactId><version>v</version>`), or 'unknown'. */
export function pomDependencyVersion(part: string, artifactId: string): string {
  const pom = fs.readFileSync(path.join(seedSource, part, 'pom.xml'), 'utf8');
  const m = new RegExp(`<artifactId>${artifactId.replace(/\./g, '\\.')}</artifactId>\\s*<version>([^<]+)</version>`).exec(pom);
  return m?.[1]?.trim() ?? 'unknown';
}
