/**
 * The time buckets of Marquez's stats endpoints (GET /api/v1/stats/...), oldest first:
 * DAY is the 24 hours up to the end of the current UTC hour, WEEK the 7 days up to the end of today
 * in `timezone` (an IANA zone, local midnights, daylight saving honoured). Pure: `now` is given.
 */
export type Period = 'DAY' | 'WEEK';

export interface Bucket {
  start: string;
  end: string;
}

const HOUR = 3_600_000;

export function buckets(period: Period, now: Date, timezone: string | null): Bucket[] {
  if (period === 'DAY') {
    const hour = Math.floor(now.getTime() / HOUR) * HOUR;
    return Array.from({ length: 24 }, (_, i) => {
      const start = hour - (23 - i) * HOUR;
      return { start: new Date(start).toISOString(), end: new Date(start + HOUR).toISOString() };
    });
  }
  const zone = timezone ?? 'UTC';
  const today = localDate(now, zone);
  return Array.from({ length: 7 }, (_, i) => {
    const day = new Date(Date.UTC(today.y, today.m - 1, today.d - (6 - i)));
    const next = new Date(Date.UTC(today.y, today.m - 1, today.d - (6 - i) + 1));
    return { start: midnight(day, zone).toISOString(), end: midnight(next, zone).toISOString() };
  });
}

/** True when `zone` is an IANA time zone this runtime knows. */
export function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The calendar date of `at` in `zone`. */
function localDate(at: Date, zone: string): { y: number; m: number; d: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(at).map((p) => [p.type, p.value]),
  );
  return { y: Number(parts.year), m: Number(parts.month), d: Number(parts.day) };
}

/** How far `zone`'s wall clock is ahead of UTC at `at`, in ms. */
function offsetMs(at: Date, zone: string): number {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant of local midnight in `zone` on the calendar day whose UTC midnight is `day`. */
function midnight(day: Date, zone: string): Date {
  let guess = day.getTime() - offsetMs(day, zone);
  // A second pass settles a day whose offset changes between UTC midnight and local midnight.
  guess = day.getTime() - offsetMs(new Date(guess), zone);
  return new Date(guess);
}
