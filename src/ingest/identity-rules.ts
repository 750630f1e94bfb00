import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../config';
import { describeIssues, parseSettingsDocument } from '../settings-file';
import type { Executor } from '../graph/executor';
import { Query } from '../graph/queries';
import { IdentityRuleKind } from '../lineage/types';
import { datasetKey, NO_RULES, normaliseDatasetName, type IdentityRules } from './naming';

/**
 * Identity rules a steward declares (the file named by TRIBUTARY_IDENTITY_RULES, YAML or JSON):
 * names that producers spell differently but that denote one dataset. Applied at ingestion after
 * the built-in naming rules (naming.ts), and to stored events by `npm run reproject`; events are
 * stored as received, so a rule change never loses one.
 *
 *   kafkaClusters:      # topics on any of these brokers (or hosts matching the pattern) are named
 *     - name: orders    #   under `namespace`
 *       namespace: kafka://kafka-a.internal:9092
 *       brokers: [kafka-a.internal:9092, kafka-b.internal:9092]
 *       hostPattern: "kafka-*.internal"   # optional; * matches any run of host characters
 *   namespaceAliases:   # datasets of namespace `from` are those of namespace `to`
 *     - { name: metastore, from: "hive://metastore:9083", to: "iceberg://catalog" }
 *   datasetAliases:     # one dataset is another
 *     - { name: legacy, from: { namespace: ..., name: ... }, to: { namespace: ..., name: ... } }
 *
 * Every rule has a unique `name`, quoted in the normalisations it causes. A rule's names are
 * normalised by the built-in rules when loaded, so `S3A://b` and `s3://b` are the same. Rules do not
 * chain: each applies once (cluster, then namespace alias, then dataset alias), and a file whose
 * `to` is another rule's `from` is refused, so every name reaches its final spelling in one step.
 */

const ruleName = z.string().trim().min(1).max(200);
const namespaceText = z.string().trim().min(1).max(2000);
/** A dataset's namespace may be empty, as producers send it (schema.ts). */
const datasetName = z.strictObject({ namespace: z.string().trim().max(2000), name: z.string().trim().min(1).max(2000) });
const hostPort = z
  .string()
  .trim()
  .regex(/^[^\s,/]+$/, 'a broker is host or host:port, without a scheme');

const fileSchema = z.strictObject({
  kafkaClusters: z
    .array(
      z
        .strictObject({
          name: ruleName,
          namespace: namespaceText.regex(/^kafka:\/\//i, 'a Kafka cluster namespace starts with kafka://'),
          brokers: z.array(hostPort).max(1000).default([]),
          hostPattern: z
            .string()
            .trim()
            .min(1)
            .max(300)
            .regex(/^[A-Za-z0-9*.:_-]+$/, 'a host pattern has letters, digits, . - _ : and * only')
            .optional(),
        })
        .refine((c) => c.brokers.length > 0 || c.hostPattern !== undefined, 'a Kafka cluster needs brokers or a hostPattern'),
    )
    .max(1000)
    .default([]),
  namespaceAliases: z
    .array(z.strictObject({ name: ruleName, from: z.union([namespaceText, z.array(namespaceText).min(1).max(1000)]), to: namespaceText }))
    .max(1000)
    .default([]),
  datasetAliases: z.array(z.strictObject({ name: ruleName, from: datasetName, to: datasetName })).max(10_000).default([]),
});

export type IdentityRulesFile = z.input<typeof fileSchema>;

/** Glob with `*` (any run of characters but `:`), case-insensitive, anchored. */
function hostGlob(pattern: string): RegExp {
  const body = pattern
    .toLowerCase()
    .split('*')
    .map((part) => part.replace(/[.\\^$+?()[\]{}|-]/g, '\\$&'))
    .join('[^:]*');
  return new RegExp(`^${body}$`);
}

/** Parses and checks a rules document (already decoded from YAML/JSON); throws ConfigError with every problem. */
export function compileRules(doc: unknown, source = 'identity rules'): IdentityRules {
  const parsed = fileSchema.safeParse(doc ?? {});
  if (!parsed.success) throw new ConfigError(`invalid ${source}: ${describeIssues(parsed.error.issues)}`);
  const f = parsed.data;
  const problems: string[] = [];
  const names = new Set<string>();
  const declared: IdentityRules['declared'] = [];
  const declare = (name: string, kind: IdentityRuleKind, definition: unknown) => {
    if (names.has(name)) problems.push(`rule name "${name}" is used twice`);
    names.add(name);
    declared.push({ name, kind, definition: JSON.stringify(definition) });
  };
  const ns = (text: string) => normaliseDatasetName(text, 'x').namespace;

  const kafkaClusters = f.kafkaClusters.map((c) => {
    declare(c.name, IdentityRuleKind.KAFKA_CLUSTER, c);
    return {
      name: c.name,
      namespace: ns(c.namespace),
      brokers: new Set(c.brokers.map((b) => b.toLowerCase())),
      pattern: c.hostPattern ? hostGlob(c.hostPattern) : null,
    };
  });
  const namespaceAliases = new Map<string, { to: string; rule: string }>();
  for (const a of f.namespaceAliases) {
    declare(a.name, IdentityRuleKind.NAMESPACE_ALIAS, a);
    for (const from of Array.isArray(a.from) ? a.from : [a.from]) {
      const key = ns(from);
      if (key === ns(a.to)) problems.push(`namespaceAliases "${a.name}": ${from} is already ${a.to}`);
      else if (namespaceAliases.has(key)) problems.push(`namespaceAliases "${a.name}": ${from} is aliased twice`);
      else namespaceAliases.set(key, { to: ns(a.to), rule: a.name });
    }
  }
  const datasetAliases = new Map<string, { namespace: string; name: string; rule: string }>();
  for (const a of f.datasetAliases) {
    declare(a.name, IdentityRuleKind.DATASET_ALIAS, a);
    const from = normaliseDatasetName(a.from.namespace, a.from.name);
    const to = normaliseDatasetName(a.to.namespace, a.to.name);
    const key = datasetKey(from.namespace, from.name);
    if (key === datasetKey(to.namespace, to.name)) problems.push(`datasetAliases "${a.name}": from and to are one name`);
    else if (datasetAliases.has(key)) problems.push(`datasetAliases "${a.name}": ${a.from.namespace} ${a.from.name} is aliased twice`);
    else datasetAliases.set(key, { namespace: to.namespace, name: to.name, rule: a.name });
  }
  for (const [from, a] of namespaceAliases) {
    if (namespaceAliases.has(a.to)) problems.push(`namespaceAliases "${a.rule}": ${from} → ${a.to}, which is itself aliased (rules do not chain)`);
  }
  for (const a of datasetAliases.values()) {
    if (datasetAliases.has(datasetKey(a.namespace, a.name)) || namespaceAliases.has(a.namespace)) {
      problems.push(`datasetAliases "${a.rule}": its target ${a.namespace} ${a.name} is itself aliased (rules do not chain)`);
    }
  }
  if (problems.length > 0) throw new ConfigError(`invalid ${source}: ${problems.join('; ')}`);
  const digest = declared.length === 0 ? '' : createHash('sha256').update(JSON.stringify(declared)).digest('hex');
  return { digest, count: declared.length, kafkaClusters, namespaceAliases, datasetAliases, declared };
}

/** Reads and compiles the rules file (.yaml/.yml/.json; YAML is a superset of JSON). */
export function loadRules(file: string | undefined): IdentityRules {
  if (!file) return NO_RULES;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`TRIBUTARY_IDENTITY_RULES: cannot read ${file}: ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = parseSettingsDocument(text);
  } catch (err) {
    throw new ConfigError(`TRIBUTARY_IDENTITY_RULES: ${file} is not valid YAML or JSON: ${(err as Error).message}`);
  }
  return compileRules(doc, `TRIBUTARY_IDENTITY_RULES file ${file}`);
}

/**
 * Whether the graph was projected with `rules`: on an empty graph the rules are recorded; otherwise a
 * difference is returned as a warning (names already projected keep the rules they were projected
 * with until `npm run reproject`). A graph with no record was projected without rules.
 */
export async function checkRulesState(executor: Executor, rules: IdentityRules): Promise<string | null> {
  const [state] = await executor.read<{ digest: string | null; datasets: boolean }>(Query.IdentityRulesState, {});
  const stored = state?.digest ?? '';
  if (stored === rules.digest) return null;
  if (!state?.datasets) {
    await recordRules(executor, rules);
    return null;
  }
  return (
    `the identity rules (${rules.count} now) differ from those the stored graph was projected with: ` +
    'names already projected keep the old rules until `npm run reproject` replays the stored events'
  );
}

/** Records that the whole graph is projected with `rules` (after a full reprojection). */
export async function recordRules(executor: Executor, rules: IdentityRules): Promise<void> {
  await executor.writeTx(Query.RecordIdentityRules, (tx) =>
    tx.run(Query.RecordIdentityRules, { digest: rules.digest, count: rules.count, at: new Date().toISOString() }),
  );
}
