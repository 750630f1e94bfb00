import type { Executor } from '../graph/executor';
import { Query } from '../graph/queries';
import type { DatasetRecord, FieldRecord, JobRecord, RunRecord } from './types';

/**
 * Batched lookups of datasets, jobs, runs and their neighbourhoods. Every method takes a list of
 * ids and answers in the same order (null or [] where nothing matches): the shape DataLoader needs,
 * so a GraphQL response costs one query per kind of lookup, not one per parent.
 */
export class CatalogService {
  constructor(private readonly executor: Executor) {}

  async datasets(ids: readonly string[]): Promise<(DatasetRecord | null)[]> {
    const rows = await this.executor.read<{ dataset: DatasetRecord }>(Query.DatasetsById, { ids });
    return align(ids, rows.map((r) => r.dataset), (d) => d.id, null);
  }

  async jobs(ids: readonly string[]): Promise<(JobRecord | null)[]> {
    const rows = await this.executor.read<{ job: JobRecord }>(Query.JobsById, { ids });
    return align(ids, rows.map((r) => r.job), (j) => j.id, null);
  }

  async runs(ids: readonly string[]): Promise<(RunRecord | null)[]> {
    const rows = await this.executor.read<{ run: RunRecord }>(Query.RunsById, { ids });
    return align(ids, rows.map((r) => r.run), (r) => r.id, null);
  }

  /** Fields of each dataset, ordered by name. */
  async fieldsOfDatasets(ids: readonly string[]): Promise<FieldRecord[][]> {
    const rows = await this.executor.read<{ datasetId: string; fields: FieldRecord[] }>(Query.FieldsOfDatasets, { ids });
    return align(ids, rows, (r) => r.datasetId, null).map((r) => r?.fields ?? []);
  }

  /** The id of each job's latest run (by last event time), or null for a job never run. */
  async latestRunOfJobs(ids: readonly string[]): Promise<(string | null)[]> {
    const rows = await this.executor.read<{ jobId: string; runId: string | null }>(Query.LatestRunOfJobs, { ids });
    return align(ids, rows, (r) => r.jobId, null).map((r) => r?.runId ?? null);
  }

  /** Dataset ids each job reads and writes. */
  async jobIo(ids: readonly string[]): Promise<{ inputs: string[]; outputs: string[] }[]> {
    const rows = await this.executor.read<{ jobId: string; inputs: string[]; outputs: string[] }>(Query.JobIoOfJobs, { ids });
    return align(ids, rows, (r) => r.jobId, null).map((r) => ({ inputs: r?.inputs ?? [], outputs: r?.outputs ?? [] }));
  }

  /** Dataset ids each run read and wrote. */
  async runIo(ids: readonly string[]): Promise<{ inputs: string[]; outputs: string[] }[]> {
    const rows = await this.executor.read<{ runId: string; inputs: string[]; outputs: string[] }>(Query.RunIoOfRuns, { ids });
    return align(ids, rows, (r) => r.runId, null).map((r) => ({ inputs: r?.inputs ?? [], outputs: r?.outputs ?? [] }));
  }

  /** Job ids that write (producers) and read (consumers) each dataset. */
  async datasetJobs(ids: readonly string[]): Promise<{ producers: string[]; consumers: string[] }[]> {
    const rows = await this.executor.read<{ datasetId: string; producers: string[]; consumers: string[] }>(
      Query.DatasetProducersConsumers,
      { ids },
    );
    return align(ids, rows, (r) => r.datasetId, null).map((r) => ({
      producers: r?.producers ?? [],
      consumers: r?.consumers ?? [],
    }));
  }
}

function align<T, D>(ids: readonly string[], rows: T[], key: (t: T) => string, missing: D): (T | D)[] {
  const byId = new Map(rows.map((r) => [key(r), r]));
  return ids.map((id) => byId.get(id) ?? missing);
}
