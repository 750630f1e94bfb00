import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mavenClasspath } from '../../src/graph/embedded/provision';
import { badValue, jobNamespaces, names, seedSource, warehouse, workDir, type Log } from './contract';
import { spawnLogged } from './proc';

/**
 * The seed stack's Spark batch (tools/seed-stack/spark/seed_spark.py): pyspark 3.5.5 from PyPI in a
 * venv, the Spark-side jars (openlineage-spark 1.53.0, Iceberg 1.10.0's Spark runtime, Delta 3.3.0)
 * from Maven Central through tools/seed-stack/spark/pom.xml, given to Spark as spark.jars. Each job is
 * its own Spark application (its own process), as spark-submit runs them in production:
 * revenue_summary (Iceberg → Iceberg), region_targets (Delta MERGE from Iceberg), region_performance
 * (Delta CREATE OR REPLACE TABLE AS SELECT, then a DataFrame saveAsTable overwrite), revenue_audit
 * (Iceberg metadata columns _file and _pos read from the summary, then an Iceberg UPDATE).
 *
 * pyspark is pinned to 3.5.5: Delta 3.3.0 fails on pyspark ≥ 3.5.6 (delta-io/delta#4671). Delta's
 * jars come from Maven Central with the others, so the delta-spark PyPI package is not needed (the
 * jobs use SQL only).
 */

export const pysparkVersion = '3.5.5';
const sparkDir = path.join(seedSource, 'spark');
const script = path.join(sparkDir, 'seed_spark.py');
/** Printed by seed_spark.py before the summary's rows as one JSON line. */
const summaryMarker = 'SEED_SPARK_SUMMARY ';

export interface SparkEnv {
  python: string;
  /** The jars, comma-separated as spark.jars takes them. */
  jars: string;
}

/** The venv: SEED_SPARK_VENV, else ~/.cache/tributary/seed-stack/venv (shared by work folders and worktrees). */
export const sparkVenv = (): string => process.env.SEED_SPARK_VENV ?? path.join(os.homedir(), '.cache', 'tributary', 'seed-stack', 'venv');

/** Creates the venv with pyspark 3.5.5 once (reused when it has it) and resolves the jars. */
export async function ensureSparkEnv(log: Log): Promise<SparkEnv> {
  const venv = sparkVenv();
  const python = path.join(venv, 'bin', 'python');
  if (installedPyspark(python) !== pysparkVersion) {
    if (!fs.existsSync(python)) {
      log(`creating a Python venv in ${venv}`);
      run('python3', ['-m', 'venv', venv], 'creating the venv (python3 -m venv; on Debian apt-get install python3-venv)');
    }
    log(`installing pyspark==${pysparkVersion} from PyPI into ${venv} (about 320 MB, once)`);
    run(python, ['-m', 'pip', 'install', '--disable-pip-version-check', '-q', `pyspark==${pysparkVersion}`], `pip install pyspark==${pysparkVersion}`);
    const got = installedPyspark(python);
    if (got !== pysparkVersion) throw new Error(`pyspark ${pysparkVersion} expected in ${venv}, found ${got ?? 'none'}`);
  }
  const classpath = await mavenClasspath(sparkDir, process.env.PATH ?? '', 'openlineage-spark 1.53.0, Iceberg 1.10.0 and Delta 3.3.0 for Spark 3.5', log);
  return { python, jars: classpath.split(path.delimiter).join(',') };
}

function installedPyspark(python: string): string | null {
  if (!fs.existsSync(python)) return null;
  const res = spawnSync(python, ['-c', 'import importlib.metadata as m; print(m.version("pyspark"))'], { encoding: 'utf8' });
  return res.status === 0 ? res.stdout.trim() : null;
}

function run(cmd: string, args: string[], what: string): void {
  const res = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (res.status !== 0) throw new Error(`${what} failed (${res.error?.message ?? `exit ${res.status}`}):\n${`${res.stdout}${res.stderr}`.slice(-2000)}`);
}

/** Where the Spark side keeps its own state under the work folder (Delta tables, Derby metastore, logs). */
export const sparkHome = (): string => path.join(workDir(), 'spark');

/**
 * openlineage-spark's HTTP transport takes a URL without a path plus an endpoint: given
 * http://host:port/spark and endpoint api/v1/lineage it posted to http://host:port/api/v1/lineage
 * (the path dropped; the recorder answered 404). So the producer's path goes into the endpoint:
 * url http://host:port, endpoint /spark/api/v1/lineage.
 */
function transport(openlineageUrl: string): Record<string, string> {
  if (!openlineageUrl) return {};
  const url = new URL(openlineageUrl);
  return { SEED_SPARK_OPENLINEAGE_URL: url.origin, SEED_SPARK_OPENLINEAGE_ENDPOINT: `${url.pathname.replace(/\/+$/, '')}/api/v1/lineage` };
}

/** One step of seed_spark.py as its own process; its output (stdout and stderr) goes to spark/<step>.log. */
async function step(env: SparkEnv, name: string, openlineageUrl: string, log: Log): Promise<string> {
  const home = sparkHome();
  const logFile = path.join(home, `${name}.log`);
  fs.mkdirSync(home, { recursive: true });
  fs.rmSync(logFile, { force: true });
  const started = Date.now();
  const child = spawnLogged(env.python, [script, name], {
    logFile,
    cwd: home,
    env: {
      ...process.env,
      SPARK_LOCAL_IP: '127.0.0.1',
      PYSPARK_PYTHON: env.python,
      SEED_SPARK_JARS: env.jars,
      SEED_SPARK_ICEBERG_WAREHOUSE: warehouse(),
      SEED_SPARK_DELTA_WAREHOUSE: path.join(home, 'warehouse'),
      SEED_SPARK_METASTORE: path.join(home, 'metastore_db'),
      SEED_SPARK_INPUT_TABLE: `${names.icebergCatalog}.${names.icebergTable}`,
      SEED_SPARK_BAD_VALUE: String(badValue.amount),
      ...transport(openlineageUrl),
      SEED_SPARK_JOB_NAMESPACE: jobNamespaces.spark,
    },
  });
  const code = await child.exited;
  const output = fs.readFileSync(logFile, 'utf8');
  if (code !== 0) throw new Error(`Spark step ${name} exited with ${code}; see ${logFile}:\n${output.slice(-3000)}`);
  log(`Spark ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return output;
}

/**
 * The dev stand-in for the Flink job: creates lake.shop.orders_by_country with Spark (FR's revenue
 * holds the bad value) unless the table exists. Runs without the OpenLineage listener: in the real
 * pipeline Flink writes that table and reports it.
 */
export async function createDevInput(env: SparkEnv, log: Log): Promise<void> {
  await step(env, 'dev_input', '', log);
}

/** The Spark jobs, in order, each reporting to `openlineageUrl` (…/<producer>; the transport appends api/v1/lineage). */
export async function runSpark(opts: { openlineageUrl: string; log: Log; env?: SparkEnv }): Promise<{ summary: unknown[] }> {
  const env = opts.env ?? (await ensureSparkEnv(opts.log));
  const out = await step(env, 'revenue_summary', opts.openlineageUrl, opts.log);
  const line = out.split('\n').find((l) => l.startsWith(summaryMarker));
  if (!line) throw new Error(`the revenue_summary step printed no summary (${summaryMarker.trim()}); see ${path.join(sparkHome(), 'revenue_summary.log')}`);
  const summary = JSON.parse(line.slice(summaryMarker.length)) as unknown[];
  await step(env, 'region_targets', opts.openlineageUrl, opts.log);
  await step(env, 'region_performance', opts.openlineageUrl, opts.log);
  await step(env, 'revenue_audit', opts.openlineageUrl, opts.log);
  return { summary };
}
