import { z } from 'zod';
import { UUID_PATTERN } from '../ids';
import {
  datasetFacets,
  facetMap,
  inputDatasetFacets,
  jobFacets,
  outputDatasetFacets,
  runFacets,
} from './facets';

/**
 * Zod schemas of the three OpenLineage event kinds (spec 2-0-2; 1-0-x events have the same
 * shape). Objects are loose: unknown keys are kept, never stripped, since the raw event is stored.
 * Normalisation (event time to UTC, normaliseEventTime) happens after validation, in validate.ts.
 */

export const EVENT_TYPES = ['START', 'RUNNING', 'COMPLETE', 'ABORT', 'FAIL', 'OTHER'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * ISO-8601 date-time. The offset is optional (no offset means UTC, as Marquez assumes) and the
 * fraction may have any number of digits (nanoseconds are truncated to milliseconds).
 */
export const EVENT_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Kept exactly as sent (no trimming: a job is found by the name its producer sent); not blank. */
const nonEmpty = z.string().refine((s) => s.trim().length > 0, 'must not be empty');

const eventTime = z.string().regex(EVENT_TIME, 'expected an ISO-8601 date-time such as 2024-05-01T12:00:00.000Z');

const runId = z
  .string()
  .regex(UUID_PATTERN, 'expected a UUID (OpenLineage runId)');

const job = z.looseObject({
  namespace: nonEmpty,
  name: nonEmpty,
  facets: facetMap(jobFacets).optional(),
});

/**
 * A dataset's namespace may be empty: openlineage-flink 1.53.0 on Flink 2.2 names a catalog table
 * whose connector gives no namespace (Iceberg's Flink sink) `""` + `<catalog>.<db>.<table>`.
 */
const datasetNamespace = z.string();

const datasetBase = {
  namespace: datasetNamespace,
  name: nonEmpty,
  facets: facetMap(datasetFacets).nullish(),
};

const inputDataset = z.looseObject({ ...datasetBase, inputFacets: facetMap(inputDatasetFacets).nullish() });
const outputDataset = z.looseObject({ ...datasetBase, outputFacets: facetMap(outputDatasetFacets).nullish() });
const staticDataset = z.looseObject(datasetBase);

const common = {
  eventTime,
  producer: nonEmpty,
  /** Informative only: the event is checked against Tributary's schema whatever it claims. */
  schemaURL: z.string().optional(),
};

export const runEventSchema = z.looseObject({
  ...common,
  eventType: z.enum(EVENT_TYPES).nullish(),
  run: z.looseObject({ runId, facets: facetMap(runFacets).nullish() }),
  job,
  inputs: z.array(inputDataset).nullish(),
  outputs: z.array(outputDataset).nullish(),
});

export const datasetEventSchema = z.looseObject({ ...common, dataset: staticDataset });

export const jobEventSchema = z.looseObject({
  ...common,
  job,
  inputs: z.array(staticDataset).nullish(),
  outputs: z.array(staticDataset).nullish(),
});

export type RunEventInput = z.infer<typeof runEventSchema>;
export type DatasetEventInput = z.infer<typeof datasetEventSchema>;
export type JobEventInput = z.infer<typeof jobEventSchema>;
export type InputDatasetInput = z.infer<typeof inputDataset>;
export type OutputDatasetInput = z.infer<typeof outputDataset>;
export type StaticDatasetInput = z.infer<typeof staticDataset>;
