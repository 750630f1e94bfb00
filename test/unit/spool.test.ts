import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { AppError, ErrorCode } from '../../src/errors';
import { comparePositions, Spool, type SpoolOptions } from '../../src/ingest/spool';

/** The ingestion spool on a real file system: order, group commit, recovery, torn and damaged records, limits, the lock. */
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'spool-test-'));
const small: SpoolOptions = { segmentBytes: 4096, maxBytes: 10 * 2 ** 20 };
const rec = (i: number, raw = `{"i":${i},"text":"${'x'.repeat(i % 50)}"}`) => ({ receivedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 60)).toISOString(), raw });
const segments = (dir: string) => fs.readdirSync(dir).filter((f) => f.endsWith('.log')).sort();
const readAll = (s: Spool) => s.read(s.checkpoint, 1_000_000);

describe('ingestion spool', () => {
  it('keeps records byte-exact and in order across segments; concurrent appends share syncs', async () => {
    const dir = tmp();
    const s = Spool.open(dir, small);
    const raws = Array.from({ length: 200 }, (_, i) => (i % 7 === 0 ? `{"ü":"€ 𝄞 ${i}","nl":"a\\nb"}` : rec(i).raw));
    const ranges = await Promise.all(raws.map((raw, i) => s.append([{ receivedAt: rec(i).receivedAt, raw }])));
    const read = readAll(s);
    assert.deepEqual(read.map((r) => r.raw), raws, 'same text, same order as acknowledged');
    assert.deepEqual(read.map((r) => r.end), ranges.map((r) => r[0]!.end), 'read positions are the acknowledged ones');
    assert.ok(s.syncs < 100, `concurrent appends share syncs (${s.syncs} for 200 appends)`);
    for (let i = 1; i < read.length; i++) assert.ok(comparePositions(read[i - 1]!.end, read[i]!.end) < 0);
    assert.equal(s.pendingRecords, 200);
    await s.close();
    fs.rmSync(dir, { recursive: true });
  });

  it('after a restart gives back exactly what was not committed, and deletes committed segments', async () => {
    const dir = tmp();
    let s = Spool.open(dir, small);
    for (let i = 0; i < 100; i++) await s.append([rec(i)]);
    assert.equal(s.syncs, 100);
    assert.ok(segments(dir).length > 1, 'sequential appends fill and rotate segments');
    const all = readAll(s);
    s.commit(all[59]!.end, 60);
    assert.equal(s.pendingRecords, 40);
    assert.ok(s.lagMs() > 0);
    await s.close();
    s = Spool.open(dir, small);
    const left = readAll(s);
    assert.deepEqual(left.map((r) => r.raw), all.slice(60).map((r) => r.raw));
    assert.equal(s.pendingRecords, 40);
    assert.ok(!segments(dir).includes(`${String(all[0]!.end.segment).padStart(16, '0')}.log`), 'a wholly committed segment is deleted');
    // Appends after a restart go to a new segment, read after the old ones.
    await s.append([rec(500)]);
    s.commit(left[left.length - 1]!.end, 40);
    assert.deepEqual(readAll(s).map((r) => r.raw), [rec(500).raw]);
    s.commit(s.end, 1);
    assert.equal(s.lagMs(), 0);
    assert.equal(s.pendingRecords, 0);
    await s.close();
    fs.rmSync(dir, { recursive: true });
  });

  it('cuts a torn tail (never acknowledged) and keeps everything before it', async () => {
    const dir = tmp();
    let s = Spool.open(dir, { ...small, segmentBytes: 1 << 20 });
    for (let i = 0; i < 10; i++) await s.append([rec(i)]);
    await s.close();
    const last = path.join(dir, segments(dir).at(-1)!);
    const before = fs.statSync(last).size;
    fs.appendFileSync(last, 'TRB1 5000 0123456789abcdef 2026-01-01T00:00:00.000Z\n{"half": "a rec');
    s = Spool.open(dir, small);
    assert.equal(fs.statSync(last).size, before, 'the torn record is cut off');
    assert.deepEqual(readAll(s).map((r) => r.raw), Array.from({ length: 10 }, (_, i) => rec(i).raw));
    await s.append([rec(10)]);
    assert.equal(readAll(s).length, 11);
    await s.close();
    fs.rmSync(dir, { recursive: true });
  });

  it('skips the rest of a segment after a damaged record, and reads the next segments', async () => {
    const dir = tmp();
    let s = Spool.open(dir, small);
    for (let i = 0; i < 120; i++) await s.append([rec(i)]);
    await s.close();
    const first = path.join(dir, segments(dir)[0]!);
    const bytes = fs.readFileSync(first);
    const body = bytes.indexOf(0x0a, bytes.indexOf('TRB1', 10)) + 3;
    bytes[body] = bytes[body]! ^ 0x01; // one flipped bit inside the second record's text
    fs.writeFileSync(first, bytes);
    s = Spool.open(dir, small);
    const raws = readAll(s).map((r) => r.raw);
    assert.equal(raws[0], rec(0).raw);
    assert.ok(!raws.includes(rec(1).raw), 'the damaged record is not returned');
    assert.ok(raws.includes(rec(119).raw), 'later segments are still read');
    await s.close();
    fs.rmSync(dir, { recursive: true });
  });

  it('refuses appends (UNAVAILABLE, nothing written) past the size limit until the projection catches up', async () => {
    const dir = tmp();
    const s = Spool.open(dir, { segmentBytes: 4096, maxBytes: 2000 });
    while (s.pendingBytes <= 2000) await s.append([rec(1)]);
    const end = s.end;
    await assert.rejects(s.append([rec(2)]), (e: AppError) => e.code === ErrorCode.UNAVAILABLE && /behind/.test(e.message));
    assert.deepEqual(s.end, end);
    s.commit(s.end, s.pendingRecords);
    await s.append([rec(3)]);
    await s.close();
    fs.rmSync(dir, { recursive: true });
  });

  it('one process per spool: refused while open here or held by a live process; a dead holder’s lock is taken over', async () => {
    const dir = tmp();
    const s = Spool.open(dir, small);
    assert.throws(() => Spool.open(dir, small), /already open in this process/);
    await s.close();
    const holder = spawn('sleep', ['30']);
    try {
      fs.writeFileSync(path.join(dir, 'lock'), String(holder.pid));
      assert.throws(() => Spool.open(dir, small), new RegExp(`in use by process ${holder.pid}`));
    } finally {
      holder.kill('SIGKILL');
    }
    await new Promise((r) => holder.once('exit', r));
    fs.writeFileSync(path.join(dir, 'lock'), String(holder.pid));
    const again = Spool.open(dir, small);
    await again.close();
    fs.rmSync(dir, { recursive: true });
  });

  it('a checkpoint past every segment (all projected, files gone): new records still come after it and are read', async () => {
    const dir = tmp();
    let s = Spool.open(dir, small);
    await s.append([rec(0)]);
    await s.close();
    fs.writeFileSync(path.join(dir, 'checkpoint'), JSON.stringify({ segment: 9, offset: 0 }));
    s = Spool.open(dir, small);
    assert.deepEqual(segments(dir), [], 'segments before the checkpoint are deleted');
    assert.deepEqual(readAll(s), []);
    const [range] = await s.append([rec(1)]);
    assert.ok(comparePositions(range!.start, { segment: 9, offset: 0 }) > 0, `appended at ${JSON.stringify(range!.start)}`);
    assert.deepEqual(readAll(s).map((r) => r.raw), [rec(1).raw]);
    await s.close();
    s = Spool.open(dir, small);
    assert.deepEqual(readAll(s).map((r) => r.raw), [rec(1).raw], 'kept across a restart');
    await s.close();
    fs.rmSync(dir, { recursive: true });
  });

  it('a 1 MB event and an empty checkpoint file are handled', async () => {
    const dir = tmp();
    let s = Spool.open(dir, small);
    const big = `{"blob":"${'y'.repeat(2 ** 20)}"}`;
    await s.append([rec(1), { receivedAt: rec(2).receivedAt, raw: big }, rec(3)]);
    assert.deepEqual(readAll(s).map((r) => r.raw.length), [rec(1).raw.length, big.length, rec(3).raw.length]);
    await s.close();
    fs.writeFileSync(path.join(dir, 'checkpoint'), '');
    s = Spool.open(dir, small);
    assert.equal(readAll(s).length, 3, 'an unreadable checkpoint means reading from the oldest segment');
    await s.close();
    fs.rmSync(dir, { recursive: true });
  });

  it('reads at most a byte budget (records as framed), within a segment and across segments; one record larger than it comes alone', async () => {
    const dir = tmp();
    const s = Spool.open(dir, { segmentBytes: 64 * 1024, maxBytes: 10 * 2 ** 20 });
    const text = (i: number, size: number) => `{"i":${i},"pad":"${'p'.repeat(size)}"}`;
    const sizes = [10_000, 10_000, 10_000, 100_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000];
    // One append per record: sealed segments of at most 64 KB (the 100 KB record alone in one).
    for (const [i, size] of sizes.entries()) await s.append([{ receivedAt: rec(i).receivedAt, raw: text(i, size) }]);
    const all = readAll(s);
    assert.equal(all.length, sizes.length);
    const framed = (r: (typeof all)[number]) => r.end.offset - r.start.offset;
    assert.ok(new Set(all.map((r) => r.start.segment)).size >= 3, 'the records span segments');
    let from = s.checkpoint;
    const pages: number[][] = [];
    for (;;) {
      const page = s.read(from, 1_000, 25_000);
      if (page.length === 0) break;
      const bytes = page.reduce((n, r) => n + framed(r), 0);
      assert.ok(bytes <= 25_000 || page.length === 1, `page of ${page.length} records, ${bytes} bytes`);
      pages.push(page.map((r) => JSON.parse(r.raw).i as number));
      from = page[page.length - 1]!.end;
    }
    assert.deepEqual(pages, [[0, 1], [2], [3], [4, 5], [6, 7], [8, 9]], 'two 10 KB records per 25 KB page; the 100 KB one alone; nothing skipped');
    assert.deepEqual(s.read(s.checkpoint, 3).map((r) => r.raw), all.slice(0, 3).map((r) => r.raw), 'without a budget: by count');
    assert.equal(s.read(s.checkpoint, 1, 1).length, 1, 'a budget below the first record still gives it');
    await s.close();
    fs.rmSync(dir, { recursive: true });
  });

  it('keeps the id a record was accepted with (TRB2), still reads records without one (TRB1), and finds a damaged id', async () => {
    const dir = tmp();
    let s = Spool.open(dir, { ...small, segmentBytes: 1 << 20 });
    const id = (c: string) => `event:${c.repeat(64)}`;
    await s.append([{ ...rec(1), id: id('a') }, rec(2)]);
    await s.append([{ ...rec(3), id: 'event:not-a-sha256' }]);
    assert.deepEqual(readAll(s).map((r) => r.id), [id('a'), undefined, undefined], 'no id, or one not of the form event:<64 hex>, is written without');
    await s.close();
    // A record as versions before TRB2 wrote it (checksum over receivedAt and text), then one with an id.
    const last = path.join(dir, segments(dir).at(-1)!);
    const old = rec(4);
    const sum = createHash('sha256').update(old.receivedAt).update(old.raw).digest('hex').slice(0, 16);
    fs.appendFileSync(last, `TRB1 ${Buffer.byteLength(old.raw)} ${sum} ${old.receivedAt}\n${old.raw}\n`);
    s = Spool.open(dir, small);
    await s.append([{ ...rec(5), id: id('b') }]);
    assert.deepEqual(readAll(s).map((r) => [r.raw, r.id]), [[rec(1).raw, id('a')], [rec(2).raw, undefined], [rec(3).raw, undefined], [old.raw, undefined], [rec(5).raw, id('b')]]);
    await s.close();
    // The id is under the checksum: one changed character and the record is damaged (here the torn tail, cut off).
    const bytes = fs.readFileSync(path.join(dir, segments(dir).at(-1)!));
    const at = bytes.lastIndexOf(id('b'));
    bytes[at + 10] = 'c'.charCodeAt(0);
    fs.writeFileSync(path.join(dir, segments(dir).at(-1)!), bytes);
    s = Spool.open(dir, small);
    assert.deepEqual(readAll(s).map((r) => r.raw), [rec(1).raw, rec(2).raw, rec(3).raw, old.raw]);
    await s.close();
    fs.rmSync(dir, { recursive: true });
  });
});
