import { createHash, randomBytes } from 'node:crypto';
import { UUID_PATTERN } from '../../src/ids';

/**
 * Test isolation by namespace: rewrites every namespace in an OpenLineage document to
 * `<prefix><namespace>` and every UUID run id to a UUID derived from (prefix, runId), so each test
 * owns its subgraph in a shared database. Non-UUID run ids are left as they are (they must stay
 * invalid). The input is not modified.
 */
export function uniquePrefix(label: string): string {
  return `t-${label}-${randomBytes(4).toString('hex')}/`;
}


/**
 * Keeps the first three groups of the UUID (so run ids compare in the same order as the originals:
 * the projection breaks ties by run id) and replaces the rest with a hash of (prefix, id), as
 * `-a<3 hex>-<12 hex>`; ISOLATED_RUN_TAIL matches that part.
 */
export function isolatedRunId(prefix: string, runId: string): string {
  if (!UUID_PATTERN.test(runId)) return runId;
  const h = createHash('sha256').update(prefix + runId.toLowerCase()).digest('hex');
  return `${runId.toLowerCase().slice(0, 19)}a${h.slice(0, 3)}-${h.slice(3, 15)}`;
}

export const ISOLATED_RUN_TAIL = /-a[0-9a-f]{3}-[0-9a-f]{12}\b/g;

export function isolate<T>(doc: T, prefix: string): T {
  const copy = JSON.parse(JSON.stringify(doc)) as unknown;
  walk(copy, prefix, []);
  return copy as T;
}

function walk(node: unknown, prefix: string, path: string[]): void {
  if (Array.isArray(node)) {
    node.forEach((n) => walk(n, prefix, path));
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const o = node as Record<string, unknown>;
  const parent = path[path.length - 1] ?? '';
  // Namespaces of jobs and datasets, wherever they are referenced (inputs, outputs, column lineage,
  // symlinks, parent/root jobs). Facet-internal keys named `namespace` under other parents are rare
  // in the corpus and rewriting them is harmless.
  if (typeof o.namespace === 'string' && ('name' in o || 'field' in o)) o.namespace = prefix + o.namespace;
  if (typeof o.runId === 'string' && (parent === 'run' || path.length === 1)) o.runId = isolatedRunId(prefix, o.runId);
  for (const [k, v] of Object.entries(o)) walk(v, prefix, [...path, k]);
}
