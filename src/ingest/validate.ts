import type { z } from 'zod';
import { badInput, type ErrorDetail } from '../errors';
import {
  datasetEventSchema,
  EVENT_TIME,
  jobEventSchema,
  runEventSchema,
  type DatasetEventInput,
  type EventType,
  type JobEventInput,
  type RunEventInput,
} from './schema';

/**
 * Validation and normalisation of one OpenLineage document.
 *
 * Dispatch: the definition named by `schemaURL`'s fragment (`#/$defs/RunEvent`,
 * `#/definitions/JobEvent`, ...) when it names one of the three kinds; otherwise the shape: a `run`
 * makes a RunEvent, a `dataset` a DatasetEvent, a `job` alone a JobEvent.
 *
 * Normalisation: `eventTime` becomes UTC with millisecond precision (`eventTimeUtc`), keeping the
 * original string in the raw event.
 */

export type EventKind = 'RunEvent' | 'DatasetEvent' | 'JobEvent';

interface Normalised {
  /** ISO-8601 UTC, millisecond precision: `2020-12-28T09:52:00.001Z`. Sorts lexicographically. */
  eventTimeUtc: string;
  /** Spec version from schemaURL (`2-0-2`), or null when absent or unrecognisable. */
  specVersion: string | null;
}

export type ValidEvent =
  | ({ kind: 'RunEvent'; event: RunEventInput; eventType: EventType | null } & Normalised)
  | ({ kind: 'DatasetEvent'; event: DatasetEventInput } & Normalised)
  | ({ kind: 'JobEvent'; event: JobEventInput } & Normalised);

const schemas: Record<EventKind, z.ZodType> = {
  RunEvent: runEventSchema,
  DatasetEvent: datasetEventSchema,
  JobEvent: jobEventSchema,
};

/** Validates one parsed JSON value; throws BAD_INPUT listing every offending field path. */
export function validateEvent(doc: unknown): ValidEvent {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw badInput('an OpenLineage event must be a JSON object', [{ path: '', message: 'expected an object', reason: 'NOT_AN_OBJECT' }]);
  }
  checkStructure(doc);
  const kind = eventKindOf(doc as Record<string, unknown>);
  const result = schemas[kind].safeParse(doc);
  if (!result.success) {
    const details = result.error.issues.map((i): ErrorDetail => {
      const path = formatPath(i.path as PropertyKey[]);
      return { path, message: i.message, reason: rejectionReason(path, i.message) };
    });
    throw badInput(`invalid OpenLineage ${kind}: ${details.length} problem(s)`, details);
  }
  checkIndexedSizes(result.data as Record<string, unknown>);
  const data = result.data as { eventTime: string; schemaURL?: string };
  const norm: Normalised = {
    eventTimeUtc: normaliseEventTime(data.eventTime),
    specVersion: specVersionOf(data.schemaURL),
  };
  switch (kind) {
    case 'RunEvent': {
      const event = result.data as RunEventInput;
      return { kind, event, eventType: event.eventType ?? null, ...norm };
    }
    case 'DatasetEvent':
      return { kind, event: result.data as DatasetEventInput, ...norm };
    case 'JobEvent':
      return { kind, event: result.data as JobEventInput, ...norm };
  }
}

/** Deepest nesting of objects and arrays an event may have (the spec's deepest facets need about 12). */
export const MAX_NESTING = 64;
/** Longest `namespace`, `name` or `field`, in UTF-8 bytes once escaped for ids (':' and '%' take 3). */
export const MAX_NAME_BYTES = 1000;
/** Longest facet key, in characters. */
export const MAX_FACET_KEY = 200;
/** Most facets in one `facets`, `inputFacets` or `outputFacets` object (the corpus has at most 11). */
export const MAX_FACETS = 100;
/** Longest dotted path of a nested schema field (`address.city`), in escaped bytes: it is part of the field's indexed id. */
export const MAX_FIELD_PATH_BYTES = 2000;
/** Longest `jobType.integration`, in characters: it becomes the job's indexed engine. */
export const MAX_ENGINE_CHARS = 200;

/**
 * The checks that must run before anything recursive touches an event (validation, canonical JSON,
 * the projection), without recursion itself: nesting depth (NESTING_TOO_DEEP), the length of every
 * string under a `namespace`, `name` or `field` key (NAME_TOO_LONG: names become node ids, which
 * Neo4j indexes up to about 4 KB), facet keys (INVALID_FACET_KEY: empty, longer than
 * MAX_FACET_KEY, or with control characters; they name facets in API answers), more than
 * MAX_FACETS facets in one object (TOO_MANY_FACETS: every one is stored on its node), and names
 * with a lone surrogate (INVALID_NAME).
 */
function checkStructure(doc: object): void {
  const stack: Visit[] = [{ value: doc, depth: 1, parent: null, step: '', key: '' }];
  // Paths into deep nesting or through huge keys are cut at 120 characters.
  const fail = (path: string, message: string, reason: string): never => {
    throw badInput(`invalid OpenLineage event: ${message}`, [{ path: path.length > 120 ? `${path.slice(0, 120)}…` : path, message, reason }]);
  };
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { value, depth, key } = visit;
    if (typeof value === 'string') {
      if (escapedBytes(value) > MAX_NAME_BYTES) fail(pathOf(visit), `a ${key} longer than ${MAX_NAME_BYTES} bytes (${escapedBytes(value)})`, 'NAME_TOO_LONG');
      // Neo4j stores strings as UTF-8: a lone surrogate would silently become U+FFFD.
      if (LONE_SURROGATE.test(value)) fail(pathOf(visit), `a ${key} with a lone UTF-16 surrogate (not a Unicode character)`, 'INVALID_NAME');
      continue;
    }
    if (depth > MAX_NESTING) fail(pathOf(visit), `nesting deeper than ${MAX_NESTING} levels`, 'NESTING_TOO_DEEP');
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) push(stack, value[i], depth + 1, visit, i, key);
      continue;
    }
    const facetMap = key === 'facets' || key === 'inputFacets' || key === 'outputFacets';
    const keys = Object.keys(value);
    // columnLineage's `fields` is keyed by output field name: each key becomes a Field id.
    if (key === 'fields') {
      for (const k of keys) {
        if (escapedBytes(k) > MAX_NAME_BYTES) fail(`${pathOf(visit)}.${k.slice(0, 40)}`, `a field name (a key of fields) longer than ${MAX_NAME_BYTES} bytes (${escapedBytes(k)})`, 'NAME_TOO_LONG');
        if (LONE_SURROGATE.test(k)) fail(`${pathOf(visit)}.${k.slice(0, 40)}`, 'a field name (a key of fields) with a lone UTF-16 surrogate (not a Unicode character)', 'INVALID_NAME');
      }
    }
    if (facetMap && keys.length > MAX_FACETS) fail(pathOf(visit), `more than ${MAX_FACETS} facets in one object (${keys.length})`, 'TOO_MANY_FACETS');
    for (const k of keys) {
      if (facetMap && (k.length === 0 || k.length > MAX_FACET_KEY || /[\u0000-\u001f\u007f]/.test(k))) {
        fail(pathOf(visit, k), `a facet key must have 1 to ${MAX_FACET_KEY} characters and no control characters`, 'INVALID_FACET_KEY');
      }
      push(stack, (value as Record<string, unknown>)[k], depth + 1, visit, k, k);
    }
  }
}

/**
 * A value checkStructure has still to look at: objects and arrays, and strings under a name key
 * (nothing else is checked). Its path is written only when it fails, from its parents.
 */
interface Visit {
  value: object | string;
  depth: number;
  parent: Visit | null;
  /** The key (objects) or index (arrays) under which `parent` holds it. */
  step: string | number;
  /** The key whose rules apply: an array's elements have their array's. */
  key: string;
}

function push(stack: Visit[], value: unknown, depth: number, parent: Visit, step: string | number, key: string): void {
  if (typeof value === 'object' ? value !== null : typeof value === 'string' && (key === 'namespace' || key === 'name' || key === 'field')) {
    stack.push({ value: value as object | string, depth, parent, step, key });
  }
}

/** The path of `visit` (and of `then` below it), written as validation's other errors are (formatPath). */
function pathOf(visit: Visit, ...then: string[]): string {
  const steps: (string | number)[] = [];
  for (let v: Visit | null = visit; v?.parent; v = v.parent) steps.push(v.step);
  return formatPath([...steps.reverse(), ...then]);
}

/**
 * Sizes of what the projection indexes, past the names checkStructure bounds (Neo4j refuses an
 * index key over about 8 KB, after the event was accepted): the engine (`jobType.integration`) and
 * the dotted path of every nested schema field. NAME_TOO_LONG naming the field.
 */
function checkIndexedSizes(doc: Record<string, unknown>): void {
  const fail = (path: string, message: string): never => {
    throw badInput(`invalid OpenLineage event: ${message}`, [{ path, message, reason: 'NAME_TOO_LONG' }]);
  };
  const job = doc.job as { facets?: { jobType?: { integration?: unknown } } } | undefined;
  const integration = job?.facets?.jobType?.integration;
  if (typeof integration === 'string' && integration.length > MAX_ENGINE_CHARS) {
    fail('job.facets.jobType.integration', `jobType.integration longer than ${MAX_ENGINE_CHARS} characters (${integration.length})`);
  }
  const datasets: [string, unknown][] = [
    ...(['inputs', 'outputs'] as const).flatMap((side) => (Array.isArray(doc[side]) ? (doc[side] as unknown[]).map((d, i): [string, unknown] => [`${side}[${i}]`, d]) : [])),
    ...(doc.dataset ? [['dataset', doc.dataset] as [string, unknown]] : []),
  ];
  for (const [at, d] of datasets) {
    const fields = (d as { facets?: { schema?: { fields?: unknown } } } | null)?.facets?.schema?.fields;
    if (!Array.isArray(fields)) continue;
    const stack: { fields: unknown[]; prefixBytes: number; path: string }[] = [{ fields, prefixBytes: 0, path: `${at}.facets.schema.fields` }];
    while (stack.length > 0) {
      const { fields: list, prefixBytes, path } = stack.pop()!;
      list.forEach((f, i) => {
        const field = f as { name?: unknown; fields?: unknown };
        const bytes = prefixBytes + (prefixBytes > 0 ? 1 : 0) + (typeof field?.name === 'string' ? escapedBytes(field.name) : 0);
        if (bytes > MAX_FIELD_PATH_BYTES) fail(`${path}[${i}].name`, `a nested field's dotted path longer than ${MAX_FIELD_PATH_BYTES} bytes (${bytes})`);
        if (Array.isArray(field?.fields)) stack.push({ fields: field.fields, prefixBytes: bytes, path: `${path}[${i}].fields` });
      });
    }
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const escapedBytes = (s: string) => Buffer.byteLength(s) + 2 * (s.match(/[:%]/g)?.length ?? 0);

export function eventKindOf(doc: Record<string, unknown>): EventKind {
  const url = typeof doc.schemaURL === 'string' ? doc.schemaURL : '';
  const named = /#\/(?:\$defs|definitions)\/(RunEvent|DatasetEvent|JobEvent)$/.exec(url);
  if (named) return named[1] as EventKind;
  if ('run' in doc) return 'RunEvent';
  if ('dataset' in doc) return 'DatasetEvent';
  if ('job' in doc) return 'JobEvent';
  return 'RunEvent';
}

export function specVersionOf(schemaURL: string | undefined): string | null {
  const m = schemaURL ? /\/spec\/(\d+-\d+-\d+)\//.exec(schemaURL) : null;
  return m ? m[1]! : null;
}

/** Converts an accepted eventTime (see EVENT_TIME) to UTC ISO with milliseconds. */
export function normaliseEventTime(text: string): string {
  const m = EVENT_TIME.exec(text);
  if (!m) throw badInput('invalid eventTime', [{ path: 'eventTime', message: `not a date-time: ${text}`, reason: 'INVALID_EVENT_TIME' }]);
  const [, y, mo, d, h, mi, s = '00', frac = '', zone = 'Z'] = m;
  const ms = (frac + '000').slice(0, 3);
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
  }
  const local = Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s, +ms);
  const date = new Date(local - offsetMinutes * 60_000);
  const valid =
    !Number.isNaN(date.getTime()) && +mo! >= 1 && +mo! <= 12 && +d! >= 1 && +d! <= 31 && +h! < 24 && +mi! < 60 && +s < 61;
  if (!valid) {
    throw badInput('invalid eventTime', [{ path: 'eventTime', message: `not a valid date-time: ${text}`, reason: 'INVALID_EVENT_TIME' }]);
  }
  return date.toISOString();
}

/**
 * The tolerance-policy reason for one validation problem (README "Tolerance policy"):
 *   MISSING_FIELD        a required field is absent
 *   INVALID_EVENT_TIME   eventTime is not an ISO-8601 date-time
 *   INVALID_RUN_ID       run.runId is not a UUID
 *   INVALID_FACET        a standard facet breaks its schema, or a facet is not an object
 *   INVALID_FIELD        any other field of the wrong type or value
 * and, before validation (checkStructure): NESTING_TOO_DEEP, NAME_TOO_LONG, INVALID_NAME, INVALID_FACET_KEY,
 *   TOO_MANY_FACETS.
 */
export function rejectionReason(path: string, message: string): string {
  if (/received undefined/.test(message) && !/facets\./i.test(path)) return 'MISSING_FIELD';
  if (path === 'eventTime') return 'INVALID_EVENT_TIME';
  if (path === 'run.runId') return 'INVALID_RUN_ID';
  if (/(^|\.)(facets|inputFacets|outputFacets)\./.test(path) || /\.(facets|inputFacets|outputFacets)$/.test(path)) return 'INVALID_FACET';
  return 'INVALID_FIELD';
}

/** `['inputs', 0, 'facets', 'schema']` → `inputs[0].facets.schema`. */
export function formatPath(path: PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out.length === 0 ? String(p) : `.${String(p)}`;
  }
  return out;
}
