/**
 * The requests of the Marquez contract, kept structured so a replay can move them into another
 * namespace prefix: path segments and node ids say which part is a namespace or a run id. Rendered
 * as Marquez's web UI sends them: every path segment encodeURIComponent'ed, node ids as
 * `<type>:<encodeURIComponent(ns)>:<encodeURIComponent(name)>` with literal ':' separators, other
 * query values as given (the UI does not encode search's `q`).
 */
export type Seg = string | { ns: string } | { run: string };
export interface NodeRef {
  type: 'job' | 'dataset' | 'datasetField';
  ns: string;
  name: string;
  field?: string;
}
export type QueryValue = string | { node: NodeRef };
export interface RequestSpec {
  path: Seg[];
  query?: [string, QueryValue][];
}

export interface Rewrite {
  ns(ns: string): string;
  run(id: string): string;
}
export const identity: Rewrite = { ns: (n) => n, run: (r) => r };

const enc = encodeURIComponent;

export function renderRequest(spec: RequestSpec, rw: Rewrite = identity): string {
  const segs = spec.path.map((s) => (typeof s === 'string' ? enc(s) : 'ns' in s ? enc(rw.ns(s.ns)) : enc(rw.run(s.run))));
  const query = (spec.query ?? []).map(([k, v]) => {
    if (typeof v === 'string') return `${k}=${v}`;
    const n = v.node;
    return `${k}=${n.type}:${enc(rw.ns(n.ns))}:${enc(n.name)}${n.field !== undefined ? `:${enc(n.field)}` : ''}`;
  });
  return `/api/v1/${segs.join('/')}${query.length ? `?${query.join('&')}` : ''}`;
}

/** The raw node id (as responses write it). */
export const nodeId = (n: NodeRef): string => `${n.type}:${n.ns}:${n.name}${n.field !== undefined ? `:${n.field}` : ''}`;
