import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort } from '../../src/graph/embedded/neo4j';
import { javaExecutable, mavenClasspath } from '../../src/graph/embedded/provision';
import { prepareKraft } from '../../tools/kafka/kraft';
import { repoRoot } from './corpus';

/**
 * A real single-node Kafka (3.9, KRaft: broker and controller in one JVM) from Maven Central jars
 * (tools/kafka/pom.xml), for tests and local runs: formats a fresh log directory, starts
 * `kafka.Kafka` on free loopback ports, resolves once the broker port accepts connections.
 */
export interface KafkaBroker {
  bootstrap: string;
  stop(): Promise<void>;
}

export async function startKafka(home: string, searchPath: string, javaHome?: string): Promise<KafkaBroker> {
  const classpath = await mavenClasspath(path.join(repoRoot, 'tools', 'kafka'), searchPath, 'Apache Kafka 3.9', (m) => process.stdout.write(`${m}\n`));
  const java = javaExecutable({ searchPath, javaHome });
  const [port, controller] = [await freePort(), await freePort()];
  const { props, jvm } = prepareKraft(home, classpath, java, { listeners: [`PLAINTEXT://127.0.0.1:${port}`], controllerPort: controller, numPartitions: 4 });
  const log = fs.openSync(path.join(home, 'kafka.log'), 'a');
  const child: ChildProcess = spawn(java, [...jvm, 'kafka.Kafka', props], { stdio: ['ignore', log, log] });
  fs.closeSync(log);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const deadline = Date.now() + 90_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Kafka did not start; see ${path.join(home, 'kafka.log')}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    bootstrap: `127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null) return;
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
