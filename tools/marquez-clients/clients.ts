import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findRepo } from './baseline';

/**
 * Drivers for Marquez's own clients, so that the same reads can run against real Marquez 0.50 and
 * against Tributary's Marquez-compatible REST API and be compared (see README.md beside this file).
 *
 * - Python: marquez-python 0.50.0 from PyPI, in a venv at MARQUEZ_CLIENTS_VENV, else
 *   ~/.cache/tributary/marquez-clients/venv (created once, reused), driven by python_client.py.
 * - Java: marquez.client.MarquezClient at tag 0.50.0. io.github.marquezproject:marquez-java 0.50.0
 *   is not on Maven Central (only 0.4.x is), so java/pom.xml compiles the client from the 0.50.0
 *   source that ../shared/marquez-baseline holds (MARQUEZ_SOURCE overrides its src/main/java),
 *   together with java/src/main/java/tributary/marquezclients/Main.java.
 *
 * Both print `{call: {ok, status, result, error, request}}`; the run functions return it parsed.
 */

export type Log = (line: string) => void;

/** The entities the clients are asked about. Missing optional values are taken from earlier answers. */
export interface ClientPlan {
  namespace: string;
  job: string;
  dataset: string;
  field: string;
  runId?: string;
  source?: string;
  datasetVersion?: string;
  /** Java only: a job version (default: the job's currentVersion). */
  jobVersion?: string;
  /** Lineage and column-lineage depth (default 20). */
  depth?: number;
  /** Java only: the search query (default: the dataset name). */
  search?: string;
}

export interface ClientCall {
  ok: boolean;
  /** HTTP status of the call's last request, null when no response came (e.g. a client-side error). */
  status: number | null;
  /** Python: the parsed JSON body the method returned. Java: the client's model re-serialized with the client's mapper (NON_NULL). */
  result: unknown;
  error: string | null;
  /** "GET /api/v1/...?..." of the call's last request, as the client sent it (path still encoded). */
  request: string | null;
  /** A short stack trace when the call failed before any response. */
  trace?: string;
}

export type ClientReport = Record<string, ClientCall>;

export const marquezPythonVersion = '0.50.0';
/** marquez-python 0.50.0 imports pytz (marquez_client/utils.py) without declaring it: installed beside it. */
const pytzVersion = '2026.6';

const here = findRepo();
const driverDir = path.join(here, 'tools', 'marquez-clients');
const javaDir = path.join(driverDir, 'java');
const pythonScript = path.join(driverDir, 'python_client.py');

/** The venv: MARQUEZ_CLIENTS_VENV, else ~/.cache/tributary/marquez-clients/venv. */
export const clientsVenv = (): string => process.env.MARQUEZ_CLIENTS_VENV ?? path.join(os.homedir(), '.cache', 'tributary', 'marquez-clients', 'venv');

/** The Marquez 0.50.0 source root the Java client is compiled from (holds marquez/client/). */
export const marquezSource = (): string => process.env.MARQUEZ_SOURCE ?? path.resolve(here, '..', 'shared', 'marquez-baseline', 'src', 'main', 'java');

/** Creates the venv with marquez-python 0.50.0 (and pytz) once; returns its python. */
export async function ensurePythonClient(log: Log): Promise<string> {
  const venv = clientsVenv();
  const python = path.join(venv, 'bin', 'python');
  if ((await installedMarquezPython(python)) === marquezPythonVersion) return python;
  if (!fs.existsSync(python)) {
    log(`creating a Python venv in ${venv}`);
    fs.mkdirSync(path.dirname(venv), { recursive: true });
    await mustRun(process.env.MARQUEZ_CLIENTS_PYTHON ?? 'python3', ['-m', 'venv', venv], 'python3 -m venv (on Debian: apt-get install python3-venv)');
  }
  log(`installing marquez-python==${marquezPythonVersion} pytz==${pytzVersion} from PyPI into ${venv}`);
  await mustRun(python, ['-m', 'pip', 'install', '--disable-pip-version-check', '-q', `marquez-python==${marquezPythonVersion}`, `pytz==${pytzVersion}`], 'pip install marquez-python');
  const got = await installedMarquezPython(python);
  if (got !== marquezPythonVersion) throw new Error(`marquez-python ${marquezPythonVersion} expected in ${venv}, found ${got ?? 'none (import failed)'}`);
  return python;
}

async function installedMarquezPython(python: string): Promise<string | null> {
  if (!fs.existsSync(python)) return null;
  // Importing (not only reading the metadata) also proves pytz is there.
  const res = await runProcess(python, ['-c', 'import marquez_client; print(marquez_client.__version__)'], {});
  return res.code === 0 ? res.stdout.trim() : null;
}

/** Compiles the Java client and the driver with mvn when they are missing or older than their sources; returns the java command line prefix. */
export async function ensureJavaClient(log: Log): Promise<string[]> {
  const source = marquezSource();
  if (!fs.existsSync(path.join(source, 'marquez', 'client', 'MarquezClient.java'))) {
    throw new Error(`the Marquez 0.50.0 Java client source is not at ${source}/marquez/client (set MARQUEZ_SOURCE to a src/main/java that holds it)`);
  }
  const target = path.join(javaDir, 'target');
  const mainClass = path.join(target, 'classes', 'tributary', 'marquezclients', 'Main.class');
  const classpathFile = path.join(target, 'classpath.txt');
  const inputs = [path.join(javaDir, 'pom.xml'), path.join(javaDir, 'src', 'main', 'java', 'tributary', 'marquezclients', 'Main.java')];
  const built = fs.existsSync(mainClass) && fs.existsSync(classpathFile) ? fs.statSync(mainClass).mtimeMs : 0;
  if (built === 0 || inputs.some((f) => fs.statSync(f).mtimeMs > built)) {
    log(`building the Marquez 0.50.0 Java client and its driver (mvn clean package in ${javaDir})`);
    const t0 = Date.now();
    await mustRun('mvn', ['-q', '-B', `-Dmarquez.source=${source}`, 'clean', 'package'], 'mvn package (tools/marquez-clients/java)', { cwd: javaDir });
    log(`built in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
  const classpath = [path.join(target, 'classes'), ...fs.readFileSync(classpathFile, 'utf8').trim().split(path.delimiter)].join(path.delimiter);
  const java = process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
  return [java, '-cp', classpath, 'tributary.marquezclients.Main'];
}

/** Runs every read of marquez-python 0.50.0 against `url` (e.g. http://127.0.0.1:5100). */
export async function runPythonClient(url: string, plan: ClientPlan, opts: { timeoutMs?: number; log?: Log } = {}): Promise<ClientReport> {
  const python = await ensurePythonClient(opts.log ?? (() => {}));
  return runDriver(python, [pythonScript], url, plan, opts.timeoutMs);
}

/** Runs the reads of Marquez's Java client 0.50.0 against `url`. */
export async function runJavaClient(url: string, plan: ClientPlan, opts: { timeoutMs?: number; log?: Log } = {}): Promise<ClientReport> {
  const [java, ...args] = await ensureJavaClient(opts.log ?? (() => {}));
  return runDriver(java!, args, url, plan, opts.timeoutMs);
}

async function runDriver(cmd: string, prefix: string[], url: string, plan: ClientPlan, timeoutMs = 10 * 60_000): Promise<ClientReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquez-clients-'));
  try {
    const planFile = path.join(dir, 'plan.json');
    const outFile = path.join(dir, 'out.json');
    fs.writeFileSync(planFile, JSON.stringify(plan));
    const res = await runProcess(cmd, [...prefix, '--url', url, '--plan', planFile, '--out', outFile], { timeoutMs });
    if (res.code !== 0 || !fs.existsSync(outFile)) {
      throw new Error(`${path.basename(cmd)} driver failed (exit ${res.code}${res.timedOut ? ', timed out' : ''}):\n${`${res.stdout}${res.stderr}`.slice(-3000)}`);
    }
    return JSON.parse(fs.readFileSync(outFile, 'utf8')) as ClientReport;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

function runProcess(cmd: string, args: string[], opts: { cwd?: string; timeoutMs?: number }): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = opts.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          child.kill('SIGKILL');
        }, opts.timeoutMs)
      : undefined;
    child.on('error', (err) => {
      if (timer) clearTimeout(timer);
      resolve({ code: null, stdout, stderr: `${stderr}${err.message}`, timedOut });
    });
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

async function mustRun(cmd: string, args: string[], what: string, opts: { cwd?: string } = {}): Promise<void> {
  const res = await runProcess(cmd, args, { cwd: opts.cwd, timeoutMs: 30 * 60_000 });
  if (res.code !== 0) throw new Error(`${what} failed (exit ${res.code}):\n${`${res.stdout}${res.stderr}`.slice(-2000)}`);
}

