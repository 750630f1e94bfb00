import { createHash } from 'node:crypto';
import { badInput } from './errors';
import { EntityKind } from './lineage/types';

/**
 * The identity module. One string id per node serves as GraphQL ID, DataLoader key and the key
 * that projection MERGEs on:
 *
 *   dataset:<namespace>:<name>
 *   job:<namespace>:<name>
 *   datasetField:<namespace>:<datasetName>:<fieldPath>
 *   run:<uuid>                        (lower-case)
 *
 * Namespaces and names routinely contain ':' (`kafka://broker:9092`, `postgres://db:5432`), so each
 * component is escaped: '%' → '%25' and ':' → '%3A' (nothing else). The separator ':' therefore
 * never occurs inside a component and every id parses in exactly one way; the kind fixes the
 * number of components. Example: namespace `kafka://b:9092`, topic `orders` →
 * `dataset:kafka%3A//b%3A9092:orders`.
 */

/** The id prefix of each kind: the first component of its ids. */
const PREFIX: Record<EntityKind, string> = {
  [EntityKind.DATASET]: 'dataset',
  [EntityKind.JOB]: 'job',
  [EntityKind.FIELD]: 'datasetField',
  [EntityKind.RUN]: 'run',
};
const KIND_OF_PREFIX = new Map(Object.entries(PREFIX).map(([kind, prefix]) => [prefix, kind as EntityKind]));

export type NodeRef =
  | { kind: EntityKind.DATASET; namespace: string; name: string }
  | { kind: EntityKind.JOB; namespace: string; name: string }
  | { kind: EntityKind.FIELD; namespace: string; name: string; field: string }
  | { kind: EntityKind.RUN; runId: string };

const componentCount: Record<EntityKind, number> = {
  [EntityKind.DATASET]: 2,
  [EntityKind.JOB]: 2,
  [EntityKind.FIELD]: 3,
  [EntityKind.RUN]: 1,
};

/** The one UUID pattern (OpenLineage run ids, parent run facets, run node ids). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const escapeComponent = (s: string): string => s.replace(/%/g, '%25').replace(/:/g, '%3A');

function unescapeComponent(s: string, id: string): string {
  if (/%(?!25|3A)/i.test(s)) {
    throw badInput(`malformed node id "${id}": only %25 and %3A escapes are allowed in a component`);
  }
  return s.replace(/%3A/gi, ':').replace(/%25/g, '%');
}

export const datasetId = (namespace: string, name: string): string =>
  `${PREFIX.DATASET}:${escapeComponent(namespace)}:${escapeComponent(name)}`;

export const jobId = (namespace: string, name: string): string =>
  `${PREFIX.JOB}:${escapeComponent(namespace)}:${escapeComponent(name)}`;

export const fieldId = (namespace: string, name: string, field: string): string =>
  `${PREFIX.FIELD}:${escapeComponent(namespace)}:${escapeComponent(name)}:${escapeComponent(field)}`;

/** The id of a field of the dataset with id `dsId` (a dataset id as made by datasetId). */
export const fieldOfDataset = (dsId: string, field: string): string =>
  `${PREFIX.FIELD}:${dsId.slice(PREFIX.DATASET.length + 1)}:${escapeComponent(field)}`;

/**
 * An id no node has (every id starts with its kind), sent in place of an empty id list. Neo4j
 * caches a plan per parameter types, and an empty list is a type apart from a list of strings: a
 * query taking dataset and job ids would need a plan for datasets only, one for jobs only and one
 * for both; with empty lists sent as [NO_NODE_ID], one serves all three (the query matches its
 * ids against nodes, and this one matches nothing).
 */
export const NO_NODE_ID = '';

/** `ids`, or [NO_NODE_ID] when empty (see NO_NODE_ID). */
export const idsOrNone = (ids: string[]): string[] => rowsOrNone(ids, NO_NODE_ID);

/**
 * `rows`, or [none] when empty: a list of rows sent in place of an empty one, for the same reason
 * (see NO_NODE_ID). `none` must match nothing: its ids are NO_NODE_ID.
 */
export const rowsOrNone = <T>(rows: T[], none: T): T[] => (rows.length > 0 ? rows : [none]);

/** Internal id of a job version (not a GraphQL lookup key): job id + '#' + hash of IO and code. */
export const jobVersionId = (jid: string, hash: string): string => `${jid}#${hash}`;

export const runId = (uuid: string): string => `${PREFIX.RUN}:${uuid.toLowerCase()}`;

/** Internal id of a stored event (not a lookup key): `event:` and the SHA-256 (hex) its id is made from. */
export const eventId = (sha256Hex: string): string => `event:${sha256Hex}`;

/** Whether `id` has the form eventId gives. */
export const isEventId = (id: string): boolean => /^event:[0-9a-f]{64}$/.test(id);

/** Internal id of how far the graph has projected one partition of the Kafka events topic (not a lookup key). */
export const logOffsetId = (topic: string, partition: number): string => `log:${escapeComponent(topic)}:${partition}`;

/**
 * The common start of every id of `kind` whose namespace starts with `namespacePrefix` (escaped
 * like the ids, so a string prefix match on ids selects exactly those namespaces). Not for RUN.
 */
export function idPrefix(kind: Exclude<EntityKind, EntityKind.RUN>, namespacePrefix: string): string {
  return `${PREFIX[kind]}:${escapeComponent(namespacePrefix)}`;
}

/** The kind an id names by its prefix, without checking the rest; null when no kind has that prefix. */
export function kindOf(id: string): EntityKind | null {
  const sep = id.indexOf(':');
  return (sep < 0 ? null : KIND_OF_PREFIX.get(id.slice(0, sep))) ?? null;
}

export function formatId(ref: NodeRef): string {
  switch (ref.kind) {
    case EntityKind.DATASET:
      return datasetId(ref.namespace, ref.name);
    case EntityKind.JOB:
      return jobId(ref.namespace, ref.name);
    case EntityKind.FIELD:
      return fieldId(ref.namespace, ref.name, ref.field);
    case EntityKind.RUN:
      return runId(ref.runId);
  }
}

/** Parses an id; throws BAD_INPUT with an explanation when it is not one of the four forms. */
export function parseId(id: string): NodeRef {
  const kind = kindOf(id);
  if (kind === null) {
    throw badInput(
      `malformed node id "${id}": expected dataset:<ns>:<name>, job:<ns>:<name>, ` +
        `datasetField:<ns>:<name>:<field> or run:<uuid>, with ':' inside a component written %3A`,
    );
  }
  const prefix = PREFIX[kind];
  const parts = id.slice(prefix.length + 1).split(':');
  // A dataset's namespace may be empty (schema.ts: openlineage-flink's catalog tables); nothing else.
  const mayBeEmpty = (i: number) => i === 0 && (kind === EntityKind.DATASET || kind === EntityKind.FIELD);
  if (parts.length !== componentCount[kind] || parts.some((p, i) => p.length === 0 && !mayBeEmpty(i))) {
    throw badInput(
      `malformed node id "${id}": a ${prefix} id has ${componentCount[kind]} non-empty component(s) after ` +
        `"${prefix}:"; write ':' inside a namespace or name as %3A (e.g. kafka%3A//host%3A9092)`,
    );
  }
  const c = parts.map((p) => unescapeComponent(p, id));
  switch (kind) {
    case EntityKind.DATASET:
      return { kind, namespace: c[0]!, name: c[1]! };
    case EntityKind.JOB:
      return { kind, namespace: c[0]!, name: c[1]! };
    case EntityKind.FIELD:
      return { kind, namespace: c[0]!, name: c[1]!, field: c[2]! };
    case EntityKind.RUN:
      if (!UUID_PATTERN.test(c[0]!)) throw badInput(`malformed node id "${id}": a run id is run:<uuid>`);
      return { kind, runId: c[0]!.toLowerCase() };
  }
}

/** Parses and checks the kind; throws BAD_INPUT naming the expected kinds otherwise. */
export function parseIdOfKind<K extends EntityKind>(id: string, ...kinds: K[]): Extract<NodeRef, { kind: K }> {
  const ref = parseId(id);
  if (!(kinds as EntityKind[]).includes(ref.kind)) {
    throw badInput(`node id "${id}" is a ${PREFIX[ref.kind]} id; expected ${kinds.map((k) => PREFIX[k]).join(' or ')}`);
  }
  return ref as Extract<NodeRef, { kind: K }>;
}

/**
 * Marquez's node ids (its read API, src/marquez): the same prefixes, but the raw namespace and names
 * joined by ':' with nothing escaped (`dataset:kafka://b:9092:orders`), as Marquez writes them and
 * its web UI compares them. Written by marquezId; read back by marquezIdCandidates, which cannot
 * know where a raw ':' separates components, so it lists every way of splitting the id, for a lookup
 * to pick the one that exists (src/marquez/node-ids.ts).
 */
export function marquezId(ref: NodeRef): string {
  switch (ref.kind) {
    case EntityKind.DATASET:
    case EntityKind.JOB:
      return `${PREFIX[ref.kind]}:${ref.namespace}:${ref.name}`;
    case EntityKind.FIELD:
      return `${PREFIX.FIELD}:${ref.namespace}:${ref.name}:${ref.field}`;
    case EntityKind.RUN:
      return `${PREFIX.RUN}:${ref.runId}`;
  }
}

/** Most ':'-separated parts a Marquez id may have (a field id of n parts has (n-2)(n-3)/2 splits). */
export const MARQUEZ_ID_MAX_PARTS = 40;
/** A Marquez versioned id's suffix: `#<version uuid>`. */
const VERSION_SUFFIX = /#([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * Every reading of a Marquez node id (dataset, job or datasetField; RUN is not a Marquez lineage
 * node), most likely first: Marquez's own heuristic (a ':' followed by '//' or a digit belongs to a
 * URI namespace such as `postgres://db:5432`) ranks the splits, the rest follow. `version` is the
 * `#<uuid>` suffix of a versioned id, null otherwise. Throws BAD_INPUT naming the expected forms.
 */
export function marquezIdCandidates(id: string): { kind: EntityKind.DATASET | EntityKind.JOB | EntityKind.FIELD; refs: NodeRef[]; version: string | null } {
  const versioned = VERSION_SUFFIX.exec(id);
  const bare = versioned ? id.slice(0, versioned.index) : id;
  const kind = kindOf(bare);
  const expected = 'expected dataset:<namespace>:<name>, job:<namespace>:<name> or datasetField:<namespace>:<dataset>:<field>';
  if (kind === null || kind === EntityKind.RUN) throw badInput(`malformed nodeId "${id.slice(0, 200)}": ${expected}`);
  const parts = bare.slice(PREFIX[kind].length + 1).split(':');
  if (parts.length > MARQUEZ_ID_MAX_PARTS) throw badInput(`malformed nodeId: more than ${MARQUEZ_ID_MAX_PARTS} ':'-separated parts`);
  const components = kind === EntityKind.FIELD ? 3 : 2;
  if (parts.length < components) throw badInput(`malformed nodeId "${id.slice(0, 200)}": ${expected}`);
  // A split point i joins parts[..i) as one component; rank by how many of its joins look like a URI's.
  const uriJoin = (i: number) => /^\/\/|^\d/.test(parts[i] ?? '');
  const join = (from: number, to: number) => parts.slice(from, to).join(':');
  const splits: { cuts: number[]; score: number }[] = [];
  const n = parts.length;
  if (components === 2) {
    for (let a = 1; a < n; a++) splits.push({ cuts: [a], score: uriJoin(a) ? 1 : 0 });
  } else {
    for (let a = 1; a < n - 1; a++) for (let b = a + 1; b < n; b++) splits.push({ cuts: [a, b], score: (uriJoin(a) ? 1 : 0) + (uriJoin(b) ? 1 : 0) });
  }
  splits.sort((x, y) => x.score - y.score || x.cuts[0]! - y.cuts[0]! || (x.cuts[1] ?? 0) - (y.cuts[1] ?? 0));
  const refs: NodeRef[] = splits.map(({ cuts }) => {
    const namespace = join(0, cuts[0]!);
    if (kind === EntityKind.FIELD) return { kind, namespace, name: join(cuts[0]!, cuts[1]!), field: join(cuts[1]!, n) };
    return { kind, namespace, name: join(cuts[0]!, n) };
  });
  return { kind, refs, version: versioned ? versioned[1]!.toLowerCase() : null };
}

/**
 * A UUID derived from a string key (SHA-256, formatted as a version-5-style UUID), for the things
 * Marquez names by UUID and Tributary by its own keys: dataset versions (dataset id + run id), job
 * versions (their id), parent jobs. Stable across processes and re-projection.
 */
export function derivedUuid(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
