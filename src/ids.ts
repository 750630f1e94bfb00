import { badInput } from './errors';

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

export enum NodeKind {
  Dataset = 'dataset',
  Job = 'job',
  Field = 'datasetField',
  Run = 'run',
}

export type NodeRef =
  | { kind: NodeKind.Dataset; namespace: string; name: string }
  | { kind: NodeKind.Job; namespace: string; name: string }
  | { kind: NodeKind.Field; namespace: string; name: string; field: string }
  | { kind: NodeKind.Run; runId: string };

const componentCount: Record<NodeKind, number> = {
  [NodeKind.Dataset]: 2,
  [NodeKind.Job]: 2,
  [NodeKind.Field]: 3,
  [NodeKind.Run]: 1,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const escapeComponent = (s: string): string => s.replace(/%/g, '%25').replace(/:/g, '%3A');

function unescapeComponent(s: string, id: string): string {
  if (/%(?!25|3A)/i.test(s)) {
    throw badInput(`malformed node id "${id}": only %25 and %3A escapes are allowed in a component`);
  }
  return s.replace(/%3A/gi, ':').replace(/%25/g, '%');
}

export const datasetId = (namespace: string, name: string): string =>
  `${NodeKind.Dataset}:${escapeComponent(namespace)}:${escapeComponent(name)}`;

export const jobId = (namespace: string, name: string): string =>
  `${NodeKind.Job}:${escapeComponent(namespace)}:${escapeComponent(name)}`;

export const fieldId = (namespace: string, name: string, field: string): string =>
  `${NodeKind.Field}:${escapeComponent(namespace)}:${escapeComponent(name)}:${escapeComponent(field)}`;

/** The id of a field of the dataset with id `dsId` (a dataset id as made by datasetId). */
export const fieldOfDataset = (dsId: string, field: string): string =>
  `${NodeKind.Field}:${dsId.slice(NodeKind.Dataset.length + 1)}:${escapeComponent(field)}`;

/** Internal id of a job version (not a GraphQL lookup key): job id + '#' + hash of IO and code. */
export const jobVersionId = (jid: string, hash: string): string => `${jid}#${hash}`;

export const runId = (uuid: string): string => `${NodeKind.Run}:${uuid.toLowerCase()}`;

export function formatId(ref: NodeRef): string {
  switch (ref.kind) {
    case NodeKind.Dataset:
      return datasetId(ref.namespace, ref.name);
    case NodeKind.Job:
      return jobId(ref.namespace, ref.name);
    case NodeKind.Field:
      return fieldId(ref.namespace, ref.name, ref.field);
    case NodeKind.Run:
      return runId(ref.runId);
  }
}

/** Parses an id; throws BAD_INPUT with an explanation when it is not one of the four forms. */
export function parseId(id: string): NodeRef {
  const sep = id.indexOf(':');
  const kind = sep < 0 ? '' : id.slice(0, sep);
  if (!isNodeKind(kind)) {
    throw badInput(
      `malformed node id "${id}": expected dataset:<ns>:<name>, job:<ns>:<name>, ` +
        `datasetField:<ns>:<name>:<field> or run:<uuid>, with ':' inside a component written %3A`,
    );
  }
  const parts = id.slice(sep + 1).split(':');
  if (parts.length !== componentCount[kind] || parts.some((p) => p.length === 0)) {
    throw badInput(
      `malformed node id "${id}": a ${kind} id has ${componentCount[kind]} non-empty component(s) after ` +
        `"${kind}:"; write ':' inside a namespace or name as %3A (e.g. kafka%3A//host%3A9092)`,
    );
  }
  const c = parts.map((p) => unescapeComponent(p, id));
  switch (kind) {
    case NodeKind.Dataset:
      return { kind, namespace: c[0]!, name: c[1]! };
    case NodeKind.Job:
      return { kind, namespace: c[0]!, name: c[1]! };
    case NodeKind.Field:
      return { kind, namespace: c[0]!, name: c[1]!, field: c[2]! };
    case NodeKind.Run:
      if (!UUID.test(c[0]!)) throw badInput(`malformed node id "${id}": a run id is run:<uuid>`);
      return { kind, runId: c[0]!.toLowerCase() };
  }
}

/** Parses and checks the kind; throws BAD_INPUT naming the expected kinds otherwise. */
export function parseIdOfKind<K extends NodeKind>(id: string, ...kinds: K[]): Extract<NodeRef, { kind: K }> {
  const ref = parseId(id);
  if (!(kinds as NodeKind[]).includes(ref.kind)) {
    throw badInput(`node id "${id}" is a ${ref.kind} id; expected ${kinds.join(' or ')}`);
  }
  return ref as Extract<NodeRef, { kind: K }>;
}

function isNodeKind(s: string): s is NodeKind {
  return (Object.values(NodeKind) as string[]).includes(s);
}
