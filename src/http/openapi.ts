import { ChangeCause, DiffChangeKind } from '../lineage/types';

/**
 * The OpenAPI 3.1 document of the coverage feed, lineage diff and embeds (src/http/coverage-routes.ts), served at
 * /api/v1/openapi.json. The figures are those of the GraphQL `coverage` and `coverageGaps`.
 */

const DIFF_KINDS = Object.values(DiffChangeKind);
const CAUSES = Object.values(ChangeCause);

const scopeParameters = [
  { name: 'scope', in: 'query', schema: { type: 'string', enum: ['ALL', 'NAMESPACE', 'JOB', 'ENGINE'], default: 'ALL' }, description: 'What to measure: every job, a namespace, one job (its id) or an engine.' },
  { name: 'value', in: 'query', schema: { type: 'string' }, description: 'The namespace, job id or engine of the scope; absent for ALL.' },
];
const trendParameters = [
  { name: 'bucket', in: 'query', schema: { type: 'string', enum: ['DAY', 'WEEK', 'MONTH'], default: 'WEEK' }, description: 'Trend bucket width (UTC; weeks start on Monday).' },
  { name: 'from', in: 'query', schema: { type: 'string', format: 'date-time' }, description: 'Trend start; default: the earliest edge.' },
  { name: 'to', in: 'query', schema: { type: 'string', format: 'date-time' }, description: 'Trend end; default: the latest edge.' },
];
const error = { description: 'Bad parameters (400), no or bad token (401/403), busy (503).', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };

const figures = {
  type: 'object',
  description: 'Job → output dataset edges of a group: with column-level lineage vs dataset level only, and output fields with an input field.',
  properties: {
    key: { type: 'string', description: "The group: 'all', an engine, a namespace or a job id." },
    edges: { type: 'integer' },
    columnLevel: { type: 'integer' },
    datasetLevelOnly: { type: 'integer' },
    columnLevelShare: { type: 'number', minimum: 0, maximum: 1 },
    outputFields: { type: 'integer' },
    fieldsWithInputs: { type: 'integer' },
    fieldShare: { type: 'number', minimum: 0, maximum: 1 },
    noInputEdges: { type: 'integer', description: 'Output edges of jobs that read nothing (CREATE TABLE, seeds): not counted in edges.' },
    collectedEdges: { type: 'integer', description: 'Output edges of jobs whose lineage Tributary collected (Kafka Connect connectors): no producer reports them, not counted in edges.' },
    declaredEdges: { type: 'integer', description: "Output edges a job's SQL declares and its events do not report (resolved STRONG): not counted in edges." },
  },
  required: ['key', 'edges', 'columnLevel', 'datasetLevelOnly', 'columnLevelShare', 'outputFields', 'fieldsWithInputs', 'fieldShare', 'noInputEdges', 'collectedEdges', 'declaredEdges'],
};

export const OPENAPI = {
  openapi: '3.1.0',
  info: {
    title: 'Tributary coverage feed and lineage diff',
    version: '1',
    description: 'Lineage coverage for dashboards and BI tools (flat rows, ISO-8601 UTC times). With a tokens file, send `Authorization: Bearer <token>` with the read scope.',
  },
  paths: {
    '/api/v1/coverage': {
      get: {
        summary: 'Coverage of a scope: overall, by engine, namespace and job, and a trend.',
        parameters: [...scopeParameters, ...trendParameters],
        responses: { '200': { description: 'The report.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Coverage' } } } }, '4XX': error, '503': error },
      },
    },
    '/api/v1/coverage/gaps': {
      get: {
        summary: 'Dataset-level-only edges ranked by the blast radius of their output: what to instrument next.',
        parameters: [...scopeParameters, { name: 'first', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200, default: 20 } }],
        responses: { '200': { description: 'The ranked gaps.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Gaps' } } } }, '4XX': error, '503': error },
      },
    },
    '/api/v1/lineage/diff': {
      get: {
        summary: 'What changed in a scope\'s lineage between two times, and its coverage at both (the GraphQL lineageDiff).',
        parameters: [
          ...scopeParameters,
          { name: 'from', in: 'query', required: true, schema: { type: 'string', format: 'date-time' }, description: 'Lineage as of this time.' },
          { name: 'to', in: 'query', schema: { type: 'string', format: 'date-time' }, description: 'Default: now.' },
          { name: 'kinds', in: 'query', schema: { type: 'string' }, description: `Comma-separated change kinds (default every kind): ${DIFF_KINDS.join(', ')}.` },
          { name: 'first', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
          { name: 'after', in: 'query', schema: { type: 'string' }, description: 'The nextCursor of the previous page.' },
        ],
        responses: { '200': { description: 'The diff; `changes` holds flat rows.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Diff' } } } }, '4XX': error, '503': error },
      },
    },
    '/embed/coverage.svg': {
      get: {
        summary: 'A coverage badge (shields.io flat style) coloured by TRIBUTARY_BADGE_THRESHOLDS.',
        parameters: [...scopeParameters, { name: 'label', in: 'query', schema: { type: 'string', maxLength: 40, default: 'lineage coverage' } }],
        responses: { '200': { description: 'SVG; ETag and Cache-Control (5 minutes).', content: { 'image/svg+xml': {} } }, '304': { description: 'Not modified (If-None-Match).' }, '4XX': error },
      },
    },
    '/embed/coverage': {
      get: {
        summary: 'A self-contained HTML widget for an iframe: share, weekly sparkline, top gaps, link to the explorer.',
        parameters: [...scopeParameters, ...trendParameters],
        responses: { '200': { description: 'HTML; frame-ancestors from TRIBUTARY_EMBED_FRAME_ANCESTORS.', content: { 'text/html': {} } }, '4XX': error },
      },
    },
  },
  components: {
    schemas: {
      Figures: figures,
      Coverage: {
        type: 'object',
        properties: {
          generatedAt: { type: 'string', format: 'date-time' },
          scope: { type: 'string' },
          value: { type: ['string', 'null'] },
          truncated: { type: 'boolean', description: 'byJob and trend are partial (more edges than TRIBUTARY_MAX_COVERAGE_EDGES).' },
          overall: { $ref: '#/components/schemas/Figures' },
          byEngine: { type: 'array', items: { $ref: '#/components/schemas/Figures' } },
          byNamespace: { type: 'array', items: { $ref: '#/components/schemas/Figures' } },
          byJob: { type: 'array', items: { $ref: '#/components/schemas/Figures' } },
          trend: {
            type: 'array',
            items: {
              type: 'object',
              properties: { start: { type: 'string', format: 'date-time' }, end: { type: 'string', format: 'date-time' }, edges: { type: 'integer' }, columnLevel: { type: 'integer' }, columnLevelShare: { type: 'number' } },
            },
          },
        },
      },
      Gaps: {
        type: 'object',
        properties: {
          generatedAt: { type: 'string', format: 'date-time' },
          totalGaps: { type: 'integer' },
          truncated: { type: 'boolean' },
          gaps: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                jobId: { type: 'string' },
                datasetId: { type: 'string' },
                engine: { type: 'string' },
                namespace: { type: 'string' },
                downstreamDatasets: { type: 'integer' },
                downstreamJobs: { type: 'integer' },
                impactTruncated: { type: 'boolean' },
              },
            },
          },
          totalLineageUnknown: { type: 'integer' },
          lineageUnknown: {
            type: 'array',
            description: 'Jobs whose lineage nobody reports (e.g. a Kafka Connect connector of a class Tributary does not map), most recently seen first.',
            items: {
              type: 'object',
              properties: {
                jobId: { type: 'string' },
                namespace: { type: 'string' },
                engine: { type: 'string' },
                reason: { type: 'string' },
                lastSeen: { type: ['string', 'null'] },
              },
            },
          },
        },
      },
      Diff: {
        type: 'object',
        properties: {
          generatedAt: { type: 'string', format: 'date-time' },
          scope: { type: 'string' },
          value: { type: ['string', 'null'] },
          from: { type: 'string', format: 'date-time' },
          to: { type: ['string', 'null'], format: 'date-time', description: 'As asked; null: the time of the request.' },
          coverageFrom: { $ref: '#/components/schemas/Figures' },
          coverageTo: { $ref: '#/components/schemas/Figures' },
          delta: { type: 'object', properties: { edges: { type: 'integer' }, columnLevel: { type: 'integer' }, columnLevelShare: { type: 'number' }, fieldShare: { type: 'number' } } },
          counts: { type: 'array', items: { type: 'object', properties: { kind: { type: 'string', enum: DIFF_KINDS }, count: { type: 'integer' } } } },
          total: { type: 'integer', description: 'Changes of the kinds asked for, in all.' },
          nextCursor: { type: ['string', 'null'], description: 'Pass as `after` for the next page; null on the last.' },
          truncated: { type: 'boolean', description: 'More edges than TRIBUTARY_MAX_COVERAGE_EDGES at either time: the diff is partial.' },
          unrecorded: { type: 'integer', description: 'Edges at both times whose fields and field edges were not compared (runs projected before per-run reports were kept).' },
          changes: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                kind: { type: 'string', enum: DIFF_KINDS },
                jobId: { type: ['string', 'null'] },
                datasetId: { type: ['string', 'null'] },
                direction: { type: ['string', 'null'], enum: ['INPUT', 'OUTPUT', null] },
                field: { type: ['string', 'null'] },
                inputFieldId: { type: ['string', 'null'] },
                fromRunId: { type: ['string', 'null'] },
                toRunId: { type: ['string', 'null'] },
                cause: { type: ['string', 'null'], enum: [...CAUSES, null] },
                fromProducer: { type: ['string', 'null'] },
                toProducer: { type: ['string', 'null'] },
              },
            },
          },
        },
      },
      Error: { type: 'object', properties: { error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } } } },
    },
  },
} as const;
