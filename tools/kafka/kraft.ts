import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A single-node KRaft Kafka (broker and controller in one JVM) for the project's own runs: the
 * test broker (test/support/kafka-broker.ts) and the seed stack's (tools/seed-stack/kafka.ts). Writes
 * `<home>/server.properties` (log in `<home>/data`, replication factor 1, auto-created topics) and
 * formats the storage; returns the properties file and the JVM arguments to start `kafka.Kafka`.
 */
export interface KraftListeners {
  /** Broker listeners, `NAME://host:port`; the first is the inter-broker listener. */
  listeners: string[];
  controllerPort: number;
  numPartitions: number;
}

export function prepareKraft(home: string, classpath: string, java: string, l: KraftListeners): { props: string; jvm: string[] } {
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  const names = l.listeners.map((x) => x.slice(0, x.indexOf('://')));
  const props = path.join(home, 'server.properties');
  fs.writeFileSync(
    props,
    [
      'process.roles=broker,controller',
      'node.id=1',
      `controller.quorum.voters=1@127.0.0.1:${l.controllerPort}`,
      `listeners=${[...l.listeners, `CONTROLLER://127.0.0.1:${l.controllerPort}`].join(',')}`,
      `advertised.listeners=${l.listeners.join(',')}`,
      `inter.broker.listener.name=${names[0]}`,
      'controller.listener.names=CONTROLLER',
      `listener.security.protocol.map=${[...names, 'CONTROLLER'].map((n) => `${n}:PLAINTEXT`).join(',')}`,
      `log.dirs=${path.join(home, 'data')}`,
      `num.partitions=${l.numPartitions}`,
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
  return { props, jvm };
}
