import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../../src/graph/embedded/neo4j';
import { javaExecutable, mavenClasspath } from '../../src/graph/embedded/provision';
import { writeConnectWorkerFiles } from '../../tools/kafka/connect-worker';
import { repoRoot } from './corpus';
import { freezeProcess } from './freeze';

/**
 * A real Kafka Connect 3.9 worker (distributed mode, connect-runtime and connect-file from Maven
 * Central: tools/kafka/connect/pom.xml) on the kafka tier's broker, for the collector's test.
 * `pause()`/`resume()` SIGSTOP and SIGCONT the JVM (a worker that hangs), `kill()` SIGKILLs it.
 */
export interface ConnectWorker {
  restUrl: string;
  put(connector: string, config: Record<string, string>): Promise<void>;
  remove(connector: string): Promise<void>;
  call(method: 'PUT' | 'POST', pathname: string): Promise<void>;
  /** Waits until the connector is in `state` and it has tasks, each in `taskState` (default: the same). */
  waitState(connector: string, state: string, taskState?: string, timeoutMs?: number): Promise<void>;
  /** Waits until `GET /connectors?expand=info` (what the collector reads) shows `key` = `value` in the connector's config. */
  waitConfig(connector: string, key: string, value: string, timeoutMs?: number): Promise<void>;
  /** SIGSTOPs the JVM and resolves once all its threads are stopped (support/freeze.ts). */
  freeze(): Promise<void>;
  thaw(): void;
  kill(): Promise<void>;
  stop(): Promise<void>;
  logFile: string;
}

export async function startConnectWorker(home: string, bootstrap: string, group: string, searchPath: string, javaHome?: string): Promise<ConnectWorker> {
  const classpath = await mavenClasspath(path.join(repoRoot, 'tools', 'kafka', 'connect'), searchPath, 'Kafka Connect 3.9', (m) => process.stdout.write(`${m}\n`));
  const java = javaExecutable({ searchPath, javaHome });
  fs.rmSync(home, { recursive: true, force: true });
  const files = writeConnectWorkerFiles(home, { bootstrap, port: await freePort(), group, classpath, heap: '384m' });
  const logFile = path.join(home, 'connect.log');
  const out = fs.openSync(logFile, 'a');
  const child: ChildProcess = spawn(java, [...files.jvm, 'org.apache.kafka.connect.cli.ConnectDistributed', files.workerProps], { stdio: ['ignore', out, out], cwd: home });
  fs.closeSync(out);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const restUrl = files.restUrl;
  const request = async (method: string, pathname: string, body?: unknown) => {
    const res = await fetch(`${restUrl}${pathname}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as unknown) : null;
  };
  const until = async (what: string, probe: () => Promise<boolean>, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`Kafka Connect exited; see ${logFile}`);
      if (await probe().catch(() => false)) return;
      if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms; see ${logFile}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  };
  await until('Kafka Connect REST', async () => (await fetch(`${restUrl}/connectors`, { signal: AbortSignal.timeout(5_000) })).ok, 180_000);
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGCONT');
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000).unref())]);
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  return {
    restUrl,
    logFile,
    put: async (name, config) => void (await request('PUT', `/connectors/${encodeURIComponent(name)}/config`, config)),
    remove: async (name) => void (await request('DELETE', `/connectors/${encodeURIComponent(name)}`)),
    call: async (method, pathname) => void (await request(method, pathname)),
    waitState: (name, state, taskState = state, timeoutMs = 90_000) =>
      until(`${name} ${state}, its tasks ${taskState}`, async () => {
        const s = (await request('GET', `/connectors/${encodeURIComponent(name)}/status`)) as { connector: { state: string }; tasks: { state: string }[] };
        return s.connector.state === state && s.tasks.length > 0 && s.tasks.every((t) => t.state === taskState);
      }, timeoutMs),
    waitConfig: (name, key, value, timeoutMs = 90_000) =>
      until(`${name} with ${key}=${value}`, async () => {
        const all = (await request('GET', '/connectors?expand=info')) as Record<string, { info?: { config?: Record<string, string> } }>;
        return all[name]?.info?.config?.[key] === value;
      }, timeoutMs),
    freeze: () => freezeProcess(child.pid!),
    thaw: () => void child.kill('SIGCONT'),
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stop,
  };
}
