import { createHash } from 'node:crypto';
import type { TxRunner } from '../graph/executor';
import { Query } from '../graph/queries';
import { jobVersionId } from '../ids';
import { canonicalJson } from './stored-event';

/** A run's inputs, outputs and source code signature (run-io-for-versions.cypher). */
export interface RunIo {
  runId: string;
  jobId: string;
  inputs: string[];
  outputs: string[];
  codeSig: string | null;
}

/**
 * Job versions: one per distinct (inputs, outputs, source code) of a job's runs. Recomputed for
 * the runs a batch touched, after their edges are written (one read, one write), so a run whose
 * later events add IO moves to its final version and the result depends only on the events.
 * Incremental: a batch's cost follows its runs, not the history of their jobs (merge-job-versions.cypher).
 * Runs that reported neither IO nor source code get no version. A run id reused across jobs (some
 * dbt fixtures do) makes one Run node of several jobs: its version is under the lowest job id, and
 * the versions of all its jobs are recounted, so none is left behind whatever the arrival order.
 *
 * `runIo` is the IO of the runs the batch touched, read once this batch's
 * edges are written (run-io-for-versions.cypher; the caller pipelines the read behind its writes);
 * `after`, when given, is sent right behind the version write, without a round trip between.
 */
export async function refreshJobVersions(tx: TxRunner, runIo: Promise<RunIo[]>, after?: () => Promise<unknown>): Promise<void> {
  const rows = (await runIo)
    .filter((r) => r.inputs.length + r.outputs.length > 0 || r.codeSig !== null)
    .map((r) => ({ ...r, versionId: jobVersionId(r.jobId, versionHash(r.inputs, r.outputs, r.codeSig)) }));
  // A run whose reused id moved it to another job leaves its old version: merge-job-versions recounts
  // every version that lost a run (and deletes it when empty), under whichever job.
  const merged = rows.length > 0 ? tx.run(Query.MergeJobVersions, { rows }) : Promise.resolve();
  await Promise.all([merged, after?.()]);
}

export function versionHash(inputs: string[], outputs: string[], codeSig: string | null): string {
  return createHash('sha256').update(canonicalJson({ inputs, outputs, codeSig })).digest('hex').slice(0, 16);
}
