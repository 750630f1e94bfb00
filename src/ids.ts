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

/** Internal id of a job version (not a GraphQL lookup key): job id + '#' + hash of IO and code. */
export const jobVersionId = (jid: string, hash: string): string => `${jid}#${hash}`;

export const runId = (uuid: string): string => `${PREFIX.RUN}:${uuid.toLowerCase()}`;

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
