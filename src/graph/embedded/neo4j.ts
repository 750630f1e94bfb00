import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { EmbeddedNeo4jSettings } from '../../config';
import type { Logger } from '../../log';
import { aotCacheUsed, dropCache, keepRecordedCache, planAotCache, type AotCachePlan, type AotCacheState } from './aot-cache';
import { provision, ProvisionError, type Provisioned } from './provision';
import { neo4jMemory, pageCacheNote } from './sizing';

/**
 * The embedded default: a local Neo4j 5.26 Community process on 127.0.0.1, Bolt only, auth off,
 * data in `<home>/neo4j` (kept across restarts). `start` provisions (see provision.ts), launches
 * tools/neo4j/Launcher.java and resolves once the default database answers; `stop` shuts it down
 * cleanly (SIGTERM → Neo4j's own shutdown, so the next start needs no recovery).
 */

/** JVM flags Neo4j's own launcher passes on Java 17+ (neo4j.conf `server.jvm.additional`), its collector apart (GC_FLAGS). */
const JVM_FLAGS = [
  '-XX:-OmitStackTraceInFastThrow',
  '-XX:+UnlockExperimentalVMOptions',
  '-XX:+TrustFinalNonStaticFields',
  '-XX:+DisableExplicitGC',
  '-Djdk.nio.maxCachedBufferSize=1024',
  '-Dio.netty.tryReflectionSetAccessible=true',
  '-Dlog4j2.disable.jmx=true',
  '-Dfile.encoding=UTF-8',
  '--add-opens=java.base/java.nio=ALL-UNNAMED',
  '--add-opens=java.base/java.io=ALL-UNNAMED',
  '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED',
  '--add-opens=java.base/java.lang=ALL-UNNAMED',
  '--add-opens=java.base/java.util=ALL-UNNAMED',
];

/** The collector's flag by `TRIBUTARY_NEO4J_GC`; G1 is what Neo4j's launcher passes. */
const GC_FLAGS = { g1: '-XX:+UseG1GC', parallel: '-XX:+UseParallelGC' } as const;

const READY = /^TRIBUTARY_NEO4J_READY (\S+)/m;

export interface EmbeddedNeo4j {
  uri: string;
  port: number;
  pid: number;
  /** Resolves when the JVM exits, for whatever reason, with its exit code or signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What this JVM does with its AOT cache (aot-cache.ts). */
  aotCache: AotCacheState;
  stop(): Promise<void>;
}

export { ProvisionError };

/** The Neo4j home (its data/ and logs/) of the embedded Neo4j whose Tributary home is `settings.home`. */
export const storeHome = (settings: Pick<EmbeddedNeo4jSettings, 'home'>): string => path.join(settings.home, 'neo4j');

/** Bytes of the files under `dir` (0 when it does not exist): a store's size on disk. */
export function directoryBytes(dir: string): number {
  let total = 0;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += directoryBytes(p);
    else if (e.isFile()) total += fs.statSync(p, { throwIfNoEntry: false })?.size ?? 0;
  }
  return total;
}

export async function startEmbeddedNeo4j(
  settings: EmbeddedNeo4jSettings,
  log: Logger,
  startTimeoutMs = 180_000,
): Promise<EmbeddedNeo4j> {
  const started = Date.now();
  const prov = await provision(settings, (msg) => log.info(msg));
  if (prov.javaMajor > 21) {
    log.warn(`Java ${prov.javaMajor} is newer than Neo4j 5.26 supports (17, 21); set TRIBUTARY_NEO4J_JAVA_HOME (or JAVA_HOME) to a JDK 17 or 21 if start-up fails`);
  }
  const port = settings.port === 0 ? await freePort() : settings.port;
  if (!(await portIsFree(port))) {
    throw new ProvisionError(
      `port ${port} is in use (another Neo4j?): set TRIBUTARY_NEO4J_PORT to a free port, or NEO4J_URI to use that server`,
    );
  }
  const home = storeHome(settings);
  fs.mkdirSync(path.join(home, 'logs'), { recursive: true });
  const stderrLog = path.join(home, 'logs', 'launcher.log');
  const stderrFd = fs.openSync(stderrLog, 'a');
  const memory = neo4jMemory(os.totalmem(), settings.heap, settings.pageCache);
  const jvmArgs = [
    `-Xms${memory.heap}`,
    `-Xmx${memory.heap}`,
    `-Dtributary.pagecache=${memory.pageCache}`,
    ...(settings.refresherReplans ? ['-Dtributary.replan=refresher'] : []),
    GC_FLAGS[settings.gc ?? 'g1'],
    ...JVM_FLAGS,
  ];
  const aot = aotPlan(settings, prov, jvmArgs, home, log);
  const args = [...jvmArgs, ...aot.flags, '-cp', prov.classpath, 'Launcher', home, String(port)];
  // stdin stays a pipe: the launcher exits when it closes, so the JVM never outlives this process.
  const child = spawn(prov.java, args, { stdio: ['pipe', 'pipe', stderrFd] });
  fs.closeSync(stderrFd);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  ).then((exit) => {
    settleAotCache(aot, exit, log);
    return exit;
  });

  const uri = await waitForReady(child, exited, startTimeoutMs, stderrLog);
  const store = directoryBytes(path.join(home, 'data', 'databases'));
  const aotCache = aotCacheState(aot, log);
  log.info('embedded Neo4j ready', { uri, home, startupMs: Date.now() - started, pid: child.pid, heap: memory.heap, pageCache: memory.pageCache, gc: settings.gc ?? 'g1', sizedBy: memory.source, storeBytes: store, aotCache });
  const note = pageCacheNote(store, memory.pageCache);
  if (note) log.info(note);
  let stopping: Promise<void> | null = null;
  return {
    uri,
    port,
    pid: child.pid!,
    exited,
    aotCache,
    stop: () => (stopping ??= stopChild(child, exited, log, aot.state === 'recording')),
  };
}

/** The AOT cache of this start; none when its files cannot be handled (an unwritable home): a start never fails for it. */
function aotPlan(settings: EmbeddedNeo4jSettings, prov: Provisioned, jvmArgs: string[], home: string, log: Logger): AotCachePlan {
  try {
    return planAotCache({
      setting: settings.aotCache ?? 'auto',
      javaMajor: prov.javaMajor,
      java: prov.java,
      javaVersion: prov.javaVersion,
      classpath: prov.classpath,
      jvmArgs,
      dir: settings.aotDir ?? path.join(home, 'aot'),
      logDir: path.join(home, 'logs'),
    });
  } catch (err) {
    log.warn('starting the embedded Neo4j without its JVM AOT cache', { err: String(err) });
    return { state: 'off', flags: [] };
  }
}

/** What a started JVM did with its AOT cache (aot-cache.ts); a cache it could not map is removed. */
function aotCacheState(aot: AotCachePlan, log: Logger): AotCacheState {
  if (aot.state !== 'loading') return aot.state;
  const used = aotCacheUsed(aot);
  if (used === false) {
    log.warn('the JVM could not use its AOT cache (see its log); removed, the next start records a new one', { cache: aot.cacheFile, log: aot.logFile });
    try {
      dropCache(aot);
    } catch (err) {
      log.warn('could not remove the JVM AOT cache', { err: String(err) });
    }
    return 'rejected';
  }
  return used ? 'loaded' : 'loading';
}

function settleAotCache(aot: AotCachePlan, exit: { signal: NodeJS.Signals | null }, log: Logger): void {
  if (aot.state !== 'recording') return;
  try {
    if (keepRecordedCache(aot, exit)) log.info('JVM AOT cache written: the next start of the embedded Neo4j loads it', { cache: aot.cacheFile });
    else log.info('no JVM AOT cache written (the JVM was killed or wrote none); the next start records again');
  } catch (err) {
    log.warn('could not keep the JVM AOT cache', { err: String(err) });
  }
}

type Exit = Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

function waitForReady(child: ChildProcess, exited: Exit, timeoutMs: number, stderrLog: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new ProvisionError(`embedded Neo4j did not start within ${timeoutMs} ms; see ${stderrLog}`));
    }, timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = READY.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      const tail = fs.existsSync(stderrLog) ? fs.readFileSync(stderrLog, 'utf8').slice(-3000) : '';
      reject(new ProvisionError(`embedded Neo4j exited during start-up (code ${code}, signal ${signal}); last output:\n${tail}`));
    });
  });
}

async function stopChild(child: ChildProcess, exited: Exit, log: Logger, writesAotCache: boolean): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  // A recording JVM writes its AOT cache as it exits: about half a minute on the S bench store.
  const limitS = writesAotCache ? 240 : 60;
  if (writesAotCache) log.info('stopping the embedded Neo4j: its JVM writes its AOT cache first (once, about half a minute)');
  child.kill('SIGTERM');
  const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), limitS * 1000).unref());
  if ((await Promise.race([exited, timeout])) === 'timeout') {
    log.warn(`embedded Neo4j did not stop within ${limitS} s; killing it (next start will run recovery)`);
    child.kill('SIGKILL');
    await exited;
  }
  log.info('embedded Neo4j stopped');
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
