import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

/** Helpers for benchmarks that run services as separate processes (bench/marquez.ts). */

/** Resident memory (MiB) of these processes and all their descendants, from /proc. */
export function rssMiB(roots: number[]): number {
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
  let kib = 0;
  const seen = new Set<number>();
  const stack = [...roots];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    try {
      kib += Number(/^VmRSS:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return Math.round(kib / 1024);
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

/** Starts a command with its output appended to `logFile`. */
export function startLogged(cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, logFile: string): ChildProcess {
  const out = fs.openSync(logFile, 'a');
  return spawn(cmd, args, { env, cwd, stdio: ['ignore', out, out], detached: true });
}

/** Polls `check` every 500 ms until it is true; throws after `ms`. */
export async function until(what: string, check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${Math.round(ms / 1000)} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
