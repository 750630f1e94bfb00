import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * Provisioning of the embedded Neo4j: finds Java ≥ 17 and Maven, resolves Neo4j 5.26 Community from
 * Maven Central (tools/neo4j/pom.xml; jars cached in ~/.m2, so only the first run downloads) and
 * compiles tools/neo4j/Launcher.java for Java 17 into target/launcher.jar (a jar, not a class
 * directory: a JVM's AOT cache accepts only jars on the classpath; see aot-cache.ts). Results are
 * cached under tools/neo4j/target and rebuilt when the pom or the launcher changes.
 */

export class ProvisionError extends Error {}

export interface Provisioned {
  java: string;
  classpath: string;
  javaMajor: number;
  /** First line of `java -version`. */
  javaVersion: string;
}

export const launcherDir = (): string => path.resolve(__dirname, '..', '..', '..', '..', 'tools', 'neo4j');

export interface ProvisionOptions {
  javaHome?: string;
  /** Neo4j's own JDK when it differs from javaHome's (provision only; the other tools keep javaHome). */
  neo4jJavaHome?: string;
  /** The PATH to search for `java` and `mvn`. */
  searchPath: string;
}

export async function provision(opts: ProvisionOptions, log: (msg: string) => void): Promise<Provisioned> {
  const { java, javac, major, version } = opts.neo4jJavaHome ? neo4jOwnJava(opts.neo4jJavaHome) : findJava(opts);
  const dir = launcherDir();
  const target = path.join(dir, 'target');
  const classpath = await mavenClasspath(dir, opts.searchPath, 'Neo4j 5.26 Community', log);
  const cpFile = path.join(target, 'classpath.txt');
  const classes = path.join(target, 'classes');
  const jar = path.join(target, 'launcher.jar');
  const source = path.join(dir, 'Launcher.java');
  if (isStale(jar, [source, cpFile])) {
    const jarTool = javac && path.join(path.dirname(javac), 'jar');
    if (!javac || !jarTool || !fs.existsSync(jarTool)) {
      throw new ProvisionError(`a JDK is required (javac and jar not found next to ${java}): install a Java 17 or 21 JDK (e.g. apt-get install openjdk-17-jdk-headless).`);
    }
    fs.rmSync(classes, { recursive: true, force: true });
    fs.mkdirSync(classes, { recursive: true });
    // --release 17: the same jar runs whichever Java ≥ 17 a later start finds.
    const res = spawnSync(javac, ['--release', '17', '-cp', classpath, '-d', classes, source], { encoding: 'utf8' });
    if (res.status !== 0) throw new ProvisionError(`compiling the Neo4j launcher failed:\n${res.stderr}`);
    const packed = spawnSync(jarTool, ['--create', '--file', jar, '-C', classes, '.'], { encoding: 'utf8' });
    if (packed.status !== 0) throw new ProvisionError(`packing the Neo4j launcher failed:\n${packed.stderr}`);
  }
  return { java, javaMajor: major, javaVersion: version, classpath: `${jar}${path.delimiter}${classpath}` };
}

/**
 * The runtime classpath of the pom in `dir` (resolved from Maven Central by `mvn
 * dependency:build-classpath`, jars cached in ~/.m2), recomputed when the pom changes or a jar is
 * missing.
 */
export async function mavenClasspath(dir: string, searchPath: string, what: string, log: (msg: string) => void): Promise<string> {
  const cpFile = path.join(dir, 'target', 'classpath.txt');
  const pom = path.join(dir, 'pom.xml');
  // Re-resolve when the pom changed, or when a jar of the cached classpath is gone (a new machine,
  // a cleaned ~/.m2).
  const missingJar = () => fs.readFileSync(cpFile, 'utf8').trim().split(path.delimiter).some((jar) => !fs.existsSync(jar));
  if (isStale(cpFile, [pom]) || missingJar()) {
    const mvn = findOnPath('mvn', searchPath);
    if (!mvn) {
      throw new ProvisionError(`Maven (mvn) is required to fetch ${what} from Maven Central: install Maven 3.6+ (e.g. apt-get install maven).`);
    }
    log(`resolving ${what} from Maven Central (the first run downloads its jars into ~/.m2)`);
    try {
      await execFileAsync(
        mvn,
        ['-q', '-B', '-f', pom, 'dependency:build-classpath', `-Dmdep.outputFile=${cpFile}`, '-Dmdep.includeScope=runtime'],
        { maxBuffer: 64 * 1024 * 1024 },
      );
    } catch (err) {
      const out = `${(err as { stdout?: string }).stdout ?? ''}${(err as { stderr?: string }).stderr ?? ''}`;
      throw new ProvisionError(`Maven could not resolve ${what} from Maven Central:\n${out.slice(-2000)}`);
    }
  }
  return fs.readFileSync(cpFile, 'utf8').trim();
}

/** Java ≥ 17 (JAVA_HOME, then PATH), for the launchers under tools/. */
export function javaExecutable(opts: ProvisionOptions): string {
  return findJava(opts).java;
}

/**
 * Java for Neo4j 5.26: 17 or 21 (Neo4j 5.26 supports these). Tries JAVA_HOME, then `java` on PATH.
 */
function findJava({ javaHome, searchPath }: ProvisionOptions): { java: string; javac: string | null; major: number; version: string } {
  const candidates = [javaHome ? path.join(javaHome, 'bin', 'java') : null, findOnPath('java', searchPath)].filter(
    (c): c is string => c !== null && fs.existsSync(c),
  );
  if (candidates.length === 0) {
    throw new ProvisionError('Java 17 or 21 is required to run the embedded Neo4j: install a JDK (e.g. apt-get install openjdk-17-jdk-headless) or set JAVA_HOME, or set NEO4J_URI to use an existing Neo4j.');
  }
  const found: string[] = [];
  for (const java of candidates) {
    const { major, version } = probeJava(java);
    found.push(`${java} (${major ?? 'unknown version'})`);
    if (major !== null && major >= 17) return jdk(java, major, version);
  }
  throw new ProvisionError(`Java 17 or 21 is required to run the embedded Neo4j; found ${found.join(', ')}. Install a JDK 17 or set JAVA_HOME.`);
}

/** The JDK TRIBUTARY_NEO4J_JAVA_HOME names, exactly: a setting made on purpose never falls back to another Java. */
function neo4jOwnJava(home: string): ReturnType<typeof findJava> {
  const java = path.join(home, 'bin', 'java');
  if (!fs.existsSync(java)) throw new ProvisionError(`TRIBUTARY_NEO4J_JAVA_HOME=${home} has no bin/java: point it at a JDK (17 or newer), or unset it.`);
  const { major, version } = probeJava(java);
  if (major === null || major < 17) throw new ProvisionError(`TRIBUTARY_NEO4J_JAVA_HOME=${home} is ${version || 'not a readable Java'}; the embedded Neo4j needs Java 17 or newer.`);
  return jdk(java, major, version);
}

/** A java binary by its real path, with the javac beside it when there is one. */
function jdk(java: string, major: number, version: string): ReturnType<typeof findJava> {
  const real = fs.realpathSync(java);
  const javac = path.join(path.dirname(real), 'javac');
  return { java: real, javac: fs.existsSync(javac) ? javac : null, major, version };
}

/** Major version and first `-version` line of a java binary (major null when unreadable). */
export function probeJava(java: string): { major: number | null; version: string } {
  const res = spawnSync(java, ['-version'], { encoding: 'utf8' });
  const out = `${res.stderr}${res.stdout}`;
  const version = out.split('\n')[0]?.trim() ?? '';
  const m = /version "(\d+)(?:\.(\d+))?/.exec(out);
  if (!m) return { major: null, version };
  return { major: m[1] === '1' ? Number(m[2]) : Number(m[1]), version };
}

function findOnPath(cmd: string, searchPath: string): string | null {
  for (const dir of searchPath.split(path.delimiter)) {
    const p = path.join(dir, cmd);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return null;
}

function isStale(output: string, inputs: string[]): boolean {
  if (!fs.existsSync(output)) return true;
  const t = fs.statSync(output).mtimeMs;
  return inputs.some((i) => fs.statSync(i).mtimeMs > t);
}
