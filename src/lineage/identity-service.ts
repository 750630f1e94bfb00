import { notFound } from '../errors';
import type { Executor } from '../graph/executor';
import { Query } from '../graph/queries';
import { datasetId, parseIdOfKind } from '../ids';
import { normaliseDatasetName, parseNormalisation, type IdentityRules } from '../ingest/naming';
import { checkFirst, cmp } from './common';
import { EntityKind, type IdentityRuleKind, NameSource, type NormalisationCode } from './types';

/**
 * Why a dataset has the names it has (the `identity` query): the node's own name, each raw spelling
 * producers sent that normalisation or an identity rule turned into it (with every step and its
 * code), and each dataset a symlinks facet declares the same (with the declaring event, its job and
 * run), and those names' raw spellings in turn. For a field id: the field of that name under each
 * name. Order: CANONICAL first, then by symlink distance, then by id; RAW spellings right after the
 * name they became.
 */

export interface NormalisationStep {
  code: NormalisationCode;
  /** The identity rule's name (RULE_* codes), else null. */
  rule: string | null;
  message: string;
}

export interface SymlinkDeclaration {
  /** The dataset whose symlinks facet lists `toId`. */
  fromId: string;
  toId: string;
  type: string;
  firstSeen: string;
  /** The stored event that declared it first; null for graphs projected before events were recorded on symlinks. */
  eventId: string | null;
  eventTime: string | null;
  jobId: string | null;
  runId: string | null;
  producer: string | null;
}

export interface KnownName {
  /** The node id of this name; for RAW, the id of the node the spelling became. */
  id: string;
  namespace: string;
  name: string;
  source: NameSource;
  /** RAW: the steps from this spelling to the node's name, in order. */
  steps: NormalisationStep[];
  /** SYMLINK: the symlink that links this name (the last one on the shortest link). */
  symlink: SymlinkDeclaration | null;
  /** Symlinks between this name and the asked dataset (0: the dataset itself or its raw spellings). */
  hops: number;
  /** For a field question: the field's id under this name, null when none was reported under it. */
  fieldId: string | null;
}

export interface AppliedRule {
  name: string;
  kind: IdentityRuleKind;
  /** The rule as declared (JSON). */
  definition: string;
}

export interface Identity {
  /** The id asked about. */
  requestedId: string;
  /** The dataset the answer is about (the requested one, or what the current rules make of its name). */
  id: string;
  namespace: string;
  name: string;
  /** The field asked about (field ids), else null. */
  field: string | null;
  names: KnownName[];
  /** The identity rules named in any step, as now declared (a rule since removed is absent). */
  rules: AppliedRule[];
  /** True when the dataset has more symlinked names than `first`. */
  truncated: boolean;
}

interface NameRow {
  id: string;
  namespace: string;
  name: string;
  rawNames: string[];
  normalisations: string[];
  fieldId: string | null;
  hops?: number;
  via?: SymlinkDeclaration & { from: string; to: string };
}

/** RAW names of one node, from its normalisation entries (sorted by spelling). */
function rawNames(node: NameRow, hops: number): KnownName[] {
  const bySpelling = new Map<string, KnownName>();
  for (const entry of node.normalisations) {
    const n = parseNormalisation(entry);
    if (!n) continue;
    const key = `${n.namespace}\u0000${n.name}`;
    let known = bySpelling.get(key);
    if (!known) {
      known = { id: node.id, namespace: n.namespace, name: n.name, source: NameSource.RAW, steps: [], symlink: null, hops, fieldId: node.fieldId };
      bySpelling.set(key, known);
    }
    known.steps.push({ code: n.code, rule: n.rule, message: n.message });
  }
  return [...bySpelling.entries()].sort((a, b) => cmp(a[0], b[0])).map(([, k]) => k);
}

export class IdentityService {
  constructor(
    private readonly executor: Executor,
    private readonly rules: IdentityRules,
  ) {}

  /**
   * The id a dataset id's name has once normalised with the rules in force (the same id when the
   * name is already canonical): how `dataset(id)` finds a dataset by the spelling its producer sent.
   */
  canonicalDatasetId(id: string): string {
    const ref = parseIdOfKind(id, EntityKind.DATASET);
    const n = normaliseDatasetName(ref.namespace, ref.name, this.rules);
    return datasetId(n.namespace, n.name);
  }

  async identity(requestedId: string, first: number): Promise<Identity> {
    checkFirst(first, 500);
    const ref = parseIdOfKind(requestedId, EntityKind.DATASET, EntityKind.FIELD);
    const field = ref.kind === EntityKind.FIELD ? ref.field : null;
    // The id as given, else the name the current rules give it (a raw spelling producers send).
    const normal = normaliseDatasetName(ref.namespace, ref.name, this.rules);
    const candidates = [...new Set([datasetId(ref.namespace, ref.name), datasetId(normal.namespace, normal.name)])];
    for (const id of candidates) {
      const [row] = await this.executor.read<{ node: NameRow; names: Required<NameRow>[]; more: boolean }>(Query.Identity, { id, field, limit: first });
      if (row) return this.answer(requestedId, field, row.node, row.names, row.more);
    }
    const shown = (id: string) => (id.length > 200 ? `${id.slice(0, 200)}…` : id);
    throw notFound(`no dataset with id "${shown(candidates[0]!)}"${candidates.length > 1 ? ` (nor "${shown(candidates[1]!)}", its name under the identity rules)` : ''}`);
  }

  private answer(requestedId: string, field: string | null, node: NameRow, aliases: Required<NameRow>[], more: boolean): Identity {
    const names: KnownName[] = [
      { id: node.id, namespace: node.namespace, name: node.name, source: NameSource.CANONICAL, steps: [], symlink: null, hops: 0, fieldId: node.fieldId },
      ...rawNames(node, 0),
    ];
    for (const a of aliases) {
      const { from, to, ...via } = a.via;
      names.push({
        id: a.id,
        namespace: a.namespace,
        name: a.name,
        source: NameSource.SYMLINK,
        steps: [],
        symlink: { ...via, fromId: from, toId: to },
        hops: a.hops,
        fieldId: a.fieldId,
      });
      names.push(...rawNames(a, a.hops));
    }
    const used = new Set(names.flatMap((n) => n.steps.map((s) => s.rule)).filter((r): r is string => r !== null));
    const rules = this.rules.declared.filter((r) => used.has(r.name));
    return { requestedId, id: node.id, namespace: node.namespace, name: node.name, field, names, rules, truncated: more };
  }
}
