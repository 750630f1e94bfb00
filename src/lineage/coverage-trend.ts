import { badInput, limitExceeded } from '../errors';
import { Bucket } from './types';

/** Coverage over time: the trend's buckets of a scope's edges (coverage-service.ts). */

export interface TrendBucket {
  start: string;
  end: string;
  edges: number;
  columnLevel: number;
  columnLevelShare: number;
}

/** What the trend reads of an edge: when it was reported, and when with column lineage (null: never). */
export interface TrendRow {
  firstSeen: string | null;
  lastSeen: string | null;
  cllFirstSeen: string | null;
  cllLastSeen: string | null;
}

/** A share rounded to 4 decimals, 0 for an empty denominator. */
export const ratio = (a: number, b: number): number => (b === 0 ? 0 : Math.round((a / b) * 10_000) / 10_000);

/** Throws BAD_INPUT for a `from` or `to` that is not an ISO-8601 time, or `to` before `from`. */
export function checkTrendWindow(from?: string | null, to?: string | null): void {
  const start = from ? parseTime(from, 'from') : null;
  const end = to ? parseTime(to, 'to') : null;
  if (start && end && end < start) throw badInput('to must not be before from');
}

/**
 * Buckets from `from` to `to`. Defaults: `to` is the latest edge time, but never after now (an
 * event dated in the future cannot stretch the trend); `from` the earliest edge time, but at most
 * 366 buckets before `to`. Asking for more than 366 buckets explicitly is LIMIT_EXCEEDED; a window
 * checkTrendWindow refuses is BAD_INPUT.
 */
export function coverageTrend(rows: TrendRow[], bucket: Bucket, fromText?: string | null, toText?: string | null, now = new Date()): TrendBucket[] {
  checkTrendWindow(fromText, toText);
  const times = rows.flatMap((r) => [r.firstSeen, r.lastSeen]).filter((t): t is string => t !== null).sort();
  if (times.length === 0) return [];
  const latest = new Date(times[times.length - 1]!);
  const to = toText ? parseTime(toText, 'to') : latest < now ? latest : now;
  const earliest = new Date(times[0]!);
  const floorFrom = floor(to, bucket);
  for (let i = 0; i < 365; i++) floorFrom.setTime(previous(floorFrom, bucket).getTime());
  const from = fromText ? parseTime(fromText, 'from') : earliest > floorFrom ? earliest : floorFrom;
  // A window bounded on one side only (or neither: every edge dated in the future) may lie wholly
  // before or after the edges: nothing in it. (Both sides given, checkTrendWindow refused it.)
  if (to < from) return [];
  const out: TrendBucket[] = [];
  for (let start = floor(from, bucket); start <= to; start = next(start, bucket)) {
    if (out.length >= 366) throw limitExceeded(`more than 366 ${bucket} buckets: narrow from/to or use a larger bucket`);
    const s = start.toISOString();
    const e = next(start, bucket).toISOString();
    const active = rows.filter((r) => r.firstSeen !== null && r.firstSeen < e && (r.lastSeen ?? '') >= s);
    const column = active.filter((r) => r.cllFirstSeen !== null && r.cllFirstSeen < e && (r.cllLastSeen ?? '') >= s).length;
    out.push({ start: s, end: e, edges: active.length, columnLevel: column, columnLevelShare: ratio(column, active.length) });
  }
  return out;
}

function parseTime(text: string, what: string): Date {
  const d = new Date(text);
  if (Number.isNaN(d.getTime())) throw badInput(`${what} must be an ISO-8601 date-time (got "${text}")`);
  return d;
}

function floor(d: Date, b: Bucket): Date {
  const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  if (b === Bucket.DAY) return day;
  if (b === Bucket.WEEK) return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * 86_400_000); // Monday
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
}

function previous(d: Date, b: Bucket): Date {
  if (b === Bucket.DAY) return new Date(d.getTime() - 86_400_000);
  if (b === Bucket.WEEK) return new Date(d.getTime() - 7 * 86_400_000);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1));
}

function next(d: Date, b: Bucket): Date {
  if (b === Bucket.DAY) return new Date(d.getTime() + 86_400_000);
  if (b === Bucket.WEEK) return new Date(d.getTime() + 7 * 86_400_000);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
}
