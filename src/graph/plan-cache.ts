import type { Executor } from './executor';
import { Query } from './queries';

/**
 * Neo4j's query-plan compilations, counted by the database itself since it started (the embedded
 * Neo4j's `tributary.queryCaches()` procedure, tools/neo4j/Launcher.java). A compile costs about a
 * second of a core on a small machine, so one met on a request's path is an outlier that request
 * pays; the plan warm-up (warmup.ts) is there so that none is. `plans`: logical plans compiled (the
 * planner ran); `codeGen`: plans recompiled with compiled expressions once hot; `stale`: cached
 * plans replanned because the graph's statistics changed.
 */
export interface PlanCounters {
  plans: number;
  codeGen: number;
  stale: number;
}

/** The counters now, or null when the server has no such procedure (a Neo4j other than the embedded one). */
export async function readPlanCounters(executor: Executor): Promise<PlanCounters | null> {
  try {
    const [row] = await executor.read<PlanCounters>(Query.PlanCache);
    return row ?? null;
  } catch (err) {
    if ((err as { code?: string }).code === 'Neo.ClientError.Procedure.ProcedureNotFound') return null;
    throw err;
  }
}

/** What was compiled between two readings (null when either is unknown). */
export function compiledSince(before: PlanCounters | null, after: PlanCounters | null): PlanCounters | null {
  if (!before || !after) return null;
  return { plans: after.plans - before.plans, codeGen: after.codeGen - before.codeGen, stale: after.stale - before.stale };
}
