/**
 * A field-by-field comparison of two JSON answers (Marquez's recorded one and another server's),
 * used by test/api/marquez-contract.test.ts. Every difference is one Diff with a concrete path
 * (`jobs[food_delivery:etl_orders].latestRun.state`) and a shape path with the item keys left out
 * (`jobs[].latestRun.state`), which the test's allow-list matches on.
 *
 * Arrays whose items all carry a unique identity (see itemKey) are compared as keyed sets: an item
 * only on one side is a missing-item or extra-item diff, common items are compared in depth, and a
 * different order of the common items is one `order` diff. Other arrays are compared index by index.
 */
export type DiffKind = 'value' | 'missing-key' | 'extra-key' | 'missing-item' | 'extra-item' | 'order' | 'length';

export interface Diff {
  kind: DiffKind;
  path: string;
  shape: string;
  /** Marquez's value (undefined when it has none). */
  m: unknown;
  /** The other server's value (undefined when it has none). */
  t: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The identity of an array item, or undefined when it has none that compare across servers. */
export function itemKey(v: unknown): string | undefined {
  if (typeof v === 'string' || typeof v === 'number') return String(v);
  if (!isObject(v)) return undefined;
  const s = (x: unknown) => (typeof x === 'string' ? x : undefined);
  const dsId = (x: unknown) => (isObject(x) && typeof x.namespace === 'string' && typeof x.name === 'string' ? `${x.namespace}:${x.name}` : undefined);
  if (isObject(v.datasetVersionId)) return dsId(v.datasetVersionId);
  if (s(v.origin) !== undefined && s(v.destination) !== undefined) return `${v.origin}->${v.destination}`;
  if (s(v.nodeId) !== undefined) return s(v.nodeId);
  if (isObject(v.run) && isObject(v.job) && typeof v.eventTime === 'string') return `${(v.run as { runId?: unknown }).runId}:${v.eventType}@${Date.parse(v.eventTime)}`;
  if (s(v.id) !== undefined) return s(v.id);
  if (isObject(v.id) && !('version' in v)) return dsId(v.id);
  if (typeof v.namespace === 'string' && typeof v.dataset === 'string' && typeof v.field === 'string') return `${v.namespace}:${v.dataset}:${v.field}`;
  if (typeof v.namespace === 'string' && typeof v.name === 'string') return `${v.namespace}:${v.name}`;
  if (typeof v.name === 'string') return v.name;
  return undefined;
}

function keysOf(list: unknown[]): string[] | null {
  const keys = list.map(itemKey);
  if (keys.some((k) => k === undefined)) return null;
  if (new Set(keys).size !== keys.length) return null;
  return keys as string[];
}

export function compareJson(m: unknown, t: unknown, path = '', shape = '', out: Diff[] = []): Diff[] {
  if (Array.isArray(m) && Array.isArray(t)) {
    const mk = keysOf(m);
    const tk = keysOf(t);
    if (mk && tk && (m.length > 0 || t.length > 0)) {
      const tIndex = new Map(tk.map((k, i) => [k, i]));
      const mSet = new Set(mk);
      mk.forEach((k, i) => {
        const j = tIndex.get(k);
        if (j === undefined) out.push({ kind: 'missing-item', path: `${path}[${k}]`, shape: `${shape}[]`, m: m[i], t: undefined });
        else compareJson(m[i], t[j], `${path}[${k}]`, `${shape}[]`, out);
      });
      tk.forEach((k, j) => {
        if (!mSet.has(k)) out.push({ kind: 'extra-item', path: `${path}[${k}]`, shape: `${shape}[]`, m: undefined, t: t[j] });
      });
      const commonM = mk.filter((k) => tIndex.has(k));
      const commonT = tk.filter((k) => mSet.has(k));
      if (commonM.join('\u0000') !== commonT.join('\u0000')) out.push({ kind: 'order', path, shape, m: commonM, t: commonT });
      return out;
    }
    if (m.length !== t.length) out.push({ kind: 'length', path, shape, m: m.length, t: t.length });
    for (let i = 0; i < Math.min(m.length, t.length); i++) compareJson(m[i], t[i], `${path}[${i}]`, `${shape}[]`, out);
    return out;
  }
  if (isObject(m) && isObject(t)) {
    for (const k of Object.keys(m)) {
      const p = path ? `${path}.${k}` : k;
      const sp = shape ? `${shape}.${k}` : k;
      if (!(k in t)) out.push({ kind: 'missing-key', path: p, shape: sp, m: m[k], t: undefined });
      else compareJson(m[k], t[k], p, sp, out);
    }
    for (const k of Object.keys(t)) {
      if (!(k in m)) out.push({ kind: 'extra-key', path: path ? `${path}.${k}` : k, shape: shape ? `${shape}.${k}` : k, m: undefined, t: t[k] });
    }
    return out;
  }
  if (m !== t && !(Number.isNaN(m) && Number.isNaN(t))) out.push({ kind: 'value', path, shape, m, t });
  return out;
}

/** Every string of `v` passed through `f` (keys too). */
export function mapStrings(v: unknown, f: (s: string) => string): unknown {
  if (typeof v === 'string') return f(v);
  if (Array.isArray(v)) return v.map((x) => mapStrings(x, f));
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [f(k), mapStrings(x, f)]));
  return v;
}

/** A short rendering of a value for a failure message. */
export function brief(v: unknown, max = 160): string {
  if (v === undefined) return '(absent)';
  const text = JSON.stringify(v);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
