import { SIZES, stream } from './generator';
import { compactPlan } from '../src/ingest/compact';
import { planEvent } from '../src/ingest/plan';
import { emptyPlan } from '../src/ingest/plan-rows';
import { validateEvent } from '../src/ingest/validate';

/**
 * Could two projection transactions run at once on a bench stream? Each takes the locks of its
 * batch's jobs, datasets and runs first (cypher/ingest/lock-projection.cypher), so two batches
 * overlap in Neo4j only where those sets are disjoint. Cuts the first `events` of a size's stream
 * into batches of `batch` (the projector's default 500), as the spool hands them over, and counts
 * for each distance between two batches how many pairs share nothing and what they share. The
 * sets are the plan's own ids: the transaction also locks datasets two SYMLINK hops away and those
 * its runs wrote before, so a shared id here is a shared lock there, and a disjoint pair here may
 * still meet in the graph. An id an earlier batch wrote exists when both start, so both lock it in
 * their first statement and the second waits there for the first's commit; an id only the first
 * creates is not locked by the second (it does not exist for it yet), which waits at its MERGE instead.
 *
 *   node dist/bench/lock-overlap.js [size=M] [batch=500] [events=12000]
 */
function main(): void {
  const [size = 'M', batch = '500', count = '12000'] = process.argv.slice(2);
  const opts = SIZES[size];
  if (!opts) {
    console.error(`unknown size ${size}: one of ${Object.keys(SIZES).join(', ')}`);
    process.exitCode = 2;
    return;
  }
  const perBatch = Number(batch);
  const sets: Set<string>[] = [];
  let current = emptyPlan();
  let inBatch = 0;
  const close = () => {
    const p = compactPlan(current);
    sets.push(new Set([...p.jobs.map((j) => `job ${j.id}`), ...p.datasets.map((d) => `dataset ${d.id}`), ...p.runs.map((r) => `run ${r.id}`)]));
    current = emptyPlan();
    inBatch = 0;
  };
  let seen = 0;
  for (const e of stream({ ...opts, seed: 7 })) {
    if (seen === Number(count)) break;
    seen++;
    planEvent(current, validateEvent(e));
    if (++inBatch === perBatch) close();
  }
  if (inBatch > 0) close();
  console.log(`${size}, ${seen} events in ${sets.length} batches of ${perBatch}; median locked ids per batch ${median(sets.map((s) => s.size))}`);
  for (const gap of [1, 2, 3, 4, 6, 8].filter((g) => g < sets.length)) {
    const shared: number[] = [];
    const existing: number[] = [];
    const kinds = new Map<string, number>();
    const before = new Set<string>();
    for (let k = 0; k + gap < sets.length; k++) {
      let n = 0;
      let old = 0;
      for (const id of sets[k]!) {
        if (!sets[k + gap]!.has(id)) continue;
        n++;
        if (before.has(id)) old++;
        const kind = id.slice(0, id.indexOf(' '));
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
      shared.push(n);
      existing.push(old);
      for (const id of sets[k]!) before.add(id);
    }
    const disjoint = shared.filter((n) => n === 0).length;
    const free = existing.filter((n) => n === 0).length;
    const what = [...kinds].map(([k, n]) => `${k} ${n}`).join(', ') || 'nothing';
    console.log(`batches ${gap} apart: ${disjoint} of ${shared.length} pairs disjoint; shared ids per pair median ${median(shared)}, max ${Math.max(0, ...shared)} (in all: ${what}); ${free} of ${shared.length} share no id an earlier batch wrote (median ${median(existing)} such ids per pair)`);
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1] ?? 0;
}

main();
