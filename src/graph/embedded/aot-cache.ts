import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The JVM's ahead-of-time cache for the embedded Neo4j, on Java 25 and later (JEP 483: classes
 * loaded and linked ahead of time; JEP 515: method profiles; JEP 514: training in one run). Most of
 * a start's warm-up CPU is the JVM running and compiling Neo4j's planner for the first time; a
 * cache trained by an earlier run of the same JVM, classpath and flags starts the next one with
 * those classes linked and those profiles known.
 *
 * Contract:
 * - A start without a cache for its key records one (`-XX:AOTCacheOutput`). The JVM writes it as
 *   it exits, unless killed (SIGKILL): that one stop takes about half a minute longer. It is
 *   written under a `.recording` name and kept (renamed to the key's name) only after such an
 *   exit, so a half-written file is never loaded.
 * - A start with a cache for its key loads it (`-XX:AOTCache`, Java's `auto` mode: a cache the JVM
 *   cannot map is ignored). `aotCacheUsed` reads the JVM's own log line to say whether it was;
 *   the caller removes a cache that was not, and the next start records a new one.
 * - The key covers the Java binary and version, the classpath and the JVM flags: any change
 *   records anew. A directory keeps the `KEEP_CACHES` caches last used (a load touches its file;
 *   ~170 MB each on the S bench store), so homes of different flags may share one (a benchmark's
 *   sizes, a test suite's throwaway homes); what a killed JVM left of a recording is removed once
 *   it is ten minutes old (younger, it may be another process's, still being written).
 * - Java before 25, or the setting `off`: no flags, no files.
 */

export type AotCacheSetting = 'auto' | 'off';

/** First Java whose JVM trains and loads a cache in one flag each (JEP 514). */
export const AOT_MIN_JAVA = 25;

/** Caches a directory keeps, the last used first. */
export const KEEP_CACHES = 3;
const LEFTOVER_AGE_MS = 10 * 60_000;

export interface AotCachePlan {
  state: 'off' | 'unsupported' | 'recording' | 'loading';
  /** JVM flags for this start. */
  flags: string[];
  /** The cache this start loads, or the one it keeps once its recording is complete. */
  cacheFile?: string;
  /** The file the JVM writes while recording. */
  recordingFile?: string;
  /** The JVM's log of its AOT cache (`-Xlog:aot`), read by `aotCacheUsed`. */
  logFile?: string;
}

/**
 * What a started JVM does with its cache: `loaded` (mapped, by its own log), `loading` (asked for,
 * not confirmed), `rejected` (not mappable, removed), `recording` (written at its exit),
 * `unsupported` (Java before 25), `off`.
 */
export type AotCacheState = AotCachePlan['state'] | 'loaded' | 'rejected';

export interface AotCacheInputs {
  setting: AotCacheSetting;
  javaMajor: number;
  /** Real path of the java binary and the first line of its `-version`. */
  java: string;
  javaVersion: string;
  classpath: string;
  /** Every other JVM flag of the start, in order. */
  jvmArgs: string[];
  /** Directory of the caches (created when a cache is planned). */
  dir: string;
  /** Directory for the JVM's AOT log. */
  logDir: string;
}

export function aotCacheKey(i: Pick<AotCacheInputs, 'java' | 'javaVersion' | 'classpath' | 'jvmArgs'>): string {
  const h = crypto.createHash('sha256');
  for (const part of [i.java, i.javaVersion, i.classpath, ...i.jvmArgs]) h.update(part).update('\0');
  return h.digest('hex').slice(0, 16);
}

export function planAotCache(i: AotCacheInputs): AotCachePlan {
  if (i.setting === 'off') return { state: 'off', flags: [] };
  if (i.javaMajor < AOT_MIN_JAVA) return { state: 'unsupported', flags: [] };
  const key = aotCacheKey(i);
  const cacheFile = path.join(i.dir, `neo4j-${key}.aot`);
  const recordingFile = `${cacheFile}.recording`;
  const logFile = path.join(i.logDir, 'jvm-aot.log');
  fs.mkdirSync(i.dir, { recursive: true });
  const loading = fs.existsSync(cacheFile);
  if (loading) {
    const now = new Date();
    fs.utimesSync(cacheFile, now, now);
  }
  prune(i.dir, path.basename(cacheFile), Date.now());
  // filecount=0: one file, started afresh by each JVM.
  const log = `-Xlog:aot=info:file=${logFile}::filecount=0`;
  if (loading) return { state: 'loading', flags: [`-XX:AOTCache=${cacheFile}`, log], cacheFile, logFile };
  return { state: 'recording', flags: [`-XX:AOTCacheOutput=${recordingFile}`, log], cacheFile, recordingFile, logFile };
}

/**
 * After the JVM of a `recording` start exited: keeps the cache it wrote (true), or removes what is
 * left of it (false: killed, or nothing written).
 */
export function keepRecordedCache(plan: AotCachePlan, exit: { signal: NodeJS.Signals | null }): boolean {
  if (plan.state !== 'recording' || !plan.recordingFile || !plan.cacheFile) return false;
  const written = fs.statSync(plan.recordingFile, { throwIfNoEntry: false });
  if (exit.signal !== 'SIGKILL' && written && written.size > 0) {
    fs.renameSync(plan.recordingFile, plan.cacheFile);
    return true;
  }
  fs.rmSync(plan.recordingFile, { force: true });
  // A JVM killed while recording leaves its training data (`<file>.config`) too.
  fs.rmSync(`${plan.recordingFile}.config`, { force: true });
  return false;
}

/** Whether the JVM of a `loading` start mapped its cache, from its AOT log; null when it cannot be told. */
export function aotCacheUsed(plan: AotCachePlan): boolean | null {
  if (plan.state !== 'loading' || !plan.logFile) return null;
  let text: string;
  try {
    text = fs.readFileSync(plan.logFile, 'utf8');
  } catch {
    return null;
  }
  const m = /Using AOT-linked classes: (true|false)/.exec(text);
  if (m) return m[1] === 'true';
  return /Unable to map shared spaces|\[error\s*\]\[aot/.test(text) ? false : null;
}

/** Removes a cache the JVM did not use, so the next start records a new one. */
export function dropCache(plan: AotCachePlan): void {
  if (plan.cacheFile) fs.rmSync(plan.cacheFile, { force: true });
}

/** Keeps `own` and the other caches last used, up to KEEP_CACHES in all; removes old leftovers of recordings. */
function prune(dir: string, own: string, now: number): void {
  const caches: { file: string; usedMs: number }[] = [];
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith('neo4j-')) continue;
    const file = path.join(dir, name);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) continue;
    if (name.endsWith('.aot')) {
      if (name !== own) caches.push({ file, usedMs: stat.mtimeMs });
    } else if (now - stat.mtimeMs > LEFTOVER_AGE_MS) {
      fs.rmSync(file, { force: true });
    }
  }
  // One place is own's, loaded now or written at this JVM's exit.
  caches.sort((a, b) => b.usedMs - a.usedMs);
  for (const c of caches.slice(KEEP_CACHES - 1)) fs.rmSync(c.file, { force: true });
}
