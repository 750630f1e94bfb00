/**
 * Dataset name normalisation (OpenLineage naming spec), so that engines that spell one dataset
 * differently meet on one node. Each rule that changes a name says why; the projection keeps the
 * original spelling and the steps on the node (`rawNames`, `normalisations`), so a user can be
 * shown why two spellings became one.
 *
 * Rules, applied to the namespace unless said otherwise:
 *  - the scheme is lower-cased (`Kafka://` → `kafka://`), and so is a URI host;
 *  - `s3a://` and `s3n://` are `s3://` (Hadoop connector schemes for the same object store);
 *  - Kafka: protocol prefixes in the bootstrap list are dropped (`kafka://SASL_SSL://b:9093` →
 *    `kafka://b:9093`) and a list of brokers becomes its lowest `host:port` (the spec names one
 *    broker; taking the lowest keeps the choice independent of list order);
 *  - a trailing `/` is dropped from a namespace with a scheme, and from a name longer than `/`;
 *  - leading and trailing white space is dropped (job names are kept exactly as sent).
 * Then the steward's identity rules (identity-rules.ts). Each step has a NormalisationCode.
 */

import { type IdentityRuleKind, NormalisationCode } from '../lineage/types';

export interface KafkaCluster {
  name: string;
  namespace: string;
  brokers: Set<string>;
  pattern: RegExp | null;
}

/** Compiled identity rules (identity-rules.ts compiles the file); lookups by normalised names. */
export interface IdentityRules {
  /** SHA-256 of the canonical rule set ('' for no rules), to tell whether a graph was projected with these rules. */
  digest: string;
  count: number;
  kafkaClusters: KafkaCluster[];
  /** normalised namespace → { to, rule } */
  namespaceAliases: Map<string, { to: string; rule: string }>;
  /** `namespace\0name` (normalised) → { namespace, name, rule } */
  datasetAliases: Map<string, { namespace: string; name: string; rule: string }>;
  /** Every rule as declared, for the identity answer. */
  declared: { name: string; kind: IdentityRuleKind; definition: string }[];
}

export const NO_RULES: IdentityRules = {
  digest: '',
  count: 0,
  kafkaClusters: [],
  namespaceAliases: new Map(),
  datasetAliases: new Map(),
  declared: [],
};

export const datasetKey = (namespace: string, name: string) => `${namespace}\u0000${name}`;

export interface NameStep {
  code: NormalisationCode;
  /** The identity rule's name for RULE_* codes, else null. */
  rule: string | null;
  message: string;
}

export interface NormalisedName {
  namespace: string;
  name: string;
  /** Why the spelling changed, in order; empty when it did not. */
  steps: NameStep[];
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(.*)$/s;
const KAFKA_PROTOCOLS = /^(PLAINTEXT|SSL|SASL_SSL|SASL_PLAINTEXT):\/\//i;

/** The built-in rules, then the identity rules (each at most once: cluster, namespace, dataset). */
export function normaliseDatasetName(namespace: string, name: string, rules: IdentityRules = NO_RULES): NormalisedName {
  const steps: NameStep[] = [];
  const step = (code: NormalisationCode, message: string, rule: string | null = null) => steps.push({ code, rule, message });
  let ns = namespace.trim();
  let nm = name.trim();
  if (ns !== namespace || nm !== name) step(NormalisationCode.WHITESPACE, 'leading or trailing white space dropped');
  const m = SCHEME.exec(ns);
  if (m) {
    let scheme = m[1]!.toLowerCase();
    let rest = m[2]!;
    if (scheme !== m[1]) step(NormalisationCode.SCHEME_CASE, `scheme ${m[1]} is written ${scheme}`);
    if (scheme === 's3a' || scheme === 's3n') {
      step(NormalisationCode.HADOOP_S3_SCHEME, `${scheme}:// is the Hadoop connector scheme for s3://`);
      scheme = 's3';
    }
    let cluster: { name: string; namespace: string; broker: string } | null = null;
    if (scheme === 'kafka') {
      const brokers = rest
        .split(',')
        .map((b) => b.trim())
        .filter(Boolean);
      const stripped = brokers.map((b) => b.replace(KAFKA_PROTOCOLS, ''));
      if (stripped.some((b, i) => b !== brokers[i])) step(NormalisationCode.KAFKA_PROTOCOL, 'Kafka protocol prefix dropped from the bootstrap servers');
      const lowered = stripped.map((b) => b.toLowerCase());
      if (lowered.some((b, i) => b !== stripped[i])) step(NormalisationCode.KAFKA_HOST_CASE, 'Kafka broker host lower-cased');
      const chosen = [...new Set(lowered)].sort()[0] ?? '';
      if (lowered.length > 1) step(NormalisationCode.KAFKA_BROKER_LIST, `bootstrap list of ${lowered.length} brokers named by its lowest, ${chosen}`);
      rest = chosen;
      cluster = kafkaClusterOf(lowered, rules);
    } else {
      const slash = rest.indexOf('/');
      const host = slash < 0 ? rest : rest.slice(0, slash);
      const tail = slash < 0 ? '' : rest.slice(slash);
      if (host !== host.toLowerCase() && !host.includes('@')) {
        step(NormalisationCode.HOST_CASE, 'host lower-cased');
        rest = host.toLowerCase() + tail;
      }
    }
    if (rest.length > 1 && rest.endsWith('/')) {
      step(NormalisationCode.TRAILING_SLASH, 'trailing / dropped from the namespace');
      rest = rest.replace(/\/+$/, '');
    }
    ns = `${scheme}://${rest}`;
    if (cluster && cluster.namespace !== ns) {
      step(NormalisationCode.RULE_KAFKA_CLUSTER, `broker ${cluster.broker} is in Kafka cluster ${cluster.name}, named ${cluster.namespace}`, cluster.name);
      ns = cluster.namespace;
    }
  }
  if (nm.length > 1 && nm.endsWith('/')) {
    step(NormalisationCode.TRAILING_SLASH, 'trailing / dropped from the name');
    nm = nm.replace(/\/+$/, '') || '/';
  }
  const nsAlias = rules.namespaceAliases.get(ns);
  if (nsAlias) {
    step(NormalisationCode.RULE_NAMESPACE_ALIAS, `namespace ${ns} is an alias of ${nsAlias.to}`, nsAlias.rule);
    ns = nsAlias.to;
  }
  const dsAlias = rules.datasetAliases.get(datasetKey(ns, nm));
  if (dsAlias) {
    step(NormalisationCode.RULE_DATASET_ALIAS, `${ns} ${nm} is an alias of ${dsAlias.namespace} ${dsAlias.name}`, dsAlias.rule);
    ns = dsAlias.namespace;
    nm = dsAlias.name;
  }
  return { namespace: ns, name: nm, steps };
}

/** The first declared cluster one of the brokers belongs to (by host:port, or host pattern). */
function kafkaClusterOf(brokers: string[], rules: IdentityRules): { name: string; namespace: string; broker: string } | null {
  for (const c of rules.kafkaClusters) {
    for (const b of brokers) {
      const host = b.replace(/:\d+$/, '');
      if (c.brokers.has(b) || c.brokers.has(host) || (c.pattern && (c.pattern.test(host) || c.pattern.test(b)))) {
        return { name: c.name, namespace: c.namespace, broker: b };
      }
    }
  }
  return null;
}

/**
 * One normalisation step of a raw spelling, as stored on a dataset node (a set of these strings, so
 * JSON with a fixed key order): `{namespace, name}` as sent, the step's code, rule and message.
 */
export function normalisationEntry(namespace: string, name: string, step: NameStep): string {
  return JSON.stringify({ namespace, name, code: step.code, rule: step.rule, message: step.message });
}

/** A stored normalisation entry (normalisationEntry), or null for an entry of an older graph. */
export function parseNormalisation(entry: string): ({ namespace: string; name: string } & NameStep) | null {
  try {
    const v = JSON.parse(entry) as Record<string, unknown>;
    if (typeof v.namespace !== 'string' || typeof v.name !== 'string' || typeof v.code !== 'string') return null;
    return { namespace: v.namespace, name: v.name, code: v.code as NormalisationCode, rule: (v.rule as string | null) ?? null, message: String(v.message) };
  } catch {
    return null;
  }
}
