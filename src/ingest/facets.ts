import { z } from 'zod';
import { UUID_PATTERN } from '../ids';

/**
 * Zod schemas of the standard OpenLineage facets (spec/facets/*.json, 2-0-x, compatible with
 * 1-0-x). Policy (README "Tolerance policy"):
 *  - a standard facet is checked for the fields its JSON Schema requires and for the types of the
 *    fields Tributary reads; extra keys always pass through untouched;
 *  - `_producer` and `_schemaURL` are optional (many producers omit them);
 *  - a facet under an unknown key is kept as opaque JSON, it only has to be an object;
 *  - a facet marked `{"_deleted": true}` passes as is (spec: deletes the facet).
 */

const facetBase = {
  _producer: z.string().optional(),
  _schemaURL: z.string().optional(),
  _deleted: z.boolean().nullish(),
};

const facet = <T extends z.ZodRawShape>(shape: T) => z.looseObject({ ...facetBase, ...shape });
const nonNegInt = z.number().int().min(0);

export interface SchemaField {
  name: string;
  type?: string | null;
  description?: string | null;
  fields?: SchemaField[];
}

const schemaField: z.ZodType<SchemaField> = z.lazy(() =>
  z.looseObject({
    name: z.string(),
    type: z.string().nullish(),
    description: z.string().nullish(),
    fields: z.array(schemaField).optional(),
  }),
);

const transformation = z.looseObject({
  type: z.string(),
  subtype: z.string().nullish(),
  description: z.string().nullish(),
  masking: z.boolean().nullish(),
});

const inputField = z.looseObject({
  namespace: z.string(),
  name: z.string(),
  field: z.string(),
  transformations: z.array(transformation).nullish(),
});

export const columnLineageFacet = facet({
  fields: z.record(
    z.string(),
    z.looseObject({
      inputFields: z.array(inputField),
      transformationDescription: z.string().nullish(),
      transformationType: z.string().nullish(),
    }),
  ),
  dataset: z.array(inputField).nullish(),
});

const owners = z.array(z.looseObject({ name: z.string(), type: z.string().nullish() })).nullish();

/** Dataset facets (in `facets`) by key. */
export const datasetFacets = {
  schema: facet({ fields: z.array(schemaField).nullish() }),
  columnLineage: columnLineageFacet,
  documentation: facet({ description: z.string() }),
  ownership: facet({ owners }),
  symlinks: facet({
    identifiers: z.array(z.looseObject({ namespace: z.string(), name: z.string(), type: z.string() })).nullish(),
  }),
  dataSource: facet({ name: z.string().nullish(), uri: z.string().nullish() }),
  lifecycleStateChange: facet({ lifecycleStateChange: z.string() }),
  storage: facet({ storageLayer: z.string(), fileFormat: z.string().nullish() }),
  version: facet({ datasetVersion: z.string() }),
  datasetType: facet({ datasetType: z.string() }),
};

/** Input dataset facets (in `inputFacets`) by key. */
export const inputDatasetFacets = {
  dataQualityMetrics: facet({
    rowCount: nonNegInt.nullish(),
    bytes: nonNegInt.nullish(),
    fileCount: nonNegInt.nullish(),
    // Required by the facet schema, but producers omit it (Marquez's own full-event fixture does);
    // its absence loses nothing Tributary reads, so it is tolerated.
    columnMetrics: z.record(z.string(), z.looseObject({})).nullish(),
  }),
  dataQualityAssertions: facet({
    assertions: z.array(z.looseObject({ assertion: z.string(), success: z.boolean(), column: z.string().nullish() })),
  }),
  inputStatistics: facet({ rowCount: nonNegInt.nullish(), size: nonNegInt.nullish(), fileCount: nonNegInt.nullish() }),
};

/** Output dataset facets (in `outputFacets`) by key. */
export const outputDatasetFacets = {
  outputStatistics: facet({ rowCount: nonNegInt.nullish(), size: nonNegInt.nullish(), fileCount: nonNegInt.nullish() }),
};

const uuid = z.string().regex(UUID_PATTERN, 'expected a UUID');

/** Run facets by key. */
export const runFacets = {
  parent: facet({
    run: z.looseObject({ runId: uuid }),
    job: z.looseObject({ namespace: z.string(), name: z.string() }),
    root: z
      .looseObject({
        run: z.looseObject({ runId: uuid }),
        job: z.looseObject({ namespace: z.string(), name: z.string() }),
      })
      .nullish(),
  }),
  nominalTime: facet({ nominalStartTime: z.string(), nominalEndTime: z.string().nullish() }),
  errorMessage: facet({ message: z.string(), programmingLanguage: z.string(), stackTrace: z.string().nullish() }),
  processing_engine: facet({ version: z.string(), name: z.string().nullish() }),
  externalQuery: facet({ externalQueryId: z.string(), source: z.string() }),
};

/** Job facets by key. */
export const jobFacets = {
  jobType: facet({ processingType: z.string(), integration: z.string(), jobType: z.string().nullish() }),
  sql: facet({ query: z.string() }),
  sourceCode: facet({ language: z.string(), sourceCode: z.string() }),
  sourceCodeLocation: facet({ type: z.string(), url: z.string() }),
  documentation: facet({ description: z.string() }),
  ownership: facet({ owners }),
};

/**
 * A facet map: known keys are checked with their schema, unknown keys must be objects.
 * A facet that is exactly `{"_deleted": true}` is accepted under any key.
 */
export function facetMap(known: Record<string, z.ZodType>) {
  const anyFacet = z.looseObject({});
  return z.record(z.string(), z.unknown()).superRefine((facets, ctx) => {
    for (const [key, value] of Object.entries(facets)) {
      if (isDeletion(value)) continue;
      const schema = known[key] ?? anyFacet;
      const result = schema.safeParse(value);
      if (!result.success) {
        for (const issue of result.error.issues) {
          ctx.addIssue({ code: 'custom', message: issue.message, path: [key, ...issue.path] });
        }
      }
    }
  });
}

function isDeletion(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { _deleted?: unknown })._deleted === true;
}
