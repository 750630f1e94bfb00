import fs from 'node:fs';
import path from 'node:path';
import { badValue, names, ports, warehouse, workDir } from './contract';
import { startRecorder } from './recorder';
import { createDevInput, ensureSparkEnv, runSpark, sparkHome } from './spark';

/**
 * Dev runner for the Spark part alone, from a clean state every time: removes the Iceberg warehouse
 * (dev only: in the pipeline Flink owns it), Spark's folder and the previous capture; creates
 * lake.shop.orders_by_country with Spark as the Flink job's stand-in; runs the Spark jobs against a
 * recorder that answers 201 itself (no Tributary) and writes <work>/capture/spark.ndjson.
 *
 *   npx tsc -p tsconfig.json && SEED_WORK_DIR=/tmp/seed SEED_RECORDER_PORT=45001 node dist/tools/seed-stack/spark-dev.js
 */
async function main(): Promise<void> {
  const started = Date.now();
  const log = (msg: string) => console.log(`[spark ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${msg}`);
  const captureDir = path.join(workDir(), 'capture');
  fs.rmSync(warehouse(), { recursive: true, force: true });
  fs.rmSync(sparkHome(), { recursive: true, force: true });
  fs.rmSync(path.join(captureDir, 'spark.ndjson'), { force: true });
  const recorder = await startRecorder({ port: ports.recorder, outDir: captureDir, log });
  try {
    const env = await ensureSparkEnv(log);
    await createDevInput(env, log);
    const { summary } = await runSpark({ openlineageUrl: recorder.url('spark'), log, env });
    // The OpenLineage HTTP transport posts synchronously before each application ends; nothing is in flight.
    log(`recorded requests by producer: ${JSON.stringify(recorder.counts())}`);
    log(`${names.icebergCatalog}.${names.sparkSummaryTable}:`);
    for (const row of summary) console.log(`  ${JSON.stringify(row)}`);
    const bad = summary.some((r) => typeof (r as { revenue?: unknown }).revenue === 'number' && (r as { revenue: number }).revenue >= badValue.amount);
    if (!bad) throw new Error(`the bad value ${badValue.amount} is not visible in the summary`);
    log(`the bad value ${badValue.amount} is visible in the summary; capture: ${path.join(captureDir, 'spark.ndjson')}`);
  } finally {
    await recorder.stop();
  }
}

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
