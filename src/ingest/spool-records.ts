import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { ReadRecord, SpoolRecord } from './spool';

/**
 * The spool's record format: the header line `TRB1 <bytes> <checksum> <receivedAt>\n`, the event's
 * exact JSON text (`bytes` long), `\n`. The checksum is 16 hex of SHA-256 over receivedAt and text.
 */
const MAGIC = 'TRB1';

export function encode(r: SpoolRecord): Buffer {
  const body = Buffer.from(r.raw, 'utf8');
  const sum = checksum(r.receivedAt, body);
  return Buffer.concat([Buffer.from(`${MAGIC} ${body.length} ${sum} ${r.receivedAt}\n`, 'utf8'), body, Buffer.from('\n')]);
}

function checksum(receivedAt: string, body: Buffer): string {
  return createHash('sha256').update(receivedAt).update(body).digest('hex').slice(0, 16);
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
      const header = head!.toString('utf8', 0, nl).split(' ');
      const size = Number(header[1]);
      if (header.length !== 4 || header[0] !== MAGIC || !Number.isSafeInteger(size) || size < 0) break;
      const bodyStart = at + nl + 1;
      if (bodyStart + size + 1 - from > maxBytes && (records.length > 0 || !firstAlways)) return { records, next: at, full: true };
      const body = bytes(bodyStart, size + 1);
      if (!body || body[size] !== 0x0a || checksum(header[3]!, body.subarray(0, size)) !== header[2]) break;
      const end = bodyStart + size + 1;
      records.push({ receivedAt: header[3]!, raw: body.toString('utf8', 0, size), start: { segment, offset: at }, end: { segment, offset: end } });
      at = end;
    }
    return { records, next: at, full: false };
  } finally {
    fs.closeSync(fd);
  }
}
