import { z } from 'zod';
import { AppError, ErrorCode } from '../errors';

/**
 * Query parameters as Marquez (Dropwizard) takes them: ints that default and refuse negatives,
 * enums in any case (Dropwizard's fuzzy enum converter), booleans in any case, repeatable enums.
 * A refusal is a BAD_INPUT whose message reads like Marquez's bean-validation message; routes.ts
 * answers it in Marquez's `{"errors": [...]}` form.
 */

/** Marquez's bean-validation failure: answered 400 `{errors: [message]}` (routes.ts). */
export class ParamError extends AppError {
  constructor(message: string) {
    super(ErrorCode.BAD_INPUT, message);
  }
}

/** The largest page Tributary answers (Marquez has none); a larger limit is cut and the answer says so. */
export const MAX_PAGE = 1_000;

const first = (v: unknown): unknown => (Array.isArray(v) ? v[0] : v);

/** An integer query parameter ≥ 0 with a default. */
export function intParam(query: Record<string, unknown>, name: string, dflt: number): number {
  const raw = first(query[name]);
  if (raw === undefined || raw === '') return dflt;
  if (typeof raw !== 'string' || !/^-?\d{1,15}$/.test(raw.trim())) throw new ParamError(`query param ${name} is not a number`);
  const n = Number(raw.trim());
  if (n < 0) throw new ParamError(`query param ${name} must be greater than or equal to 0`);
  return n;
}

/** Marquez's paging: limit (default `dflt`, cut at MAX_PAGE: `capped` says so) and offset (0). */
export function pageParams(query: Record<string, unknown>, dflt = 100): { limit: number; offset: number; capped: boolean } {
  const limit = intParam(query, 'limit', dflt);
  return { limit: Math.min(limit, MAX_PAGE), offset: intParam(query, 'offset', 0), capped: limit > MAX_PAGE };
}

/** An enum parameter in any case, null when absent; the values are upper case. */
export function enumParam<T extends string>(query: Record<string, unknown>, name: string, values: readonly T[], required = false): T | null {
  const raw = first(query[name]);
  if (raw === undefined || raw === '') {
    if (required) throw new ParamError(`query param ${name} must not be null`);
    return null;
  }
  const v = String(raw).toUpperCase();
  if (!(values as readonly string[]).includes(v)) throw new ParamError(`query param ${name} must be one of ${values.join(', ')}`);
  return v as T;
}

/** A repeatable enum parameter (`?x=A&x=B`, any case); null when absent. */
export function enumListParam<T extends string>(query: Record<string, unknown>, name: string, values: readonly T[]): T[] | null {
  const raw = query[name];
  if (raw === undefined) return null;
  const list = (Array.isArray(raw) ? raw : [raw]).slice(0, 20);
  return list.map((x) => enumParam({ [name]: x }, name, values)!).filter(Boolean);
}

/** A boolean parameter in any case (`true`, `False`); `dflt` when absent. */
export function boolParam(query: Record<string, unknown>, name: string, dflt: boolean): boolean {
  const raw = first(query[name]);
  if (raw === undefined || raw === '') return dflt;
  const v = String(raw).toLowerCase();
  if (v !== 'true' && v !== 'false') throw new ParamError(`query param ${name} must be true or false`);
  return v === 'true';
}

/** A string parameter (at most `max` characters); null when absent. */
export function stringParam(query: Record<string, unknown>, name: string, max = 2_000): string | null {
  const raw = first(query[name]);
  if (raw === undefined) return null;
  const v = String(raw);
  if (v.length > max) throw new ParamError(`query param ${name} is longer than ${max} characters`);
  return v;
}

const isoTime = z.string().max(100).refine((s) => !Number.isNaN(Date.parse(s)), 'not an ISO-8601 date-time');

/** A time parameter (ISO-8601, with or without an offset: none means UTC) as stored event times (UTC, ms); `dflt` when absent. */
export function timeParam(query: Record<string, unknown>, name: string, dflt: string): string {
  const raw = stringParam(query, name, 100);
  if (raw === null || raw === '') return dflt;
  const withZone = /([zZ]|[+-]\d\d:?\d\d)$/.test(raw) ? raw : `${raw}Z`;
  const r = isoTime.safeParse(withZone);
  if (!r.success) throw new ParamError(`query param ${name} is not an ISO-8601 date-time`);
  return new Date(Date.parse(withZone)).toISOString();
}
