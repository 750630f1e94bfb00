import { Partitioners, type Admin, type Kafka, type Message, type PartitionMetadata, type Producer } from 'kafkajs';
import type { Logger } from '../log';

/** How long a topic's partition list is trusted before it is read again. */
const METADATA_MS = 10_000;

/**
 * Produces one request per partition. kafkajs 2.2.4 loses messages when a partition's leader moves
 * during a send that spans several leaders: its retry re-sends only to brokers that have not
 * answered yet, so a partition whose new leader is a broker that already answered for other
 * partitions is never re-sent, and the send still resolves as a success
 * (node_modules/kafkajs/src/producer/sendMessages.js, `responsePerBroker`). Reproduced here with
 * three brokers and one SIGKILLed: 4 of 600 acknowledged messages were absent from the topic.
 * A send per partition has one leader at a time, so a retry always goes to the current one.
 * Partitions are chosen by kafkajs' default (Java-compatible) partitioner, as a plain send would.
 */
export class PartitionedSender {
  private readonly partitioner = Partitioners.DefaultPartitioner();
  private readonly metadata = new Map<string, { at: number; partitions: PartitionMetadata[] }>();
  private admin: Admin | null = null;

  constructor(
    private readonly kafka: Kafka,
    private readonly producer: Producer,
  ) {}

  /** Every message's partition and offset, in input order, once the brokers acknowledged all (`acks`). */
  async send(topic: string, messages: Message[], options: { acks: number; timeout: number }): Promise<{ partition: number; offset: number }[]> {
    const partitionMetadata = await this.partitionsOf(topic);
    const chosen = messages.map((message) => this.partitioner({ topic, partitionMetadata, message }));
    const groups = new Map<number, number[]>();
    chosen.forEach((p, i) => {
      const group = groups.get(p);
      if (group) group.push(i);
      else groups.set(p, [i]);
    });
    const out: { partition: number; offset: number }[] = new Array(messages.length);
    await Promise.all(
      [...groups].map(async ([partition, indexes]) => {
        const [meta] = await this.producer.send({ topic, acks: options.acks, timeout: options.timeout, messages: indexes.map((i) => ({ ...messages[i]!, partition })) });
        const base = Number(meta!.baseOffset);
        indexes.forEach((i, k) => (out[i] = { partition, offset: base + k }));
      }),
    );
    return out;
  }

  async close(): Promise<void> {
    await this.admin?.disconnect().catch(() => undefined);
    this.admin = null;
  }

  private async partitionsOf(topic: string): Promise<PartitionMetadata[]> {
    const known = this.metadata.get(topic);
    if (known && Date.now() - known.at < METADATA_MS) return known.partitions;
    try {
      if (!this.admin) {
        const admin = this.kafka.admin();
        await admin.connect();
        this.admin = admin;
      }
      const { topics } = await this.admin.fetchTopicMetadata({ topics: [topic] });
      const partitions = topics[0]?.partitions ?? [];
      if (partitions.length === 0) throw new Error(`topic ${topic} has no partitions`);
      this.metadata.set(topic, { at: Date.now(), partitions });
      return partitions;
    } catch (err) {
      // The partition count rarely changes: an older list serves while the brokers do not answer.
      if (known) return known.partitions;
      throw err;
    }
  }
}

/**
 * Creates the topic when it does not exist (the broker's defaults for partitions and replication;
 * a refused creation is left to the broker's auto-creation) and waits for its leaders.
 */
export async function ensureTopic(kafka: Kafka, topic: string, log: Logger): Promise<void> {
  const admin = kafka.admin();
  try {
    await admin.connect();
    // Asked first: creating a topic that exists makes kafkajs log the broker's refusal as a warning.
    if ((await admin.listTopics()).includes(topic)) return;
    const created = await admin.createTopics({ topics: [{ topic }], waitForLeaders: true });
    if (created) log.info('Kafka topic created', { topic });
  } catch (err) {
    log.warn('could not create the Kafka topic (it may exist, or creation is not allowed); going on', { topic, error: err });
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
