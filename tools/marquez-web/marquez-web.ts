import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * The unmodified Marquez Web UI, built from Marquez's own source at a pinned tag and served by
 * Marquez's own `web/setupProxy.js` (Express: serves `dist/`, proxies `/api/v1` and `/api/v2beta`
 * to MARQUEZ_HOST:MARQUEZ_PORT). Used to point the real Marquez UI at Tributary's Marquez-compatible
 * REST API.
 *
 * Layout under `$MARQUEZ_WEB_HOME/<tag>/` (default ~/.cache/tributary/marquez-web/<tag>/: outside the
 * checkout, so fresh clones and CI runs on this machine reuse one build):
 *   web/            `git archive <tag>:web` of Marquez, then `npm ci` and `npm run build` (dist/)
 *   extracted.json  installed.json  built.json   stage markers (a stage reruns when its marker is absent)
 *   install.log  build.log  serve-<port>.log
 *
 * Run directly: `node dist/tools/marquez-web/marquez-web.js build [--force]`
 *           or  `node dist/tools/marquez-web/marquez-web.js serve --marquez-port 5000 [--marquez-host 127.0.0.1] [--port 3000]`
 */

export const MARQUEZ_WEB_TAG = '0.51.1';
export const DEFAULT_MARQUEZ_REPO = '/work/.mirror/MarquezProject+marquez/repo';

export const baseDir = (): string => path.join(process.env.MARQUEZ_WEB_HOME ?? path.join(os.homedir(), '.cache', 'tributary', 'marquez-web'), MARQUEZ_WEB_TAG);

export type Log = (msg: string) => void;

interface BuiltStamp {
  tag: string;
  commit: string;
  advancedSearch: boolean;
  node: string;
  installSeconds: number | null;
  buildSeconds: number;
  builtAt: string;
}

const advancedSearch = (): boolean => process.env.REACT_APP_ADVANCED_SEARCH === 'true';

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

function writeJson(file: string, value: unknown): void {
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

function tail(file: string, lines = 40): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** True when a finished build for the pinned tag (and the current REACT_APP_ADVANCED_SEARCH) is on disk. */
function builtAlready(base: string): BuiltStamp | null {
  const stamp = readJson<BuiltStamp>(path.join(base, 'built.json'));
  if (!stamp || stamp.tag !== MARQUEZ_WEB_TAG || stamp.advancedSearch !== advancedSearch()) return null;
  const web = path.join(base, 'web');
  const needed = ['dist/index.html', 'dist/bundle.js', 'setupProxy.js', 'node_modules/express/package.json', 'node_modules/http-proxy-middleware/package.json'];
  return needed.every((f) => fs.existsSync(path.join(web, f))) ? stamp : null;
}

function git(repo: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('git', ['-C', repo, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw new Error(`cannot run git (${r.error.message}); git is needed to extract the Marquez source`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The Marquez git repository (MARQUEZ_REPO or the mirror) and the commit of the pinned tag; fails fast with where it looked. */
function locateSource(): { repo: string; commit: string } {
  const repo = process.env.MARQUEZ_REPO || DEFAULT_MARQUEZ_REPO;
  const how = process.env.MARQUEZ_REPO ? 'MARQUEZ_REPO' : 'the default location';
  const hint = `Set MARQUEZ_REPO=<path to a git clone of MarquezProject/marquez> (it must have the tag ${MARQUEZ_WEB_TAG}; bare or with a work tree) to override.`;
  if (!fs.existsSync(repo)) throw new Error(`Marquez source not found: no git repository at ${repo} (${how}). ${hint}`);
  const c = git(repo, ['rev-parse', '--verify', '--quiet', `${MARQUEZ_WEB_TAG}^{commit}`]);
  if (c.status !== 0) {
    const isRepo = git(repo, ['rev-parse', '--git-dir']).status === 0;
    throw new Error(
      isRepo
        ? `Marquez repository ${repo} (${how}) has no tag ${MARQUEZ_WEB_TAG} (try \`git -C ${repo} fetch --tags\`). ${hint}`
        : `Marquez source not found: ${repo} (${how}) is not a git repository. ${hint}`,
    );
  }
  return { repo, commit: c.stdout.trim() };
}

/**
 * Blobs under `web/` that the repository lists but does not hold (a partial mirror keeps some large
 * files as absent). Documentation files may be skipped; anything else is an error.
 */
function absentBlobs(repo: string): string[] {
  const ls = git(repo, ['ls-tree', '-r', '-z', MARQUEZ_WEB_TAG, '--', 'web']);
  if (ls.status !== 0) throw new Error(`git ls-tree ${MARQUEZ_WEB_TAG} web failed: ${ls.stderr}`);
  const blobs = ls.stdout
    .split('\0')
    .filter(Boolean)
    .map((entry) => {
      const [meta, file] = entry.split('\t');
      const [, type, sha] = meta.split(' ');
      return { type, sha, file };
    })
    .filter((e) => e.type === 'blob');
  const check = spawnSync('git', ['-C', repo, 'cat-file', '--batch-check=%(objectname) %(objecttype)'], {
    input: blobs.map((b) => b.sha).join('\n') + '\n',
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const missing = new Set(
    check.stdout
      .split('\n')
      .filter((l) => l.endsWith(' missing'))
      .map((l) => l.split(' ')[0]),
  );
  return blobs.filter((b) => missing.has(b.sha)).map((b) => b.file);
}

function extract(repo: string, commit: string, web: string, log: Log): void {
  const absent = absentBlobs(repo);
  const fatal = absent.filter((f) => !f.startsWith('web/docs/'));
  if (fatal.length > 0) throw new Error(`the Marquez repository at ${repo} lacks files needed for the build: ${fatal.join(', ')}`);
  if (absent.length > 0) log(`skipping ${absent.join(', ')}: absent from the repository, documentation only`);
  fs.rmSync(web, { recursive: true, force: true });
  fs.mkdirSync(web, { recursive: true });
  const tar = path.join(path.dirname(web), 'web.tar');
  const excludes = absent.map((f) => `:(exclude)${f.slice('web/'.length)}`);
  const a = git(repo, ['archive', '--format=tar', '-o', tar, `${commit}:web`, '--', '.', ...excludes]);
  if (a.status !== 0) throw new Error(`git archive ${MARQUEZ_WEB_TAG}:web failed: ${a.stderr}`);
  const x = spawnSync('tar', ['-xf', tar, '-C', web], { encoding: 'utf8' });
  if (x.error || x.status !== 0) throw new Error(`tar -xf ${tar} failed: ${x.error?.message ?? x.stderr}`);
  fs.rmSync(tar, { force: true });
}

/** Runs a command with its output appended to a log file; throws with the log's tail when it fails. */
function run(cmd: string, args: string[], cwd: string, logFile: string, env: NodeJS.ProcessEnv): Promise<number> {
  const started = Date.now();
  fs.appendFileSync(logFile, `\n$ ${cmd} ${args.join(' ')}   (in ${cwd}, ${new Date().toISOString()})\n`);
  const fd = fs.openSync(logFile, 'a');
  const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', fd, fd] });
  fs.closeSync(fd);
  return new Promise((resolve, reject) => {
    child.once('error', (e) => reject(new Error(`cannot run ${cmd}: ${e.message}`)));
    child.once('exit', (code, signal) => {
      const seconds = (Date.now() - started) / 1000;
      if (code === 0) resolve(seconds);
      else reject(new Error(`\`${cmd} ${args.join(' ')}\` in ${cwd} failed (${signal ?? `exit ${code}`}) after ${seconds.toFixed(0)} s; log ${logFile}:\n${tail(logFile)}`));
    });
  });
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** A directory lock so that two concurrent callers (a test and the CLI) do not build into one folder at once. */
async function withLock<T>(base: string, log: Log, fn: () => Promise<T>): Promise<T> {
  const lock = path.join(base, '.lock');
  const pidFile = path.join(lock, 'pid');
  let told = false;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(pidFile, String(process.pid));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(readJson<number>(pidFile));
      if (pid && pid !== process.pid && isAlive(pid)) {
        if (!told) log(`waiting for another Marquez Web build (pid ${pid}) holding ${lock}`);
        told = true;
        await new Promise((r) => setTimeout(r, 2000));
        continue;
      }
      // stale (its owner died) or half-written: retake it once the pid file has had time to appear
      await new Promise((r) => setTimeout(r, 200));
      const again = Number(readJson<number>(pidFile));
      if (again && again !== pid && isAlive(again)) continue;
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Extracts Marquez's `web/` at the pinned tag, installs its locked dependencies (`npm ci`) and builds
 * it (`npm run build`, webpack.prod → dist/). Idempotent: each stage leaves a marker and is skipped
 * when its marker is there; with the build present this returns in milliseconds without touching git.
 */
export async function ensureMarquezWeb(log: Log = defaultLog, opts: { force?: boolean } = {}): Promise<{ dir: string; distDir: string }> {
  const base = baseDir();
  const web = path.join(base, 'web');
  const result = { dir: web, distDir: path.join(web, 'dist') };
  if (!opts.force && builtAlready(base)) return result;
  const { repo, commit } = locateSource();
  fs.mkdirSync(base, { recursive: true });
  return withLock(base, log, async () => {
    const extractedFile = path.join(base, 'extracted.json');
    const installedFile = path.join(base, 'installed.json');
    const builtFile = path.join(base, 'built.json');
    if (opts.force) for (const f of [extractedFile, installedFile, builtFile]) fs.rmSync(f, { force: true });
    else if (builtAlready(base)) return result; // another process finished it while we waited

    if (readJson<{ commit: string }>(extractedFile)?.commit !== commit) {
      for (const f of [extractedFile, installedFile, builtFile]) fs.rmSync(f, { force: true });
      log(`extracting Marquez ${MARQUEZ_WEB_TAG} (${commit.slice(0, 12)}) web/ from ${repo} into ${web}`);
      extract(repo, commit, web, log);
      writeJson(extractedFile, { tag: MARQUEZ_WEB_TAG, commit, repo, at: new Date().toISOString() });
    }

    // The UI's own package.json pins nothing for Node; npm's defaults are fine on Node 20 (see README).
    const env: NodeJS.ProcessEnv = { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' };
    let installSeconds: number | null = readJson<{ seconds: number }>(installedFile)?.seconds ?? null;
    if (installSeconds === null || !fs.existsSync(path.join(web, 'node_modules', '.package-lock.json'))) {
      fs.rmSync(builtFile, { force: true });
      const logFile = path.join(base, 'install.log');
      log(`npm ci in ${web} (about 2 min with a cold npm cache; log ${logFile})`);
      installSeconds = await run('npm', ['ci', '--no-audit', '--no-fund'], web, logFile, env);
      writeJson(installedFile, { seconds: installSeconds, node: process.version, at: new Date().toISOString() });
      log(`installed in ${installSeconds.toFixed(0)} s`);
    }

    const logFile = path.join(base, 'build.log');
    log(`npm run build in ${web} (webpack with ts-loader, about 5-7 min on 2 cores; log ${logFile})`);
    const buildSeconds = await run('npm', ['run', 'build'], web, logFile, env);
    for (const f of ['index.html', 'bundle.js']) {
      if (!fs.existsSync(path.join(result.distDir, f))) throw new Error(`the build finished but ${path.join(result.distDir, f)} is missing; log ${logFile}`);
    }
    const stamp: BuiltStamp = {
      tag: MARQUEZ_WEB_TAG,
      commit,
      advancedSearch: advancedSearch(),
      node: process.version,
      installSeconds,
      buildSeconds,
      builtAt: new Date().toISOString(),
    };
    writeJson(builtFile, stamp);
    log(`built in ${buildSeconds.toFixed(0)} s: ${result.distDir}`);
    return result;
  });
}

/** A TCP port nothing listens on now (the OS's pick). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function healthy(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(`${url}/healthcheck`, { timeout: 2000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve(res.statusCode === 200 && body.trim() === 'OK'));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

export interface MarquezWebServer {
  url: string;
  port: number;
  pid: number;
  logFile: string;
  /** Resolves with the exit code (null when killed by a signal) once setupProxy.js has exited. */
  exited: Promise<number | null>;
  /** SIGTERM, SIGKILL after 5 s; resolves once the process has exited. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Serves the built UI with Marquez's own `setupProxy.js` (`node setupProxy.js` in the web folder,
 * MARQUEZ_HOST/MARQUEZ_PORT/WEB_PORT in its environment), building it first if needed. Resolves once
 * `GET /healthcheck` answers OK. `webPort` defaults to a free port.
 */
export async function serveMarquezWeb(
  opts: { marquezHost?: string; marquezPort: number; webPort?: number },
  log: Log = defaultLog,
): Promise<MarquezWebServer> {
  const { dir } = await ensureMarquezWeb(log);
  const marquezHost = opts.marquezHost ?? '127.0.0.1';
  const port = opts.webPort ?? (await freePort());
  if (await accepts(port)) throw new Error(`port ${port} is already in use; pick another web port for the Marquez Web UI`);
  const logFile = path.join(baseDir(), `serve-${port}.log`);
  const fd = fs.openSync(logFile, 'w');
  const child = spawn(process.execPath, ['setupProxy.js'], {
    cwd: dir,
    env: { ...process.env, MARQUEZ_HOST: marquezHost, MARQUEZ_PORT: String(opts.marquezPort), WEB_PORT: String(port) },
    stdio: ['ignore', fd, fd],
  });
  fs.closeSync(fd);
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      process.removeListener('exit', killOnExit);
      resolve(code);
    }),
  );
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  };
  const url = `http://127.0.0.1:${port}`;
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + 30_000;
  while (!(await healthy(url))) {
    if (gone) throw new Error(`setupProxy.js exited (code ${child.exitCode}) before answering ${url}/healthcheck; log ${logFile}:\n${tail(logFile)}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`timed out after 30 s waiting for ${url}/healthcheck; log ${logFile}:\n${tail(logFile)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  log(`Marquez Web UI ${MARQUEZ_WEB_TAG} at ${url}, proxying /api/v1 and /api/v2beta to http://${marquezHost}:${opts.marquezPort}`);
  return { url, port, pid: child.pid ?? -1, logFile, exited, stop };
}

function defaultLog(msg: string): void {
  process.stderr.write(`[marquez-web] ${msg}\n`);
}

const USAGE = `usage: node dist/tools/marquez-web/marquez-web.js build [--force]
       node dist/tools/marquez-web/marquez-web.js serve --marquez-port 5000 [--marquez-host 127.0.0.1] [--port 3000]
  serve's defaults come from MARQUEZ_HOST, MARQUEZ_PORT and WEB_PORT when set; MARQUEZ_REPO overrides
  where the Marquez git repository is read from (default ${DEFAULT_MARQUEZ_REPO}).`;

function parseFlags(args: string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}\n${USAGE}`);
    const eq = a.indexOf('=');
    if (eq > 0) flags.set(a.slice(2, eq), a.slice(eq + 1));
    else if (a === '--force') flags.set('force', 'true');
    else {
      if (i + 1 >= args.length) throw new Error(`${a} needs a value\n${USAGE}`);
      flags.set(a.slice(2), args[++i]);
    }
  }
  return flags;
}

function portFlag(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new Error(`${name} must be a port number, got ${value}`);
  return n;
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const flags = parseFlags(rest);
  if (command === 'build') {
    const started = Date.now();
    const { dir, distDir } = await ensureMarquezWeb(defaultLog, { force: flags.has('force') });
    defaultLog(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${distDir}`);
    process.stdout.write(`${dir}\n`);
    return;
  }
  if (command === 'serve') {
    const marquezPort = portFlag(flags.get('marquez-port') ?? process.env.MARQUEZ_PORT, '--marquez-port');
    if (marquezPort === undefined) throw new Error(`serve needs --marquez-port (or MARQUEZ_PORT)\n${USAGE}`);
    const marquezHost = flags.get('marquez-host') ?? process.env.MARQUEZ_HOST ?? '127.0.0.1';
    const webPort = portFlag(flags.get('port') ?? process.env.WEB_PORT, '--port') ?? 3000;
    const server = await serveMarquezWeb({ marquezHost, marquezPort, webPort });
    process.stdout.write(`${server.url}\n`);
    let stopping = false;
    const shutdown = (): void => {
      stopping = true;
      void server.stop().then(() => process.exit(0));
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
    const code = await server.exited;
    if (stopping) return;
    defaultLog(`setupProxy.js exited (code ${code}); log ${server.logFile}`);
    process.exit(code === 0 ? 0 : 1);
  }
  throw new Error(command ? `unknown command ${command}\n${USAGE}` : USAGE);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    defaultLog(e instanceof Error ? e.message : String(e));
    process.exit(1);
  });
}
