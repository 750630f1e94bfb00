import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { statCpuMs } from '../src/graph/embedded/cpu';

/** Helpers for benchmarks that run services as separate processes (bench/marquez.ts). */

/** These processes and all their descendants, from /proc. */
function processTree(roots: number[]): number[] {
  const children = new Map<number, number[]>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${d}/status`, 'utf8'))?.[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      // gone meanwhile
    }
  }
  const seen = new Set<number>();
  const stack = [...roots];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return [...seen];
}

/** Resident memory (MiB) of these processes and all their descendants. */
export function rssMiB(roots: number[]): number {
  let kib = 0;
  for (const pid of processTree(roots)) {
    try {
      kib += Number(/^VmRSS:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return Math.round(kib / 1024);
}

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const TICKS_PER_S = 100;

/**
 * CPU time (ms, user + system) these processes and all their descendants have used so far,
 * including children they have reaped (a PostgreSQL backend that ended counts in the postmaster's).
 * The difference of two readings is what a side spent meanwhile, on any core.
 */
export function cpuMs(roots: number[]): number {
  let ticks = 0;
  for (const pid of processTree(roots)) {
    try {
      // Fields after the command (which may hold spaces): state is 3, utime..cstime are 14..17.
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // gone meanwhile
    }
  }
  return (ticks * 1000) / TICKS_PER_S;
}

/** What a JVM's threads do, by name: Neo4j's query work, the JIT compilers, garbage collection, the rest. */
export type JvmThreadGroup = 'queries' | 'jit' | 'gc' | 'other';

function jvmThreadGroup(name: string): JvmThreadGroup {
  if (name.startsWith('neo4j.BoltWorke')) return 'queries';
  if (/^C[12] CompilerThre/.test(name)) return 'jit';
  if (/^(GC Thread|G1 |VM Thread)/.test(name)) return 'gc';
  return 'other';
}

/**
 * CPU time (ms) one JVM's threads have used so far, by group (from /proc/<pid>/task: a thread that
 * ended takes its time with it, which Neo4j's long-lived pools rarely do). The queries' own work is
 * what Neo4j's Bolt workers spend (planning included); the JIT's is the JVM compiling code paths it
 * has not met before, a cost that fades as the process ages.
 */
export function jvmThreadCpuMs(pid: number): Record<JvmThreadGroup, number> {
  const out: Record<JvmThreadGroup, number> = { queries: 0, jit: 0, gc: 0, other: 0 };
  let tasks: string[] = [];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const t of tasks) {
    let name: string;
    try {
      name = fs.readFileSync(`/proc/${pid}/task/${t}/comm`, 'utf8').trim();
    } catch {
      continue; // gone meanwhile
    }
    out[jvmThreadGroup(name)] += statCpuMs(`/proc/${pid}/task/${t}/stat`) ?? 0;
  }
  return out;
}

/** The first JVM (a process named java) among this process's descendants; null when none. */
export function jvmUnder(root: number): number | null {
  for (const pid of processTree([root])) {
    if (pid === root) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'java') return pid;
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

/** Pids of processes run by `user` (PostgreSQL runs as postgres, not as a child of run.sh's shell). */
export function pidsOf(user: string): number[] {
  const uid = Number(/^postgres:[^:]*:(\d+):/m.exec(fs.readFileSync('/etc/passwd', 'utf8'))?.[1] ?? -1);
  if (user !== 'postgres' || uid < 0) return [];
  return fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number).filter((pid) => {
    try {
      return Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) === uid;
    } catch {
      return false;
    }
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Stops what a bench started; a pid it returns is waited for before the bench's work folder goes. */
export type Cleanup = () => number | void;

/**
 * The cleanups of a bench that keeps its stores in `work`, and `release`: runs them (once), waits
 * for the processes they stopped, then removes `work` (kept with BENCH_KEEP_WORK=1, for a look at
 * the stores and logs). Call it in a `finally`; SIGINT and SIGTERM call it too, since the services
 * are detached and, left, ran on (each run's folder is 3–5 GB). Removed under a service still
 * stopping its Neo4j, the folder was left half deleted.
 */
export function releaseOnExit(work: string): { cleanup: Cleanup[]; release: () => Promise<void> } {
  const cleanup: Cleanup[] = [];
  let released: Promise<void> | null = null;
  const release = () =>
    (released ??= (async () => {
      await exited(cleanup.reverse().flatMap((c) => c() ?? []), 120_000);
      if (process.env.BENCH_KEEP_WORK === '1') process.stdout.write(`kept ${work}\n`);
      else fs.rmSync(work, { recursive: true, force: true });
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      // The phase in flight fails as its service goes: expected now, and it must not end the process before the cleanup.
      process.on('unhandledRejection', () => undefined);
      process.on('uncaughtException', () => undefined);
      void release().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  return { cleanup, release };
}

/** Resolves once none of `pids` runs any more, or after `ms`. */
export async function exited(pids: number[], ms: number): Promise<void> {
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const deadline = Date.now() + ms;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
}

/** Starts a command with its output appended to `logFile`. */
export function startLogged(cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, logFile: string): ChildProcess {
  const out = fs.openSync(logFile, 'a');
  return spawn(cmd, args, { env, cwd, stdio: ['ignore', out, out], detached: true });
}

/**
 * Polls `check` every 500 ms until it is true; throws after `ms`, or at once when `service` (the
 * one being waited for) has exited, with the end of its log: a service that failed to start (a
 * provisioning error, a port in use) says why instead of being waited for until the deadline.
 */
export async function until(what: string, check: () => Promise<boolean>, ms: number, service?: { child: ChildProcess; logFile: string }): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (service && (service.child.exitCode !== null || service.child.signalCode !== null)) {
      const tail = fs.readFileSync(service.logFile, 'utf8').split('\n').slice(-20).join('\n');
      throw new Error(`${what}: the process exited (${service.child.exitCode ?? service.child.signalCode}); the end of ${service.logFile}:\n${tail}`);
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${Math.round(ms / 1000)} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
