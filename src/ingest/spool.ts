import fs from 'node:fs';
import path from 'node:path';
import { AppError, ErrorCode } from '../errors';
import type { Logger } from '../log';
import { encode, readSegment } from './spool-records';

/**
 * The ingestion spool: an append-only log of accepted events on local disk, the durable store an
 * HTTP acknowledgement stands on. `append` resolves once its records are written and fdatasync'd
 * (group commit: appends that arrive while one is being synced share the next sync); the projector
 * reads the log in order and `commit`s the position up to which the graph holds it; whole segments
 * before that position are deleted.
 *
 * Layout (`dir`): segments `<16-digit number>.log` of at most `segmentBytes` (a record is never
 * split), `checkpoint` (JSON {segment, offset}: everything before it is in the graph; written after
 * each commit, not synced, so a crash can only make a restart re-read records, which projection
 * ignores as duplicates), `lock` (the pid of the process using the spool).
 * A record (spool-records.ts): the header line `TRB2 <bytes> <checksum> <receivedAt> <id>\n`, the
 * event's exact JSON text (`bytes` long), `\n`. The checksum (16 hex of SHA-256 over receivedAt, id
 * and text) finds a torn or damaged record: at the end of the newest segment it is cut off at start
 * (it was never acknowledged: an append resolves only after its sync); elsewhere the rest of that
 * segment is skipped and logged.
 * Positions are (segment, byte offset) and grow with the log; a position at the end of a sealed
 * segment equals the start of the next one.
 */

export interface SpoolRecord {
  receivedAt: string;
  /** The exact JSON text received. */
  raw: string;
  /**
   * The event's id as computed when it was accepted (stored-event.ts), kept so that reading the
   * record back need not compute it again; absent in records without one (read back, it is computed).
   */
  id?: string;
}

export interface SpoolPosition {
  segment: number;
  offset: number;
}

export interface ReadRecord extends SpoolRecord {
  start: SpoolPosition;
  end: SpoolPosition;
}

export interface SpoolOptions {
  segmentBytes: number;
  /** Unprojected bytes beyond which appends are refused (503) until the projector catches up. */
  maxBytes: number;
}

export const DEFAULT_SPOOL: SpoolOptions = { segmentBytes: 64 * 2 ** 20, maxBytes: 2 * 2 ** 30 };

const SEGMENT = /^(\d{16})\.log$/;

export function comparePositions(a: SpoolPosition, b: SpoolPosition): number {
  return a.segment !== b.segment ? a.segment - b.segment : a.offset - b.offset;
}

export class Spool {
  /** Spool folders open in this process (the lock file holds only a pid). */
  private static readonly openHere = new Set<string>();
  private fd: number | null = null;
  /** Segment number → its valid length (the active one grows). */
  private readonly segments = new Map<number, number>();
  private active = 0;
  private committed: SpoolPosition;
  private writing = false;
  private broken = false;
  private readonly queue: { buf: Buffer; lengths: number[]; resolve: (ranges: { start: SpoolPosition; end: SpoolPosition }[]) => void; reject: (e: unknown) => void }[] = [];
  /** Per sync: its end, the oldest receipt in it and how many records it holds (lag and depth). */
  private marks: { end: SpoolPosition; receivedMs: number; records: number }[] = [];
  private unprojectedRecords = 0;
  private checkpointWrite: Promise<void> = Promise.resolve();
  private closed = false;
  private syncCount = 0;

  private constructor(
    readonly dir: string,
    private readonly options: SpoolOptions,
    private readonly log?: Logger,
  ) {
    this.committed = { segment: 0, offset: 0 };
  }

  /** Opens (creating) the spool in `dir`: takes the lock, checks every unprojected record, cuts a torn tail. */
  static open(dir: string, options: SpoolOptions = DEFAULT_SPOOL, log?: Logger): Spool {
    fs.mkdirSync(dir, { recursive: true });
    const spool = new Spool(dir, options, log);
    spool.lock();
    spool.recover();
    return spool;
  }

  /** Durable end of the log: every record before it has been synced. */
  get end(): SpoolPosition {
    return { segment: this.active, offset: this.segments.get(this.active) ?? 0 };
  }

  /** Everything before this position is in the graph. */
  get checkpoint(): SpoolPosition {
    return { ...this.committed };
  }

  /** fdatasync calls since open (appends that arrive together share one). */
  get syncs(): number {
    return this.syncCount;
  }

  /** Records appended and not yet committed. */
  get pendingRecords(): number {
    return this.unprojectedRecords;
  }

  /** Bytes of the log not yet committed. */
  get pendingBytes(): number {
    let bytes = 0;
    for (const [segment, length] of this.segments) {
      if (segment > this.committed.segment) bytes += length;
      else if (segment === this.committed.segment) bytes += Math.max(0, length - this.committed.offset);
    }
    return bytes;
  }

  /** Milliseconds since the oldest uncommitted record was received (over-estimated, never under, past 100,000 syncs); 0 when none. */
  lagMs(): number {
    const first = this.marks[0];
    return first ? Math.max(0, Date.now() - first.receivedMs) : 0;
  }

  /** Position equality across a segment boundary: the end of a sealed segment is the start of the next. */
  normalise(p: SpoolPosition): SpoolPosition {
    const length = this.segments.get(p.segment);
    if (p.segment === this.active || (length !== undefined && p.offset < length)) return p;
    // At the end of a sealed segment, or in one that is gone: the start of the next one there is.
    const later = [...this.segments.keys()].filter((n) => n > p.segment);
    return later.length > 0 ? { segment: Math.min(...later), offset: 0 } : length !== undefined ? { segment: p.segment + 1, offset: 0 } : p;
  }

  /**
   * Appends the records durably; resolves with each record's start and end once synced. Refused with
   * UNAVAILABLE (nothing written) when the unprojected log exceeds `maxBytes` or the disk fails.
   */
  append(records: SpoolRecord[]): Promise<{ start: SpoolPosition; end: SpoolPosition }[]> {
    if (this.closed) return Promise.reject(new AppError(ErrorCode.UNAVAILABLE, 'the service is shutting down; retry'));
    if (this.pendingBytes > this.options.maxBytes) {
      return Promise.reject(
        new AppError(ErrorCode.UNAVAILABLE, `the projection is ${Math.round(this.pendingBytes / 2 ** 20)} MiB behind (limit TRIBUTARY_SPOOL_MAX_MB); retry later`),
      );
    }
    const parts: Buffer[] = [];
    const lengths: number[] = [];
    for (const r of records) {
      const frame = encode(r);
      parts.push(frame);
      lengths.push(frame.length);
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ buf: Buffer.concat(parts), lengths, resolve, reject });
      this.marks.push({ end: { segment: Infinity, offset: 0 }, receivedMs: Math.min(...records.map((r) => Date.parse(r.receivedAt))), records: records.length });
      if (!this.writing) void this.flush();
    });
  }

  /**
   * Up to `maxRecords` records from `from` (a record start), in log order, only what is synced, and
   * at most `maxBytes` of records (as framed on disk) in all, except that the first record is always
   * given (one larger than `maxBytes` comes alone). Past a damaged record the rest of that segment
   * is skipped (logged).
   */
  read(from: SpoolPosition, maxRecords: number, maxBytes = Infinity): ReadRecord[] {
    const out: ReadRecord[] = [];
    let bytes = 0;
    let at = this.normalise(from);
    while (out.length < maxRecords && (out.length === 0 || bytes < maxBytes)) {
      const length = this.segments.get(at.segment);
      if (length === undefined || at.offset >= length) {
        const later = [...this.segments.keys()].filter((n) => n > at.segment).sort((a, b) => a - b)[0];
        if (later === undefined || (length !== undefined && at.segment === this.active)) break;
        at = { segment: later, offset: 0 };
        continue;
      }
      const want = maxRecords - out.length;
      const budget = out.length === 0 ? maxBytes : maxBytes - bytes;
      const { records, next, full } = readSegment(this.file(at.segment), at.offset, length, want, at.segment, budget, out.length === 0);
      out.push(...records);
      for (const r of records) bytes += r.end.offset - r.start.offset;
      if (full) break;
      if (records.length < want && next < length) {
        this.log?.error('spool record damaged; the rest of its segment is skipped', { segment: at.segment, offset: next, bytes: length - next });
        this.segments.set(at.segment, next);
        if (at.segment === this.active) this.broken = true;
      }
      at = { segment: at.segment, offset: next };
    }
    return out;
  }

  /** The graph holds everything before `position`: moves the checkpoint, deletes segments wholly before it. */
  commit(position: SpoolPosition, records: number): void {
    const p = this.normalise(position);
    if (comparePositions(p, this.committed) <= 0) return;
    this.committed = p;
    this.unprojectedRecords = Math.max(0, this.unprojectedRecords - records);
    while (this.marks.length > 0 && comparePositions(this.normalise(this.marks[0]!.end), p) <= 0) this.marks.shift();
    if (this.marks.length === 0) this.unprojectedRecords = 0;
    const checkpoint = JSON.stringify(p);
    this.checkpointWrite = this.checkpointWrite.then(async () => {
      const tmp = path.join(this.dir, 'checkpoint.tmp');
      await fs.promises.writeFile(tmp, checkpoint);
      await fs.promises.rename(tmp, path.join(this.dir, 'checkpoint'));
      for (const segment of [...this.segments.keys()]) {
        if (segment < p.segment) {
          this.segments.delete(segment);
          await fs.promises.rm(this.file(segment), { force: true });
        }
      }
    }).catch((err) => this.log?.warn('spool checkpoint not written (a restart re-reads more)', { error: (err as Error).message }));
  }

  /** Waits for the appends in flight and the checkpoint; further appends are refused. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.writing || this.queue.length > 0) await new Promise((r) => setTimeout(r, 5));
    await this.checkpointWrite;
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
    fs.rmSync(path.join(this.dir, 'lock'), { force: true });
    Spool.openHere.delete(fs.realpathSync(this.dir));
  }

  private async flush(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const group = this.queue.splice(0, this.queue.length);
        const marks = this.marks.filter((m) => m.end.segment === Infinity);
        const buf = Buffer.concat(group.map((g) => g.buf));
        try {
          if (this.fd === null || this.broken || (this.segments.get(this.active)! > 0 && this.segments.get(this.active)! + buf.length > this.options.segmentBytes)) {
            await this.rotate();
          }
          await writeAll(this.fd!, buf);
          await new Promise<void>((resolve, reject) => fs.fdatasync(this.fd!, (err) => (err ? reject(err) : resolve())));
          this.syncCount++;
        } catch (err) {
          // What reached the file is never acknowledged; later appends go to a new segment.
          this.broken = true;
          this.marks = this.marks.filter((m) => !marks.includes(m));
          this.log?.error('spool write failed; nothing of it was acknowledged', { error: (err as Error).message });
          const refusal = new AppError(ErrorCode.UNAVAILABLE, 'the event could not be stored durably (disk); retry');
          for (const g of group) g.reject(refusal);
          continue;
        }
        let offset = this.segments.get(this.active)!;
        this.segments.set(this.active, offset + buf.length);
        for (const m of marks) m.end = { segment: this.active, offset: offset + buf.length };
        this.unprojectedRecords += group.reduce((n, g) => n + g.lengths.length, 0);
        for (const g of group) {
          g.resolve(g.lengths.map((l) => ({ start: { segment: this.active, offset }, end: { segment: this.active, offset: (offset += l) } })));
        }
        this.compactMarks();
      }
    } finally {
      this.writing = false;
    }
  }

  /** Starts a new segment (and makes its existence durable: the directory is synced). */
  private async rotate(): Promise<void> {
    if (this.fd !== null) {
      const fd = this.fd;
      this.fd = null;
      await new Promise<void>((resolve) => fs.close(fd, () => resolve()));
    }
    // Always after every segment and after the checkpoint: positions only grow.
    const next = Math.max(this.active, this.committed.segment, ...this.segments.keys()) + 1;
    this.fd = fs.openSync(this.file(next), 'a');
    syncDir(this.dir);
    this.segments.set(next, 0);
    this.active = next;
    this.broken = false;
  }

  /** Past 100,000 marks, neighbours merge (oldest receipt, later end): lag may be over-estimated, never under. */
  private compactMarks(): void {
    if (this.marks.length <= 100_000) return;
    const merged: typeof this.marks = [];
    for (let i = 0; i < this.marks.length; i += 2) {
      const a = this.marks[i]!;
      const b = this.marks[i + 1];
      merged.push(b ? { end: b.end, receivedMs: Math.min(a.receivedMs, b.receivedMs), records: a.records + b.records } : a);
    }
    this.marks = merged;
  }

  private file(segment: number): string {
    return path.join(this.dir, `${String(segment).padStart(16, '0')}.log`);
  }

  private lock(): void {
    const dir = fs.realpathSync(this.dir);
    if (Spool.openHere.has(dir)) throw new AppError(ErrorCode.UNAVAILABLE, `the ingestion spool ${this.dir} is already open in this process`);
    const file = path.join(this.dir, 'lock');
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
        Spool.openHere.add(dir);
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const pid = Number(fs.readFileSync(file, 'utf8'));
        if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
          throw new AppError(ErrorCode.UNAVAILABLE, `the ingestion spool ${this.dir} is in use by process ${pid} (give each process its own TRIBUTARY_HOME or TRIBUTARY_SPOOL_DIR)`);
        }
        fs.rmSync(file, { force: true });
      }
    }
  }

  /** Reads the checkpoint, checks every record after it, cuts a torn tail off the newest segment. */
  private recover(): void {
    const numbers = fs.readdirSync(this.dir).flatMap((f) => (SEGMENT.test(f) ? [Number(SEGMENT.exec(f)![1])] : [])).sort((a, b) => a - b);
    let checkpoint: SpoolPosition | null = null;
    try {
      const c = JSON.parse(fs.readFileSync(path.join(this.dir, 'checkpoint'), 'utf8')) as SpoolPosition;
      if (Number.isInteger(c.segment) && Number.isInteger(c.offset)) checkpoint = c;
    } catch {
      // none, or unreadable: start from the oldest segment (re-read records are duplicates)
    }
    const first = numbers[0];
    this.committed = checkpoint && first !== undefined && checkpoint.segment >= first ? checkpoint : { segment: first ?? 0, offset: 0 };
    let damaged = 0;
    for (const n of numbers) {
      const file = this.file(n);
      const size = fs.statSync(file).size;
      if (n < this.committed.segment) {
        fs.rmSync(file, { force: true });
        continue;
      }
      const from = n === this.committed.segment ? Math.min(this.committed.offset, size) : 0;
      const { records, next } = readSegment(file, from, size, Infinity, n);
      for (const r of records) this.marks.push({ end: r.end, receivedMs: Date.parse(r.receivedAt) || Date.now(), records: 1 });
      this.unprojectedRecords += records.length;
      if (next < size) {
        damaged += size - next;
        if (n === numbers[numbers.length - 1]) fs.truncateSync(file, next);
      }
      this.segments.set(n, next);
      this.active = n;
    }
    if (damaged > 0) this.log?.warn('spool: a torn or damaged tail was cut off (never acknowledged)', { bytes: damaged });
    this.compactMarks();
    if (this.unprojectedRecords > 0) this.log?.info('spool holds events not yet projected; projecting them', { events: this.unprojectedRecords, bytes: this.pendingBytes });
    // Appends always go to a new segment: the last one may end in a cut-off tail.
    this.broken = true;
  }
}

async function writeAll(fd: number, buf: Buffer): Promise<void> {
  let done = 0;
  while (done < buf.length) {
    done += await new Promise<number>((resolve, reject) => fs.write(fd, buf, done, buf.length - done, null, (err, n) => (err ? reject(err) : resolve(n))));
  }
}

function syncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
