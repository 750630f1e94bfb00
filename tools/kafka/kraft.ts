import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A single-node KRaft Kafka (broker and controller in one JVM) for the project's own runs: the
 * test broker (test/support/kafka-broker.ts) and the seed stack's (tools/seed-stack/kafka.ts). Writes
 * `<home>/server.properties` (log in `<home>/data`, replication factor 1, auto-created topics) and
 * formats the storage; returns the properties file and the JVM arguments to start `kafka.Kafka`.
 * With `cluster`, one node of a KRaft cluster on this machine (the cluster tier, test/cluster):
 * every node a broker and a controller voter, topics replicated `replication` times with
 * `min.insync.replicas` one less.
 */
export interface KraftListeners {
  /** Broker listeners, `NAME://host:port`; the first is the inter-broker listener. */
  listeners: string[];
  controllerPort: number;
  numPartitions: number;
  /** One node of a cluster (every node broker and controller) instead of a single node. */
  cluster?: KraftClusterNode;
}

export interface KraftClusterNode {
  nodeId: number;
  /** Every node's controller port, by node id 1..n. */
  controllerPorts: number[];
  /** The id every node's storage is formatted with (one per cluster). */
  clusterId: string;
  /** Replication factor of every topic, internal ones too; `min.insync.replicas` is one less (at least 1). */
  replication: number;
}

/** A new KRaft cluster id (22 characters of URL-safe base64; it may begin with "-", so it is passed as --cluster-id=<id>). */
export const newClusterId = (): string => Buffer.from(randomUUID().replace(/-/g, ''), 'hex').toString('base64url');

export function prepareKraft(home: string, classpath: string, java: string, l: KraftListeners): { props: string; jvm: string[] } {
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  const names = l.listeners.map((x) => x.slice(0, x.indexOf('://')));
  const props = path.join(home, 'server.properties');
  const c = l.cluster;
  const rf = c?.replication ?? 1;
  const isr = Math.max(1, rf - 1);
  fs.writeFileSync(
    props,
    [
      'process.roles=broker,controller',
      `node.id=${c?.nodeId ?? 1}`,
      `controller.quorum.voters=${c ? c.controllerPorts.map((p, i) => `${i + 1}@127.0.0.1:${p}`).join(',') : `1@127.0.0.1:${l.controllerPort}`}`,
      `listeners=${[...l.listeners, `CONTROLLER://127.0.0.1:${l.controllerPort}`].join(',')}`,
      `advertised.listeners=${l.listeners.join(',')}`,
      `inter.broker.listener.name=${names[0]}`,
      'controller.listener.names=CONTROLLER',
      `listener.security.protocol.map=${[...names, 'CONTROLLER'].map((n) => `${n}:PLAINTEXT`).join(',')}`,
      `log.dirs=${path.join(home, 'data')}`,
      `num.partitions=${l.numPartitions}`,
      `offsets.topic.replication.factor=${rf}`,
      'offsets.topic.num.partitions=4',
      `transaction.state.log.replication.factor=${rf}`,
      `transaction.state.log.min.isr=${isr}`,
      `default.replication.factor=${rf}`,
      `min.insync.replicas=${isr}`,
      'group.initial.rebalance.delay.ms=0',
      'auto.create.topics.enable=true',
    ].join('\n') + '\n',
  );
  // Warnings and errors (why a node stopped) to the console, which the callers send to <home>/kafka.log.
  const log4j = path.join(home, 'log4j.properties');
  fs.writeFileSync(
    log4j,
    ['log4j.rootLogger=WARN, console', 'log4j.appender.console=org.apache.log4j.ConsoleAppender', 'log4j.appender.console.layout=org.apache.log4j.PatternLayout', 'log4j.appender.console.layout.ConversionPattern=[%d] %p %m (%c)%n'].join('\n') + '\n',
  );
  const jvm = ['-Xms256m', '-Xmx512m', `-Dlog4j.configuration=file:${log4j}`, '-cp', classpath];
  const format = spawnSync(java, [...jvm, 'kafka.tools.StorageTool', 'format', `--cluster-id=${c?.clusterId ?? newClusterId()}`, '-c', props], { encoding: 'utf8' });
  if (format.status !== 0) throw new Error(`formatting Kafka storage failed: ${format.stderr}`);
  return { props, jvm };
}
