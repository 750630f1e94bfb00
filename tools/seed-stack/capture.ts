import fs from 'node:fs';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import type { Log } from './contract';

/**
 * What the seed stack captured, turned into test/fixtures/seed-stack/: one NDJSON file per
 * producer (each line one event exactly as the producer sent it: the recorder's request bodies for
 * HTTP transports, the message values of the OpenLineage topic for the Kafka transport) and
 * manifest.json saying which producer, version, transport and command made each file, and when.
 */

export interface ProducerCapture {
  /** File name under the fixtures folder, e.g. debezium.ndjson. */
  file: string;
  /** The integration and its version, as run (e.g. "Debezium 3.5.0.Final OpenLineage integration"). */
  integration: string;
  transport: 'http' | 'kafka';
  lines: string[];
}

/** Every message value of `topic` from the beginning, one line each (bounded by `max`). */
export async function readTopic(bootstrap: string, topic: string, max = 100_000): Promise<string[]> {
  const kafka = new Kafka({ clientId: 'seed-capture', brokers: bootstrap.split(','), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const offsets = await admin.fetchTopicOffsets(topic).finally(() => admin.disconnect());
  const end = new Map(offsets.map((o) => [o.partition, Number(o.high)]));
  const total = [...end.values()].reduce((a, b) => a + b, 0);
  const lines: string[] = [];
  if (total === 0) return lines;
  const consumer = kafka.consumer({ groupId: `seed-capture-${process.pid}-${Date.now()}` });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`reading ${topic}: ${lines.length} of ${total} messages after 60 s`)), 60_000);
    void consumer.run({
      eachMessage: async ({ message }) => {
        if (message.value) lines.push(message.value.toString('utf8').replace(/\r?\n/g, ' ').trim());
        if (lines.length >= Math.min(total, max)) {
          clearTimeout(timer);
          resolve();
        }
      },
    });
  }).finally(() => consumer.disconnect());
  return lines;
}

/** Lines of a recorder file (empty when the producer sent nothing). */
export const recorded = (file: string): string[] => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

export interface Manifest {
  capturedAt: string;
  command: string;
  durationS: number;
  /** The work folder of the run: the warehouse paths in the events start with it. */
  workDir: string;
  pipeline: string[];
  versions: Record<string, string>;
  producers: {
    file: string;
    integration: string;
    transport: string;
    /** The distinct `producer` URIs of the file's events. */
    producers: string[];
    events: number;
    eventTypes: Record<string, number>;
  }[];
  badValue: Record<string, unknown>;
  notes: string[];
}

/** Writes every capture and the manifest into `dir` (files of earlier runs replaced). */
export function writeFixtures(dir: string, captures: ProducerCapture[], manifest: Omit<Manifest, 'producers'>, log: Log): Manifest {
  fs.mkdirSync(dir, { recursive: true });
  const producers = captures.map((c) => {
    fs.writeFileSync(path.join(dir, c.file), c.lines.map((l) => `${l}\n`).join(''));
    const events = c.lines.flatMap((l) => {
      const v = JSON.parse(l) as unknown;
      return (Array.isArray(v) ? v : [v]) as { producer?: string; eventType?: string }[];
    });
    const eventTypes: Record<string, number> = {};
    for (const e of events) eventTypes[e.eventType ?? '(none)'] = (eventTypes[e.eventType ?? '(none)'] ?? 0) + 1;
    const uris = [...new Set(events.map((e) => e.producer ?? '(none)'))].sort();
    log(`${c.file}: ${events.length} events from ${uris.join(', ')} (${Object.entries(eventTypes).map(([t, n]) => `${n} ${t}`).join(', ')})`);
    return { file: c.file, integration: c.integration, transport: c.transport, producers: uris, events: events.length, eventTypes };
  });
  const full: Manifest = { ...manifest, producers };
  fs.writeFileSync(path.join(dir, 'manifest.json'), `${JSON.stringify(full, null, 2)}\n`);
  return full;
}
