import { createHash } from 'node:crypto';
import { eventId } from '../ids';
import type { Accepted } from './ingestor';
import type { ReadRecord, SpoolPosition } from './spool';
import { storedEventRow } from './stored-event';
import { validateEvent } from './validate';

/** An event in the spool, validated; `error` set when it no longer validates (read back after an upgrade). */
export interface SpooledEvent extends Accepted {
  start: SpoolPosition;
  end: SpoolPosition;
  error?: string;
}

/** Spool records turned back into events: each parsed and validated, with the id its record keeps (computed again when it has none). */
export function decodeRecords(records: ReadRecord[]): SpooledEvent[] {
  return records.map((r) => {
    try {
      const value = JSON.parse(r.raw) as unknown;
      const valid = validateEvent(value);
      return { row: { ...storedEventRow(valid, r.raw, value, r.id), receivedAt: r.receivedAt }, valid, start: r.start, end: r.end };
    } catch (err) {
      const row = { id: eventId(createHash('sha256').update(r.raw).digest('hex')), raw: r.raw, receivedAt: r.receivedAt } as Accepted['row'];
      return { row, valid: null as unknown as Accepted['valid'], start: r.start, end: r.end, error: `no longer valid: ${(err as Error).message}` };
    }
  });
}
