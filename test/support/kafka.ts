import { AssignerProtocol, Kafka, logLevel, type Producer } from 'kafkajs';
import type { KafkaSettings } from '../../src/config';

/** Kafka test helpers: settings for a fresh topic and group, a producer, polling. */
export function kafkaSettings(label: string, overrides: Partial<KafkaSettings> = {}): KafkaSettings {
  const brokers = process.env.TEST_KAFKA_BROKERS ?? process.env.KAFKA_BROKERS;
  if (!brokers) throw new Error('Kafka tests need TEST_KAFKA_BROKERS: run them with `npm test`');
  const id = `${label}-${Math.random().toString(16).slice(2, 10)}`;
  return {
    brokers: brokers.split(','),
    topic: `t.${id}`,
    dlqTopic: `t.${id}.dlq`,
    groupId: `g-${id}`,
    clientId: `test-${id}`,
    sessionTimeoutMs: 6000,
    maxBatch: 100,
    maxBatchBytes: 16 * 2 ** 20,
    stuckMs: 60_000,
    ...overrides,
  };
}

export function kafkaClient(settings: KafkaSettings): Kafka {
  return new Kafka({ clientId: `${settings.clientId}-client`, brokers: settings.brokers, logLevel: logLevel.NOTHING });
}

export async function createTopic(settings: KafkaSettings, partitions: number): Promise<void> {
  const admin = kafkaClient(settings).admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: settings.topic, numPartitions: partitions }, { topic: settings.dlqTopic, numPartitions: 1 }], waitForLeaders: true });
  await admin.disconnect();
}

/** Sends values in order; a key spreads them over partitions (same key, same partition). */
/**
 * Sends in requests of at most 200 messages and about 512 KB of values (a broker refuses a
 * partition's batch over its message.max.bytes, 1 MB by default; wide-schema events reach 200 KB).
 */
export async function produce(producer: Producer, topic: string, messages: { key: string; value: string | Buffer }[]): Promise<void> {
  let chunk: typeof messages = [];
  let bytes = 0;
  for (const m of messages) {
    const size = Buffer.byteLength(m.value);
    if (chunk.length > 0 && (chunk.length === 200 || bytes + size > 512 * 1024)) {
      await producer.send({ topic, messages: chunk });
      chunk = [];
      bytes = 0;
    }
    chunk.push(m);
    bytes += size;
  }
  if (chunk.length > 0) await producer.send({ topic, messages: chunk });
}

export async function waitFor<T>(what: string, probe: () => Promise<T | null | false>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | null | false = null;
  while (Date.now() < deadline) {
    last = await probe();
    if (last) return last;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Committed offsets of a group on a topic, summed over partitions. */
export async function committed(settings: KafkaSettings): Promise<number> {
  const admin = kafkaClient(settings).admin();
  await admin.connect();
  try {
    const [t] = await admin.fetchOffsets({ groupId: settings.groupId, topics: [settings.topic] });
    return (t?.partitions ?? []).reduce((n, p) => n + Math.max(0, Number(p.offset)), 0);
  } finally {
    await admin.disconnect();
  }
}

/** Members of the group that hold at least one partition of the topic. */
export async function assignedMembers(settings: KafkaSettings): Promise<number> {
  const admin = kafkaClient(settings).admin();
  await admin.connect();
  try {
    const { groups } = await admin.describeGroups([settings.groupId]);
    const group = groups[0];
    if (!group || group.state !== 'Stable') return 0;
    return group.members.filter((m) => Object.keys(AssignerProtocol.MemberAssignment.decode(m.memberAssignment)?.assignment ?? {}).length > 0).length;
  } finally {
    await admin.disconnect();
  }
}
