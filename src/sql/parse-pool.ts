import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { refusal, type SqlParse } from './declared-tables';
import type { SqlDialect } from './dialects';

/**
 * SQL statements parsed off the event loop: one worker thread (parse-worker.ts), one statement at
 * a time, in order. Each statement has `timeoutMs` (the first of a dialect in a worker
 * `coldTimeoutMs`: loading a grammar takes seconds); past it the worker is terminated and the
 * statement is UNPARSED (TIMEOUT), and the next one gets a new worker. A worker that dies fails its
 * statement (FAILED) the same way. More than `maxQueue` statements waiting: BUSY at once.
 *
 * Contract: parse() never rejects and always settles within its timeouts; what is refused before
 * parsing (size, nesting) costs no worker time.
 */
export interface ParsePoolOptions {
  timeoutMs: number;
  coldTimeoutMs: number;
  maxQueue: number;
  /** The worker's heap, in MB. */
  heapMb?: number;
}

interface Task {
  id: number;
  sql: string;
  dialect: SqlDialect | null;
  resolve(r: SqlParse): void;
}

export class SqlParsePool {
  private worker: Worker | null = null;
  private warm = new Set<string>();
  private readonly queue: Task[] = [];
  private current: { task: Task; timer: NodeJS.Timeout } | null = null;
  private nextId = 1;
  private closed = false;

  constructor(private readonly opts: ParsePoolOptions) {}

  parse(sql: string, dialect: SqlDialect | null): Promise<SqlParse> {
    const refused = refusal(sql, dialect);
    if (refused) return Promise.resolve(refused);
    if (this.closed) return Promise.resolve({ status: 'UNPARSED', dialect, reason: 'BUSY', message: 'the SQL parser is shut down' });
    if (this.queue.length >= this.opts.maxQueue) return Promise.resolve({ status: 'UNPARSED', dialect, reason: 'BUSY', message: `${this.queue.length} statements already wait for the SQL parser` });
    return new Promise<SqlParse>((resolve) => {
      this.queue.push({ id: this.nextId++, sql, dialect, resolve });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.queue.splice(0)) t.resolve({ status: 'UNPARSED', dialect: t.dialect, reason: 'BUSY', message: 'the SQL parser is shut down' });
    if (this.current) this.finish({ status: 'UNPARSED', dialect: this.current.task.dialect, reason: 'BUSY', message: 'the SQL parser is shut down' });
    await this.kill();
  }

  private pump(): void {
    if (this.current || this.queue.length === 0 || this.closed) return;
    const task = this.queue.shift()!;
    const worker = this.ensureWorker();
    const cold = !this.warm.has(task.dialect ?? '');
    const ms = cold ? this.opts.coldTimeoutMs : this.opts.timeoutMs;
    const timer = setTimeout(() => {
      this.finish({ status: 'UNPARSED', dialect: task.dialect, reason: 'TIMEOUT', message: `not parsed within ${ms} ms` });
      void this.kill();
    }, ms);
    this.current = { task, timer };
    worker.postMessage({ id: task.id, sql: task.sql, dialect: task.dialect });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(path.join(__dirname, 'parse-worker.js'), { resourceLimits: { maxOldGenerationSizeMb: this.opts.heapMb ?? 512, stackSizeMb: 16 } });
    w.on('message', (m: { id: number; result: SqlParse }) => {
      if (this.current?.task.id !== m.id) return;
      this.warm.add(this.current.task.dialect ?? '');
      this.finish(m.result);
    });
    const died = (why: string) => {
      if (this.worker !== w) return;
      this.worker = null;
      this.warm = new Set();
      if (this.current) this.finish({ status: 'UNPARSED', dialect: this.current.task.dialect, reason: 'FAILED', message: `the SQL parser died (${why})` });
    };
    w.on('error', (err) => died(err.message));
    w.on('exit', (code) => died(`exit ${code}`));
    w.unref();
    this.worker = w;
    return w;
  }

  private finish(result: SqlParse): void {
    const c = this.current;
    if (!c) return;
    clearTimeout(c.timer);
    this.current = null;
    c.task.resolve(result);
    queueMicrotask(() => this.pump());
  }

  private async kill(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.warm = new Set();
    if (w) await w.terminate().catch(() => undefined);
  }
}

