import { createHash, randomBytes } from 'node:crypto';

/**
 * Test isolation by namespace: rewrites every namespace in an OpenLineage document to
 * `<prefix><namespace>` and every UUID run id to a UUID derived from (prefix, runId), so each test
 * owns its subgraph in a shared database. Non-UUID run ids are left as they are (they must stay
 * invalid). The input is not modified.
 */
export function uniquePrefix(label: string): string {
  return `t-${label}-${randomBytes(4).toString('hex')}/`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isolatedRunId(prefix: string, runId: string): string {
  if (!UUID.test(runId)) return runId;
  const h = createHash('sha256').update(prefix + runId.toLowerCase()).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

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
