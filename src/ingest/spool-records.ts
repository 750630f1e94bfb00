import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { isEventId } from '../ids';
import type { ReadRecord, SpoolRecord } from './spool';

/**
 * The spool's record formats: the header line `TRB2 <bytes> <checksum> <receivedAt> <id>\n` (`id`
 * the event's id as computed when it was accepted, so reading it back does not hash the event
 * again), or `TRB1 <bytes> <checksum> <receivedAt>\n` (without an id: written before TRB2, or by a
 * caller that has none), then the event's exact JSON text (`bytes` long), `\n`. The checksum is 16
 * hex of SHA-256 over receivedAt, the id when there is one, and the text. Both are read; a version
 * before TRB2 reads only TRB1 (drain the spool before going back to one).
 */
const WITHOUT_ID = 'TRB1';
const WITH_ID = 'TRB2';

export function encode(r: SpoolRecord): Buffer {
  const body = Buffer.from(r.raw, 'utf8');
  const id = r.id !== undefined && isEventId(r.id) ? r.id : undefined;
  const sum = checksum(r.receivedAt, id, body);
  const header = id === undefined ? `${WITHOUT_ID} ${body.length} ${sum} ${r.receivedAt}\n` : `${WITH_ID} ${body.length} ${sum} ${r.receivedAt} ${id}\n`;
  return Buffer.concat([Buffer.from(header, 'utf8'), body, Buffer.from('\n')]);
}

function checksum(receivedAt: string, id: string | undefined, body: Buffer): string {
  const hash = createHash('sha256').update(receivedAt);
  if (id !== undefined) hash.update(id);
  return hash.update(body).digest('hex').slice(0, 16);
}

/** The header's fields, or null when it is neither format. */
function parseHeader(line: string): { size: number; sum: string; receivedAt: string; id?: string } | null {
  const f = line.split(' ');
  const size = Number(f[1]);
  if (!Number.isSafeInteger(size) || size < 0) return null;
  if (f.length === 4 && f[0] === WITHOUT_ID) return { size, sum: f[2]!, receivedAt: f[3]! };
  if (f.length === 5 && f[0] === WITH_ID && isEventId(f[4]!)) return { size, sum: f[2]!, receivedAt: f[3]!, id: f[4]! };
  return null;
}

/**
 * Valid records of a segment between `from` and `to`, at most `max` and at most `maxBytes` of
 * records (header and text) in all, the first one always when `firstAlways`; `next` is where
 * reading stopped (a damaged record, `to`, or the next record); `full` when the byte bound
 * stopped it.
 */
export function readSegment(
  file: string,
  from: number,
  to: number,
  max: number,
  segment: number,
  maxBytes = Infinity,
  firstAlways = true,
): { records: ReadRecord[]; next: number; full: boolean } {
  const records: ReadRecord[] = [];
  const fd = fs.openSync(file, 'r');
  let window = Buffer.alloc(0);
  let windowStart = 0;
  /** `length` bytes at `start` (read through a window of at least 1 MiB), or null past `to`. */
  const bytes = (start: number, length: number): Buffer | null => {
    if (start + length > to) return null;
    if (start < windowStart || start + length > windowStart + window.length) {
      window = Buffer.alloc(Math.min(Math.max(length, 2 ** 20), to - start));
      window = window.subarray(0, fs.readSync(fd, window, 0, window.length, start));
      windowStart = start;
      if (length > window.length) return null;
    }
    return window.subarray(start - windowStart, start - windowStart + length);
  };
  let at = from;
  try {
    while (records.length < max && at < to) {
      const head = bytes(at, Math.min(200, to - at));
      const nl = head ? head.indexOf(0x0a) : -1;
      if (nl < 0) break;
      const header = parseHeader(head!.toString('utf8', 0, nl));
      if (!header) break;
      const size = header.size;
      const bodyStart = at + nl + 1;
      if (bodyStart + size + 1 - from > maxBytes && (records.length > 0 || !firstAlways)) return { records, next: at, full: true };
      const body = bytes(bodyStart, size + 1);
      if (!body || body[size] !== 0x0a || checksum(header.receivedAt, header.id, body.subarray(0, size)) !== header.sum) break;
      const end = bodyStart + size + 1;
      const raw = body.toString('utf8', 0, size);
      records.push({ receivedAt: header.receivedAt, raw, ...(header.id !== undefined ? { id: header.id } : {}), start: { segment, offset: at }, end: { segment, offset: end } });
      at = end;
    }
    return { records, next: at, full: false };
  } finally {
    fs.closeSync(fd);
  }
}
