import type { Executor } from '../graph/executor';
import { Query } from '../graph/queries';
import { cmp } from './common';
import { groupBy } from './group';
import { BreakRole, MatchStrength } from './types';

/**
 * Where lineage breaks at engine boundaries: datasets read but never written by a known job
 * (SOURCE), written but never read (SINK), and pairs of a sink and a source whose names probably
 * denote the same thing under different naming (not linked as aliases), with the evidence. A match
 * compares the last two name segments (split on / . :), lower-cased; one common segment is weaker.
 */

export interface BreakDataset {
  id: string;
  namespace: string;
  name: string;
  role: BreakRole;
  /** Up to 5 readers (SOURCE) or writers (SINK). */
  jobs: string[];
  engines: string[];
  aliases: string[];
}

export interface ProbableMatch {
  sinkId: string;
  sourceId: string;
  /** The name segments both share, e.g. "db.orders". */
  key: string;
  /** STRONG: two segments match; WEAK: only the last one. */
  strength: MatchStrength;
  evidence: string[];
}

export interface LineageBreaks {
  sources: BreakDataset[];
  sinks: BreakDataset[];
  probableMatches: ProbableMatch[];
  /** True when more break datasets exist than were read (the limit). */
  truncated: boolean;
}

export class BreaksService {
  constructor(
    private readonly executor: Executor,
    private readonly maxRows: number,
  ) {}

  async breaks(namespacePrefix: string | null): Promise<LineageBreaks> {
    const rows = await this.executor.read<BreakDataset>(Query.LineageBreaks, { namespace: namespacePrefix, limit: this.maxRows + 1 });
    const list = rows.slice(0, this.maxRows);
    const sources = list.filter((r) => r.role === BreakRole.SOURCE);
    const sinks = list.filter((r) => r.role === BreakRole.SINK);
    return { sources, sinks, probableMatches: matches(sinks, sources), truncated: rows.length > this.maxRows };
  }
}

function segments(name: string): string[] {
  return name
    .toLowerCase()
    .replace(/\.(parquet|csv|json|avro|orc|txt)$/, '')
    .split(/[/.:]+/)
    .filter(Boolean);
}

function matches(sinks: BreakDataset[], sources: BreakDataset[]): ProbableMatch[] {
  const byLast = groupBy(sources, (src) => segments(src.name).at(-1) || undefined);
  const out: ProbableMatch[] = [];
  for (const sink of sinks) {
    const s = segments(sink.name);
    for (const src of byLast.get(s.at(-1) ?? '') ?? []) {
      if (src.id === sink.id || sink.aliases.includes(src.id)) continue;
      const r = segments(src.name);
      const strong = s.length > 1 && r.length > 1 && s.at(-2) === r.at(-2);
      const key = strong ? `${s.at(-2)}.${s.at(-1)}` : s.at(-1)!;
      out.push({
        sinkId: sink.id,
        sourceId: src.id,
        key,
        strength: strong ? MatchStrength.STRONG : MatchStrength.WEAK,
        evidence: [
          strong ? `both names end in ${key}` : `both names end in ${key} (the segment before differs)`,
          `${sink.name} is written (by ${sink.jobs.join(', ') || 'no job'}; ${sink.engines.join(', ')}) and never read`,
          `${src.name} is read (by ${src.jobs.join(', ') || 'no job'}; ${src.engines.join(', ')}) and never written`,
          sink.namespace === src.namespace ? `same namespace ${sink.namespace}` : `namespaces differ: ${sink.namespace} vs ${src.namespace}`,
          'no symlinks facet links them',
        ],
      });
    }
  }
  const rank = (m: ProbableMatch) => (m.strength === MatchStrength.STRONG ? 0 : 1);
  return out.sort((a, b) => rank(a) - rank(b) || cmp(a.sinkId + a.sourceId, b.sinkId + b.sourceId));
}
