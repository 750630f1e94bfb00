import { IdentityRuleKind, MatchStrength } from './types';

/**
 * Whether a dataset read but never written (`read`) and a written one (`written`) probably name one
 * dataset, graded with the evidence, and the identity rule that would merge them. Pure.
 *
 * - Kafka topics: the same topic where one broker is in the bootstrap lists producers sent for both
 *   names (a list is named by its lowest broker, so its others are only in the raw names): STRONG;
 *   on brokers of one domain (`kafka-a.internal`, `kafka-b.internal`)
 *   or one host naming pattern outside two different domains (`broker-1`, `broker-2`): STRONG; on
 *   other brokers (`kafka-1.prod.x`, `kafka-1.staging.x`): MEDIUM.
 *   Rule: a Kafka cluster of both brokers.
 * - Other names: split at `/ . :`, lower-cased, a file extension dropped. The same last two segments
 *   (schema.table) with matching schema fields: STRONG; without fields to compare: MEDIUM; the same
 *   last segment only: MEDIUM with matching fields, else WEAK; fields that disagree make any match
 *   WEAK. Rule: a namespace alias when the names are equal, else a dataset alias, from the read name
 *   to the written one (from the written one when only it has an empty namespace).
 * Fields match when at least 80% of the reader's fields (at least one) are among the writer's.
 */

export interface Candidate {
  id: string;
  namespace: string;
  name: string;
  /** Schema or lineage fields known under this name (may be empty). */
  fields: string[];
  /**
   * Namespaces as producers sent them, before normalisation (a Kafka bootstrap list is named by its
   * lowest broker; the others are only here). Optional.
   */
  rawNamespaces?: string[];
}

export interface Evidence {
  key: string;
  strength: MatchStrength;
  evidence: string[];
  ruleKind: IdentityRuleKind;
  /** A TRIBUTARY_IDENTITY_RULES fragment (JSON) that merges the two names. */
  rule: string;
}

const FIELD_MATCH = 0.8;
const FIELD_DISAGREE = 0.5;

/** The namespaces of stored `namespace|name` raw spellings (a dataset node's rawNames). */
export const rawNamespaces = (rawNames: readonly string[] = []): string[] => rawNames.map((n) => n.slice(0, n.lastIndexOf('|')));

/** A dataset as evidence names it: `namespace name`, or `name (empty namespace)`. */
export const spelled = (namespace: string, name: string): string => (namespace ? `${namespace} ${name}` : `${name} (empty namespace)`);

export function segments(name: string): string[] {
  return name
    .toLowerCase()
    .replace(/\.(parquet|csv|json|avro|orc|txt|delta)$/, '')
    .split(/[/.:]+/)
    .filter(Boolean);
}

/** The last segment a candidate is indexed by ('' when none). */
export const lastSegment = (c: { namespace: string; name: string }): string =>
  isKafka(c.namespace) ? c.name : (segments(c.name).at(-1) ?? '');

const isKafka = (ns: string) => ns.startsWith('kafka://');
const brokersOf = (ns: string) =>
  ns
    .slice('kafka://'.length)
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
const hostOf = (broker: string) => broker.replace(/:\d+$/, '');
/** A broker as naming.ts compares them: no protocol prefix, lower case. */
const bare = (broker: string) => broker.replace(/^[A-Za-z_]+:\/\//, '').toLowerCase();
/** `kafka-a.internal` → `internal`; '' for a single-label host or an IP address. */
const domainOf = (host: string) => (/^[\d.]+$/.test(host) || !host.includes('.') ? '' : host.slice(host.indexOf('.') + 1));
/** `kafka-a` → `kafka`, `broker12` → `broker`, `kafka` → `kafka`: the first label without a trailing index. */
const stemOf = (host: string) => host.split('.')[0]!.replace(/(?:[-_](?:\d+|[a-z])|\d+)$/, '');
const ruleName = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80) || 'rule';

export function compare(read: Candidate, written: Candidate): Evidence | null {
  if (isKafka(read.namespace) && isKafka(written.namespace)) return compareTopics(read, written);
  if (isKafka(read.namespace) || isKafka(written.namespace)) return null;
  return compareTables(read, written);
}

function compareTopics(read: Candidate, written: Candidate): Evidence | null {
  if (read.name !== written.name) return null;
  const rb = brokersOf(read.namespace);
  const wb = brokersOf(written.namespace);
  const pairs = rb.flatMap((r) => wb.map((w) => [hostOf(r), hostOf(w)] as const));
  const domain = pairs.map(([r, w]) => (domainOf(r) !== '' && domainOf(r) === domainOf(w) ? domainOf(r) : '')).find(Boolean);
  // Prod and staging clusters share host patterns (kafka-1.prod, kafka-1.staging) and topic names:
  // a pattern counts only between hosts not in two different domains.
  const otherDomains = pairs.find(([r, w]) => domainOf(r) !== '' && domainOf(w) !== '' && domainOf(r) !== domainOf(w));
  const stem = pairs
    .map(([r, w]) => (stemOf(r).length >= 3 && stemOf(r) === stemOf(w) && !(domainOf(r) && domainOf(w) && domainOf(r) !== domainOf(w)) ? stemOf(r) : ''))
    .find(Boolean);
  // One broker in the bootstrap lists producers sent for both names: one cluster, whatever its hosts.
  const allBrokers = (c: Candidate) => new Set([c.namespace, ...(c.rawNamespaces ?? [])].filter(isKafka).flatMap((ns) => brokersOf(ns).map(bare)));
  const writtenBrokers = allBrokers(written);
  const shared = [...allBrokers(read)].filter((b) => writtenBrokers.has(b)).sort();
  const evidence = [`the same Kafka topic ${read.name} on other brokers: ${rb.join(',')} (read) and ${wb.join(',')} (written)`];
  if (shared.length > 0) {
    const lists = [read, written].flatMap((c) => (c.rawNamespaces ?? []).filter((ns) => isKafka(ns) && brokersOf(ns).length > 1));
    evidence.push(`broker ${shared.join(', ')} is in the bootstrap servers producers sent for both${lists.length ? ` (${[...new Set(lists)].join('; ')})` : ''}: one cluster`);
  }
  if (domain) evidence.push(`the brokers are in one domain, ${domain}`);
  if (stem) evidence.push(`the brokers follow one naming pattern, ${stem}*`);
  if (!domain && !stem && shared.length === 0) {
    evidence.push(
      otherDomains
        ? `the brokers are in different domains, ${domainOf(otherDomains[0])} and ${domainOf(otherDomains[1])}: two clusters may use one topic name`
        : 'the brokers share neither a domain nor a naming pattern: two clusters may use one topic name',
    );
  }
  const fields = fieldEvidence(read, written);
  if (fields.text) evidence.push(fields.text);
  const strength = fields.disagree ? MatchStrength.WEAK : shared.length > 0 || domain || stem ? MatchStrength.STRONG : MatchStrength.MEDIUM;
  const brokers = shared.length > 0 ? [...new Set([...wb, ...rb, ...writtenBrokers, ...allBrokers(read)])].sort() : [...new Set([...wb, ...rb])];
  const cluster = { name: ruleName(stem || domain || read.name), namespace: written.namespace, brokers };
  return { key: read.name, strength, evidence, ruleKind: IdentityRuleKind.KAFKA_CLUSTER, rule: JSON.stringify({ kafkaClusters: [cluster] }) };
}

function compareTables(read: Candidate, written: Candidate): Evidence | null {
  const r = segments(read.name);
  const w = segments(written.name);
  if (r.length === 0 || r.at(-1) !== w.at(-1)) return null;
  const sameName = read.name.toLowerCase() === written.name.toLowerCase();
  const two = sameName || (r.length > 1 && w.length > 1 && r.at(-2) === w.at(-2));
  const key = two && r.length > 1 ? `${r.at(-2)}.${r.at(-1)}` : r.at(-1)!;
  const evidence = [
    sameName
      ? `the same name ${read.name} under namespaces ${read.namespace} (read) and ${written.namespace} (written)`
      : two
        ? `both names end in ${key}: ${read.name} (read) and ${written.name} (written)`
        : `both names end in ${key}, the segment before differs: ${read.name} (read) and ${written.name} (written)`,
  ];
  const fields = fieldEvidence(read, written);
  evidence.push(fields.text || 'no fields known under one of the names to compare');
  const strength = fields.disagree
    ? MatchStrength.WEAK
    : two
      ? fields.match
        ? MatchStrength.STRONG
        : MatchStrength.MEDIUM
      : fields.match
        ? MatchStrength.MEDIUM
        : MatchStrength.WEAK;
  // The name with a namespace is kept: a catalog table named with an empty namespace (openlineage-flink)
  // becomes the path or table another producer reports, not the other way round.
  const [from, to] = written.namespace === '' && read.namespace !== '' ? [written, read] : [read, written];
  const rule =
    sameName && read.name === written.name && from.namespace !== ''
      ? { kind: IdentityRuleKind.NAMESPACE_ALIAS, doc: { namespaceAliases: [{ name: ruleName(`${key}-namespace`), from: from.namespace, to: to.namespace }] } }
      : {
          kind: IdentityRuleKind.DATASET_ALIAS,
          doc: {
            datasetAliases: [{ name: ruleName(key), from: { namespace: from.namespace, name: from.name }, to: { namespace: to.namespace, name: to.name } }],
          },
        };
  return { key, strength, evidence, ruleKind: rule.kind, rule: JSON.stringify(rule.doc) };
}

function fieldEvidence(read: Candidate, written: Candidate): { match: boolean; disagree: boolean; text: string } {
  if (read.fields.length === 0 || written.fields.length === 0) return { match: false, disagree: false, text: '' };
  const writtenFields = new Set(written.fields.map((f) => f.toLowerCase()));
  const shared = read.fields.filter((f) => writtenFields.has(f.toLowerCase())).length;
  const share = shared / read.fields.length;
  const counts = `${shared} of the ${read.fields.length} fields read are among the ${written.fields.length} written`;
  if (share >= FIELD_MATCH) return { match: true, disagree: false, text: `schema fields match: ${counts}` };
  if (share < FIELD_DISAGREE) return { match: false, disagree: true, text: `schema fields disagree: only ${counts}` };
  return { match: false, disagree: false, text: `schema fields partly match: ${counts}` };
}
