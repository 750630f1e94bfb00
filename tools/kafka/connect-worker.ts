import fs from 'node:fs';
import path from 'node:path';

/**
 * The files and JVM arguments of one distributed-mode Kafka Connect worker (3.9) keeping its
 * configuration, offsets and status in topics `<group>-configs|offsets|status` (replication 1,
 * for one broker), REST on 127.0.0.1:<port>, connectors on its flat classpath (no plugin.path).
 * Shared by the seed stack (tools/seed-stack/connect.ts) and the kafka test tier
 * (test/support/connect-worker.ts); each spawns
 * `java <jvm> org.apache.kafka.connect.cli.ConnectDistributed <workerProps>`.
 */
export interface ConnectWorkerFiles {
  workerProps: string;
  jvm: string[];
  restUrl: string;
}

export function writeConnectWorkerFiles(
  home: string,
  opts: { bootstrap: string; port: number; group: string; classpath: string; heap?: string; debugLoggers?: string[]; extraProps?: string[] },
): ConnectWorkerFiles {
  fs.mkdirSync(home, { recursive: true });
  const workerProps = path.join(home, 'worker.properties');
  fs.writeFileSync(
    workerProps,
    [
      `bootstrap.servers=${opts.bootstrap}`,
      `group.id=${opts.group}`,
      'key.converter=org.apache.kafka.connect.json.JsonConverter',
      'value.converter=org.apache.kafka.connect.json.JsonConverter',
      'key.converter.schemas.enable=false',
      'value.converter.schemas.enable=false',
      `config.storage.topic=${opts.group}-configs`,
      `offset.storage.topic=${opts.group}-offsets`,
      `status.storage.topic=${opts.group}-status`,
      'config.storage.replication.factor=1',
      'offset.storage.replication.factor=1',
      'status.storage.replication.factor=1',
      'offset.storage.partitions=1',
      'status.storage.partitions=1',
      'offset.flush.interval.ms=2000',
      `listeners=http://127.0.0.1:${opts.port}`,
      'rest.advertised.host.name=127.0.0.1',
      `rest.advertised.port=${opts.port}`,
      // The connectors are on the worker's classpath; nothing to scan elsewhere.
      'plugin.discovery=only_scan',
      'scheduled.rebalance.max.delay.ms=0',
      ...(opts.extraProps ?? []),
    ].join('\n') + '\n',
  );
  const log4j = path.join(home, 'log4j.properties');
  fs.writeFileSync(
    log4j,
    [
      'log4j.rootLogger=INFO, stdout',
      'log4j.appender.stdout=org.apache.log4j.ConsoleAppender',
      'log4j.appender.stdout.layout=org.apache.log4j.PatternLayout',
      'log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c:%L)%n',
      'log4j.logger.org.reflections=ERROR',
      'log4j.logger.org.apache.kafka.clients.consumer.ConsumerConfig=WARN',
      'log4j.logger.org.apache.kafka.clients.producer.ProducerConfig=WARN',
      'log4j.logger.org.apache.kafka.clients.admin.AdminClientConfig=WARN',
      ...(opts.debugLoggers ?? []).map((l) => `log4j.logger.${l}=DEBUG`),
    ].join('\n') + '\n',
  );
  const heap = opts.heap ?? '768m';
  return {
    workerProps,
    restUrl: `http://127.0.0.1:${opts.port}`,
    jvm: ['-Xms128m', `-Xmx${heap}`, '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', `-Dlog4j.configuration=file:${log4j}`, '-cp', opts.classpath],
  };
}
