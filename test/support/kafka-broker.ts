import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort } from '../../src/graph/embedded/neo4j';
import { javaExecutable, mavenClasspath } from '../../src/graph/embedded/provision';
import { newClusterId, prepareKraft } from '../../tools/kafka/kraft';
import { repoRoot } from './corpus';

/**
 * A real single-node Kafka (3.9, KRaft: broker and controller in one JVM) from Maven Central jars
 * (tools/kafka/pom.xml), for tests and local runs: formats a fresh log directory, starts
 * `kafka.Kafka` on free loopback ports, resolves once the broker port accepts connections.
 */
export interface KafkaBroker {
  bootstrap: string;
  /** The broker JVM's pid (a cluster's: its first node's), for CPU readings. */
  pid: number;
  stop(): Promise<void>;
}

export async function startKafka(home: string, searchPath: string, javaHome?: string): Promise<KafkaBroker> {
  const classpath = await mavenClasspath(path.join(repoRoot, 'tools', 'kafka'), searchPath, 'Apache Kafka 3.9', (m) => process.stdout.write(`${m}\n`));
  const java = javaExecutable({ searchPath, javaHome });
  const [port, controller] = [await freePort(), await freePort()];
  const { props, jvm } = prepareKraft(home, classpath, java, { listeners: [`PLAINTEXT://127.0.0.1:${port}`], controllerPort: controller, numPartitions: 4 });
  const node = await startNode(java, jvm, props, home, port);
  return { bootstrap: `127.0.0.1:${port}`, pid: node.pid, stop: node.stop };
}

/** A KRaft cluster of `size` nodes on this machine (every node broker and controller). */
export interface KafkaCluster extends KafkaBroker {
  /** The nodes, by node id - 1: each one's broker address and a SIGKILL. */
  nodes: { bootstrap: string; kill(): void }[];
}

/**
 * Starts a cluster (the cluster tier): topics replicated `size` times, `min.insync.replicas`
 * size - 1, so one node may die with every acknowledged (acks=all) message kept.
 */
export async function startKafkaCluster(home: string, searchPath: string, javaHome: string | undefined, size = 3): Promise<KafkaCluster> {
  const classpath = await mavenClasspath(path.join(repoRoot, 'tools', 'kafka'), searchPath, 'Apache Kafka 3.9', (m) => process.stdout.write(`${m}\n`));
  const java = javaExecutable({ searchPath, javaHome });
  const ports: number[] = [];
  const controllerPorts: number[] = [];
  for (let i = 0; i < size; i++) ports.push(await freePort()), controllerPorts.push(await freePort());
  const clusterId = newClusterId();
  const prepared = ports.map((port, i) => {
    const nodeHome = path.join(home, `node-${i + 1}`);
    return { nodeHome, port, ...prepareKraft(nodeHome, classpath, java, { listeners: [`PLAINTEXT://127.0.0.1:${port}`], controllerPort: controllerPorts[i]!, numPartitions: 4, cluster: { nodeId: i + 1, controllerPorts, clusterId, replication: size } }) };
  });
  // Together: a node's broker port opens only once the controller quorum has a leader. One node
  // failing to start stops the others (no JVM outlives a failed start).
  const started = await Promise.allSettled(prepared.map((p) => startNode(java, p.jvm, p.props, p.nodeHome, p.port)));
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    for (const r of started) if (r.status === 'fulfilled') r.value.kill();
    throw failed.reason;
  }
  const nodes = started.map((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof startNode>>>).value);
  return {
    bootstrap: ports.map((p) => `127.0.0.1:${p}`).join(','),
    pid: nodes[0]!.pid,
    nodes: nodes.map((n, i) => ({ bootstrap: `127.0.0.1:${ports[i]}`, kill: n.kill })),
    stop: async () => {
      await Promise.all(nodes.map((n) => n.stop()));
    },
  };
}

async function startNode(java: string, jvm: string[], props: string, home: string, port: number): Promise<{ pid: number; stop(): Promise<void>; kill(): void }> {
  const log = fs.openSync(path.join(home, 'kafka.log'), 'a');
  const child: ChildProcess = spawn(java, [...jvm, 'kafka.Kafka', props], { stdio: ['ignore', log, log] });
  fs.closeSync(log);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const deadline = Date.now() + 90_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      const tail = fs.readFileSync(path.join(home, 'kafka.log'), 'utf8').split('\n').filter((l) => / (ERROR|FATAL) /.test(l)).slice(-3).join('\n');
      throw new Error(`Kafka did not start; see ${path.join(home, 'kafka.log')}${tail ? `:\n${tail}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    pid: child.pid!,
    kill: () => void child.kill('SIGKILL'),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timeout = new Promise((r) => setTimeout(r, 30_000).unref());
      await Promise.race([exited, timeout]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
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
