import path from 'node:path';
import { javaExecutable, mavenClasspath } from '../../src/graph/embedded/provision';
import { prepareKraft } from '../kafka/kraft';
import { bootstrap, ports, repoRoot, workDir, type Log } from './contract';
import { accepts, requireFree, spawnLogged, waitUntil, type Child } from './proc';

/**
 * The seed stack's Kafka: the project's Kafka 3.9 (tools/kafka/pom.xml, KRaft, broker and
 * controller in one JVM) with two listener names on the same broker, PLAINTEXT on 127.0.0.1 and
 * LOCALHOST on localhost, so that clients given different bootstrap strings (contract.bootstrap)
 * reach one cluster under two names. A fresh log directory on every start.
 */
export interface SeedKafka {
  /** Both listeners, PLAINTEXT first (what Kafka Connect and Tributary's worker are given). */
  bootstrap: string;
  stop(): Promise<void>;
}

export async function startSeedKafka(log: Log): Promise<SeedKafka> {
  const home = path.join(workDir(), 'kafka');
  await requireFree(ports.kafka, 'Kafka PLAINTEXT listener', 'SEED_KAFKA_PORT');
  await requireFree(ports.kafkaAlt, 'Kafka LOCALHOST listener', 'SEED_KAFKA_ALT_PORT');
  await requireFree(ports.kafkaController, 'Kafka controller', 'SEED_KAFKA_CONTROLLER_PORT');
  const classpath = await mavenClasspath(path.join(repoRoot, 'tools', 'kafka'), process.env.PATH ?? '', 'Apache Kafka 3.9', log);
  const java = javaExecutable({ searchPath: process.env.PATH ?? '', javaHome: process.env.JAVA_HOME });
  const { props, jvm } = prepareKraft(home, classpath, java, {
    listeners: [`PLAINTEXT://127.0.0.1:${ports.kafka}`, `LOCALHOST://localhost:${ports.kafkaAlt}`],
    controllerPort: ports.kafkaController,
    numPartitions: 1,
  });
  const child: Child = spawnLogged(java, [...jvm, 'kafka.Kafka', props], { logFile: path.join(home, 'kafka.log') });
  try {
    await waitUntil(`Kafka on ${bootstrap.connect} (log: ${child.logFile})`, async () => {
      if (child.process.exitCode !== null) throw new Error(`Kafka exited; see ${child.logFile}`);
      return (await accepts(ports.kafka)) && (await accepts(ports.kafkaAlt));
    }, 90_000, 250);
  } catch (err) {
    await child.stop(0);
    throw err;
  }
  log(`Kafka (KRaft) listening as ${bootstrap.connect}`);
  return { bootstrap: bootstrap.connect, stop: () => child.stop() };
}
