import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Real Marquez 0.50.0 from ../shared/marquez-baseline (its source build and a private PostgreSQL), for side-by-side work. */

export type Log = (line: string) => void;

export interface MarquezBaseline {
  url: string;
  port: number;
  /** The JVM's pid (run.sh execs java). */
  pid: number;
}

/**
 * Starts Marquez 0.50.0 with ../shared/marquez-baseline/run.sh on free ports with a fresh temporary
 * cluster; returns its URL, port and the pid of its JVM. `cleanup` gets the function that stops
 * Marquez and PostgreSQL and removes the cluster. Used by sample.ts, tools/marquez-contract/capture.ts
 * and bench/marquez.ts. `statementTimeout`: PostgreSQL's statement_timeout for Marquez's role
 * (default 60s: a request past it answers 500 instead of holding the caller for minutes).
 */
export async function startMarquez(repo: string, log: Log, cleanup: (() => void)[], statementTimeout = '60s'): Promise<MarquezBaseline> {
  const baseline = path.resolve(repo, '..', 'shared', 'marquez-baseline');
  if (!fs.existsSync(path.join(baseline, 'run.sh'))) throw new Error(`${baseline}/run.sh is absent; pass --url`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'marquez-clients-'));
  fs.chmodSync(work, 0o755); // PostgreSQL runs as the postgres user
  const port = await freePort();
  const env = { ...process.env, FRESH: '1', PGDATA: path.join(work, 'pgdata'), MARQUEZ_PORT: String(port), MARQUEZ_ADMIN_PORT: String(await freePort()), POSTGRES_PORT: String(await freePort()), PG_STATEMENT_TIMEOUT: statementTimeout };
  const logFile = path.join(work, 'marquez.log');
  log(`starting Marquez (run.sh builds ${baseline}/lib once with mvn; log ${logFile})`);
  const out = fs.openSync(logFile, 'a');
  const child: ChildProcess = spawn('bash', ['run.sh'], { env, cwd: baseline, stdio: ['ignore', out, out], detached: true });
  cleanup.push(() => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    const pgBin = fs.readdirSync('/usr/lib/postgresql').sort().map((v) => `/usr/lib/postgresql/${v}/bin`).pop();
    spawnSync('su', ['postgres', '-s', '/bin/bash', '-c', `${pgBin}/pg_ctl -D '${env.PGDATA}' -m fast stop`], { stdio: 'ignore' });
    fs.rmSync(work, { recursive: true, force: true });
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20 * 60_000;
  for (;;) {
    const ok = await fetch(`${url}/api/v1/namespaces`).then((r) => r.ok, () => false);
    if (ok) break;
    if (child.exitCode !== null) throw new Error(`run.sh exited ${child.exitCode}:\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
    if (Date.now() > deadline) throw new Error('Marquez did not answer within 20 minutes');
    await new Promise((r) => setTimeout(r, 500));
  }
  log(`Marquez up at ${url}`);
  return { url, port, pid: child.pid! };
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The repo root: the nearest folder above this file (source or dist/) with package.json and tools/marquez-clients/python_client.py. */
export function findRepo(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'tools', 'marquez-clients', 'python_client.py'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(__dirname, '..', '..', '..');
  }
}


/** What the command-line tools here share: `--name value` options, a timestamped log, timed steps. */
export function toolRun(argv: string[]): {
  opt: (name: string) => string | undefined;
  log: Log;
  timings: Record<string, number>;
  timed: <T>(what: string, work: () => Promise<T>) => Promise<T>;
} {
  const log: Log = (line) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
  const timings: Record<string, number> = {};
  return {
    opt: (name) => {
      const i = argv.indexOf(`--${name}`);
      return i >= 0 ? argv[i + 1] : undefined;
    },
    log,
    timings,
    timed: async (what, work) => {
      const t0 = Date.now();
      try {
        return await work();
      } finally {
        timings[what] = Math.round((Date.now() - t0) / 100) / 10;
        log(`${what}: ${timings[what]} s`);
      }
    },
  };
}
