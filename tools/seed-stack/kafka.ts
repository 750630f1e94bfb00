import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { javaExecutable, mavenClasspath } from '../../src/graph/embedded/provision';
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
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  const props = path.join(home, 'server.properties');
  fs.writeFileSync(
    props,
    [
      'process.roles=broker,controller',
      'node.id=1',
      `controller.quorum.voters=1@127.0.0.1:${ports.kafkaController}`,
      `listeners=PLAINTEXT://127.0.0.1:${ports.kafka},LOCALHOST://localhost:${ports.kafkaAlt},CONTROLLER://127.0.0.1:${ports.kafkaController}`,
      `advertised.listeners=PLAINTEXT://127.0.0.1:${ports.kafka},LOCALHOST://localhost:${ports.kafkaAlt}`,
      'inter.broker.listener.name=PLAINTEXT',
      'controller.listener.names=CONTROLLER',
      'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,LOCALHOST:PLAINTEXT,CONTROLLER:PLAINTEXT',
      `log.dirs=${path.join(home, 'data')}`,
      'num.partitions=1',
      'offsets.topic.replication.factor=1',
      'offsets.topic.num.partitions=4',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'group.initial.rebalance.delay.ms=0',
      'auto.create.topics.enable=true',
    ].join('\n') + '\n',
  );
  const jvm = ['-Xms256m', '-Xmx512m', '-Dlog4j.configuration=file:/dev/null', '-cp', classpath];
  const format = spawnSync(java, [...jvm, 'kafka.tools.StorageTool', 'format', '-t', randomUUID().replace(/-/g, '').slice(0, 22), '-c', props], { encoding: 'utf8' });
  if (format.status !== 0) throw new Error(`formatting Kafka storage failed: ${format.stderr}`);
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
