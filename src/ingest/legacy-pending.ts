import type { Executor } from '../graph/executor';
import { Query } from '../graph/queries';
import type { Logger } from '../log';
import type { IdentityRules } from './naming';
import { validateEvent } from './validate';
import { projectEvents } from './write-plan';
import type { ProjectionWriter } from './writer';

/**
 * Projects one page (at most `limit`) of events an earlier version, from before the spool, stored
 * labelled Pending in Neo4j and no process projects (received before `startedAt`, this process's
 * start, or over 10 s ago: a rolling upgrade), and marks them projected; those that no longer
 * validate are marked with that error. False when there were none.
 */
export async function projectLegacyPending(
  on: { executor: Executor; writer: ProjectionWriter; rules: IdentityRules; log: Logger },
  startedAt: string,
  limit: number,
): Promise<boolean> {
  const cutoff = new Date(Date.now() - 10_000).toISOString();
  const before = cutoff > startedAt ? cutoff : startedAt;
  const rows = await on.executor.read<{ id: string; raw: string; receivedAt: string }>(Query.PendingEvents, { before, limit });
  if (rows.length === 0) return false;
  const valid = rows.flatMap((r) => {
    try {
      return [{ id: r.id, valid: validateEvent(JSON.parse(r.raw)) }];
    } catch {
      return [];
    }
  });
  await on.writer.exclusive(() =>
    on.executor.writeTx('project', async (tx) => {
      await projectEvents(tx, valid, on.rules);
      await tx.run(Query.MarkProjected, { ids: valid.map((v) => v.id), error: null, at: new Date().toISOString() });
      const invalid = rows.filter((r) => !valid.some((v) => v.id === r.id)).map((r) => r.id);
      if (invalid.length > 0) await tx.run(Query.MarkProjected, { ids: invalid, error: 'no longer valid', at: new Date().toISOString() });
    }),
  );
  on.log.info('projected events an earlier version had stored without projecting', { events: rows.length });
  return true;
}
