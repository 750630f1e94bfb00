import { createHash } from 'node:crypto';
import type { TxRunner } from '../graph/executor';
import { Query } from '../graph/queries';
import { jobVersionId } from '../ids';
import { canonicalJson } from './stored-event';

/**
 * Job versions: one per distinct (inputs, outputs, source code) of a job's runs. Recomputed for
 * the runs a batch touched, after their edges are written (one read, one write), so a run whose
 * later events add IO moves to its final version and the result depends only on the events.
 * Runs that reported neither IO nor source code get no version.
 */
export async function refreshJobVersions(tx: TxRunner, runIds: string[]): Promise<void> {
  if (runIds.length === 0) return;
  const runs = await tx.run<{ runId: string; jobId: string; inputs: string[]; outputs: string[]; codeSig: string | null }>(
    Query.RunIoForVersions,
    { runIds },
  );
  const rows = runs
    .filter((r) => r.inputs.length + r.outputs.length > 0 || r.codeSig !== null)
    .map((r) => ({ ...r, versionId: jobVersionId(r.jobId, versionHash(r.inputs, r.outputs, r.codeSig)) }));
  if (rows.length === 0) return;
  await tx.run(Query.MergeJobVersions, { rows, jobIds: [...new Set(rows.map((r) => r.jobId))] });
}

export function versionHash(inputs: string[], outputs: string[], codeSig: string | null): string {
  return createHash('sha256').update(canonicalJson({ inputs, outputs, codeSig })).digest('hex').slice(0, 16);
}
