import { datasetOfField, gql, kindOfId } from './api';
import type { EdgeTone, GraphEdge, GraphNode } from './components/Graph';
import { nameOf, namespaceOf } from './components/common';

/**
 * Fetching lineage for the canvas and turning it into drawable nodes and edges. Dataset mode:
 * datasets and jobs, each job → output edge toned by coverage (column level or dataset level
 * only), symlinked names merged into one node. Column mode: datasets with their fields, field
 * edges labelled with their transformation, INDIRECT dashed, and a dashed "dataset level only"
 * edge wherever a job writes an output without column lineage. Edges of a job whose lineage
 * Tributary collected (a Kafka Connect connector: Job.collectedBy) are dotted, in a tone of their
 * own, whichever way they go: no producer reports them. Edges a job's SQL declares (DECLARED: the
 * statement names the table, the job's events do not) are dash-dotted in theirs, titled with the
 * statement's position. The explorer asks for every evidence (`evidence: ALL`) and marks each.
 */

export interface ApiNode {
  id: string;
  kind: 'DATASET' | 'JOB' | 'FIELD';
  name: string;
  namespace: string;
  distance: number;
  side: string;
  datasetId: string | null;
  /** Jobs only: who collected its lineage (null: a producer reports it). */
  job?: { collectedBy: string | null } | null;
}

export interface ApiEdge {
  type: 'FEEDS' | 'PRODUCES' | 'ALIAS' | 'DERIVES' | 'INFLUENCES';
  fromId: string;
  toId: string;
  columnLevel: boolean | null;
  outputFields: number | null;
  fieldsWithInputs: number | null;
  declared: boolean;
  types: string[] | null;
  subtypes: string[] | null;
  jobId: string | null;
  evidence?: 'REPORTED' | 'COLLECTED' | 'DECLARED';
  statement?: { role: string; name: string; line: number; column: number } | null;
}

export interface ApiGraph {
  truncated: boolean;
  truncatedBy: string[];
  nodes: ApiNode[];
  edges: ApiEdge[];
}

const GRAPH = `truncated truncatedBy nodes { id kind name namespace distance side datasetId job { collectedBy } }
  edges { type fromId toId columnLevel outputFields fieldsWithInputs declared types subtypes jobId evidence statement { role name line column } }`;

const LINEAGE = `query Lineage($id: ID!, $up: Int!, $down: Int!, $withUp: Boolean!, $withDown: Boolean!, $asOf: String, $g: Granularity!) {
  up: lineage(nodeId: $id, direction: UPSTREAM, depth: $up, asOf: $asOf, granularity: $g, evidence: ALL) @include(if: $withUp) { ${GRAPH} }
  down: lineage(nodeId: $id, direction: DOWNSTREAM, depth: $down, asOf: $asOf, granularity: $g, evidence: ALL) @include(if: $withDown) { ${GRAPH} }
}`;

export interface Fetched {
  nodes: Map<string, ApiNode>;
  edges: Map<string, ApiEdge>;
  truncatedBy: Set<string>;
}

const edgeKey = (e: ApiEdge) => `${e.type}|${e.fromId}|${e.toId}|${e.jobId ?? ''}`;

function merge(into: Fetched, g: ApiGraph | undefined | null): void {
  if (!g) return;
  for (const n of g.nodes) {
    const seen = into.nodes.get(n.id);
    if (!seen || n.distance < seen.distance) into.nodes.set(n.id, n);
  }
  for (const e of g.edges) into.edges.set(edgeKey(e), e);
  g.truncatedBy.forEach((t) => into.truncatedBy.add(t));
}

/** Dataset-level lineage around `id` and around each expanded node (one hop each way). */
export async function fetchDatasetLineage(id: string, up: number, down: number, asOf: string | null, expanded: string[], signal: AbortSignal): Promise<Fetched> {
  const out: Fetched = { nodes: new Map(), edges: new Map(), truncatedBy: new Set() };
  const ask = (nodeId: string, u: number, d: number) =>
    gql<{ up?: ApiGraph; down?: ApiGraph }>(LINEAGE, { id: nodeId, up: Math.max(1, u), down: Math.max(1, d), withUp: u > 0, withDown: d > 0, asOf, g: 'DATASET' }, signal);
  const [main, ...more] = await Promise.all([ask(id, up, down), ...expanded.map((x) => ask(x, 1, 1))]);
  merge(out, main!.up);
  merge(out, main!.down);
  for (const m of more) {
    merge(out, m.up);
    merge(out, m.down);
  }
  return out;
}

/** Field-level lineage from every field of the given datasets (up to `maxFields`), depth in field hops. */
export async function fetchFieldLineage(fieldIds: string[], up: number, down: number, asOf: string | null, metadataColumns: boolean, signal: AbortSignal): Promise<Fetched> {
  const out: Fetched = { nodes: new Map(), edges: new Map(), truncatedBy: new Set() };
  const chunks: string[][] = [];
  for (let i = 0; i < fieldIds.length; i += 4) chunks.push(fieldIds.slice(i, i + 4));
  const one = async (chunk: string[]) => {
    const parts = chunk.map(
      (_f, i) =>
        `u${i}: lineage(nodeId: $f${i}, direction: UPSTREAM, depth: $up, asOf: $asOf, granularity: FIELD, metadataColumns: $meta) @include(if: $withUp) { ${GRAPH} }
         d${i}: lineage(nodeId: $f${i}, direction: DOWNSTREAM, depth: $down, asOf: $asOf, granularity: FIELD, metadataColumns: $meta) @include(if: $withDown) { ${GRAPH} }`,
    );
    const vars = chunk.map((_f, i) => `$f${i}: ID!`).join(', ');
    const data = await gql<Record<string, ApiGraph>>(
      `query FieldLineage(${vars}, $up: Int!, $down: Int!, $withUp: Boolean!, $withDown: Boolean!, $asOf: String, $meta: Boolean!) { ${parts.join('\n')} }`,
      { ...Object.fromEntries(chunk.map((f, i) => [`f${i}`, f])), up: Math.max(1, up), down: Math.max(1, down), withUp: up > 0, withDown: down > 0, asOf, meta: metadataColumns },
      signal,
    );
    Object.values(data).forEach((g) => merge(out, g));
  };
  // Three requests at a time: the server admits a few GraphQL requests at once per core.
  for (let i = 0; i < chunks.length; i += 3) await Promise.all(chunks.slice(i, i + 3).map(one));
  return out;
}

/** Datasets joined by ALIAS edges, as groups: the representative (the first by id) → all names. */
function aliasGroups(f: Fetched): Map<string, string> {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    const p = parent.get(x) ?? x;
    if (p === x) return x;
    const r = find(p);
    parent.set(x, r);
    return r;
  };
  for (const e of f.edges.values()) {
    if (e.type !== 'ALIAS') continue;
    const [a, b] = [find(e.fromId), find(e.toId)];
    if (a !== b) parent.set(a < b ? b : a, a < b ? a : b);
  }
  const rep = new Map<string, string>();
  for (const id of f.nodes.keys()) rep.set(id, find(id));
  return rep;
}

export interface Drawable {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Nodes left out by the drawing cap. */
  hidden: number;
  total: number;
}

/** Keeps the `cap` nodes nearest the root (ties by id), and the edges among them. */
function capped(nodes: GraphNode[], distance: (id: string) => number, cap: number): { kept: GraphNode[]; hidden: number } {
  if (nodes.length <= cap) return { kept: nodes, hidden: 0 };
  const kept = [...nodes].sort((a, b) => distance(a.id) - distance(b.id) || (a.id < b.id ? -1 : 1)).slice(0, cap);
  return { kept, hidden: nodes.length - cap };
}

const toneOfProduces = (e: ApiEdge): EdgeTone => (e.columnLevel === true ? 'column' : e.columnLevel === false ? 'dataset' : 'plain');

export function datasetDrawing(f: Fetched, rootId: string, cap: number): Drawable {
  const rep = aliasGroups(f);
  const names = new Map<string, string[]>();
  for (const [id, r] of rep) if (id !== r) names.set(r, [...(names.get(r) ?? []), nameOf(id)]);
  const all: GraphNode[] = [];
  for (const n of f.nodes.values()) {
    if (rep.get(n.id) !== n.id || n.kind === 'FIELD') continue;
    const rank = n.side === 'UPSTREAM' ? -n.distance : n.distance;
    all.push({ id: n.id, kind: n.kind, label: n.name, namespace: n.namespace, aliases: names.get(n.id), root: n.id === rep.get(rootId), rank });
  }
  const { kept, hidden } = capped(all, (id) => f.nodes.get(id)?.distance ?? 0, cap);
  const edges: GraphEdge[] = [];
  for (const e of f.edges.values()) {
    if (e.type === 'ALIAS') continue;
    const [s, t] = [rep.get(e.fromId) ?? e.fromId, rep.get(e.toId) ?? e.toId];
    const collector = e.type === 'FEEDS' || e.type === 'PRODUCES' ? f.nodes.get(e.type === 'FEEDS' ? e.toId : e.fromId)?.job?.collectedBy : null;
    const st = e.evidence === 'DECLARED' ? e.statement : null;
    const tone = st ? 'declared' : collector ? 'collected' : e.type === 'PRODUCES' ? toneOfProduces(e) : 'plain';
    const coverage = st
      ? `declared: the job's SQL ${st.role === 'OUTPUT' ? 'writes' : 'reads'} ${st.name} (line ${st.line}, column ${st.column}); its events do not report it`
      : collector
      ? `collected by Tributary (${collector}: the connector's configuration, read from the Kafka Connect REST API); no producer reports it`
      : e.type === 'PRODUCES' && e.columnLevel !== null
        ? e.columnLevel
          ? `column level: ${e.fieldsWithInputs} of ${e.outputFields} output fields have input fields`
          : 'dataset level only: this job reports no column lineage for this output'
        : e.type === 'FEEDS'
          ? `read${e.declared ? '' : ' (implied by column lineage only)'}`
          : 'written';
    edges.push({ id: `${e.type}|${s}|${t}`, source: s, target: t, tone, title: `${nameOf(e.fromId)} → ${nameOf(e.toId)}: ${coverage}` });
  }
  return { nodes: kept, edges: dedupe(edges), hidden, total: all.length };
}

/**
 * Column mode: dataset nodes listing their fields (all of the root's, and every field reached),
 * field edges between them, and a dashed dataset → dataset edge through every job that writes an
 * output without column lineage (from the dataset graph `d`).
 */
export function columnDrawing(fields: Fetched, d: Fetched, rootId: string, rootFields: { id: string; name: string }[], cap: number): Drawable {
  // Symlinked names of one dataset are one node: datasets and fields under an alias map to the representative.
  const rep = aliasGroups(d);
  const ds = (id: string) => rep.get(id) ?? id;
  const field = (id: string) => {
    const own = datasetOfField(id);
    const to = ds(own);
    return to === own ? id : `datasetField:${to.slice('dataset:'.length)}:${id.split(':')[3]}`;
  };
  const names = new Map<string, string[]>();
  for (const [id, r] of rep) if (id !== r) names.set(r, [...(names.get(r) ?? []), nameOf(id)]);
  const byDataset = new Map<string, Map<string, { id: string; name: string }>>();
  const addField = (rawId: string, name: string) => {
    const id = field(rawId);
    const owner = datasetOfField(id);
    if (!byDataset.has(owner)) byDataset.set(owner, new Map());
    byDataset.get(owner)!.set(id, { id, name });
  };
  byDataset.set(ds(rootId), new Map());
  rootFields.forEach((x) => addField(x.id, x.name));
  for (const n of fields.nodes.values()) if (n.kind === 'FIELD') addField(n.id, n.name);
  const edges: GraphEdge[] = [];
  for (const e of fields.edges.values()) {
    if (e.type === 'DERIVES') {
      const indirect = (e.types ?? []).includes('INDIRECT') && !(e.types ?? []).includes('DIRECT');
      const label = (e.subtypes ?? e.types ?? []).join(', ');
      edges.push({
        id: `D|${field(e.fromId)}|${field(e.toId)}|${e.jobId}`,
        source: datasetOfField(field(e.fromId)),
        target: datasetOfField(field(e.toId)),
        sourceField: field(e.fromId),
        targetField: field(e.toId),
        tone: indirect ? 'indirect' : 'field',
        label: label || undefined,
        title: `${nameOf(e.fromId)} → ${nameOf(e.toId)} (${label || 'no transformation type'}) by ${e.jobId ? nameOf(e.jobId) : 'a job'}`,
      });
    } else if (e.type === 'INFLUENCES' && kindOfId(e.fromId) === 'FIELD') {
      const target = ds(kindOfId(e.toId) === 'FIELD' ? datasetOfField(e.toId) : e.toId);
      if (!byDataset.has(target)) byDataset.set(target, new Map());
      edges.push({
        id: `I|${field(e.fromId)}|${target}|${e.jobId}`,
        source: datasetOfField(field(e.fromId)),
        target,
        sourceField: field(e.fromId),
        tone: 'indirect',
        label: (e.subtypes ?? ['INDIRECT']).join(', '),
        title: `${nameOf(e.fromId)} affects all of ${nameOf(target)} (INDIRECT) by ${e.jobId ? nameOf(e.jobId) : 'a job'}`,
      });
    }
  }
  // Where lineage is dataset level only: every input of a job → each output it writes without column lineage.
  const inputsOf = new Map<string, string[]>();
  const declaredRead = new Set<string>();
  for (const e of d.edges.values()) {
    if (e.type !== 'FEEDS') continue;
    inputsOf.set(e.toId, [...(inputsOf.get(e.toId) ?? []), e.fromId]);
    if (e.evidence === 'DECLARED') declaredRead.add(`${e.fromId}|${e.toId}`);
  }
  for (const e of d.edges.values()) {
    if (e.type !== 'PRODUCES' || e.columnLevel !== false) continue;
    const collector = d.nodes.get(e.fromId)?.job?.collectedBy;
    for (const rawInput of inputsOf.get(e.fromId) ?? []) {
      const [input, output] = [ds(rawInput), ds(e.toId)];
      for (const x of [input, output]) if (!byDataset.has(x)) byDataset.set(x, new Map());
      const declared = declaredRead.has(`${rawInput}|${e.fromId}`);
      edges.push({
        id: `L|${input}|${output}|${e.fromId}`,
        source: input,
        target: output,
        tone: declared ? 'declared' : collector ? 'collected' : 'dataset',
        label: declared ? 'declared' : collector ? 'collected' : 'dataset level only',
        title: declared
          ? `${nameOf(e.fromId)}'s SQL reads ${nameOf(input)} (its events do not list it) and the job writes ${nameOf(e.toId)} without column lineage`
          : collector
          ? `${nameOf(e.fromId)} reads ${nameOf(input)} and writes ${nameOf(e.toId)}, as collected by Tributary (${collector}); no producer reports it`
          : `${nameOf(e.fromId)} reads ${nameOf(input)} and writes ${nameOf(e.toId)} without column lineage: precision is lost here`,
      });
    }
  }
  const distance = (id: string) => d.nodes.get(id)?.distance ?? fields.nodes.get(id)?.distance ?? 99;
  const all: GraphNode[] = [...byDataset].map(([id, fs]) => ({
    id,
    kind: 'DATASET' as const,
    label: nameOf(id),
    namespace: namespaceOf(id),
    aliases: names.get(id),
    root: id === ds(rootId),
    fields: [...fs.values()].sort((a, b) => (a.name < b.name ? -1 : 1)),
  }));
  const { kept, hidden } = capped(all, distance, cap);
  return { nodes: kept, edges: dedupe(edges), hidden, total: all.length };
}

function dedupe(edges: GraphEdge[]): GraphEdge[] {
  return [...new Map(edges.map((e) => [e.id, e])).values()];
}
