import fs from 'node:fs';
import path from 'node:path';
import type { ClientPlan } from '../marquez-clients/clients';
import { sampleEvents } from '../marquez-clients/sample';

/**
 * The fixed event set of the Marquez contract capture (capture.ts) and of its replay
 * (test/api/marquez-contract.test.ts), in ingestion order. Deterministic: files read as they are,
 * the client sample with a fixed `now` and fixed run ids.
 */
export interface ContractEvent {
  /** Where it comes from: a corpus path (`corpus:`), a repo path, or `sample:<namespace>`. */
  file: string;
  index: number;
  event: Record<string, unknown>;
}

/** The client sample lives in its own namespace (its names would mix with the seed's public.orders in food_delivery). */
export const SAMPLE_NAMESPACE = 'clients_sample';
export const SAMPLE_NOW = Date.parse('2026-12-02T12:00:00.000Z');
export const SAMPLE_RUN_IDS = ['0193e0a0-0a00-7000-8000-00000000a001', '0193e0a0-0b00-7000-8000-00000000a002', '0193e0a0-0c00-7000-8000-00000000a003'] as const;

export function sample(): { events: Record<string, unknown>[]; plan: ClientPlan } {
  return sampleEvents(SAMPLE_NAMESPACE, SAMPLE_NOW, SAMPLE_RUN_IDS);
}

/** Repo-relative NDJSON captures, in ingestion order (after the corpus's Marquez seed). */
export const CAPTURE_FILES = [
  'test/fixtures/seed-stack/debezium.ndjson',
  'test/fixtures/seed-stack/flink.ndjson',
  'test/fixtures/seed-stack/spark.ndjson',
  'test/fixtures/openlineage-spark-1.53-orders-by-country.ndjson',
];
export const SEED_FILE = 'marquez/docker__metadata.json';

export function contractEvents(repo: string): ContractEvent[] {
  const out: ContractEvent[] = [];
  const seed = JSON.parse(fs.readFileSync(path.resolve(repo, '..', 'shared', 'openlineage-corpus', SEED_FILE), 'utf8')) as Record<string, unknown>[];
  seed.forEach((event, index) => out.push({ file: `corpus:${SEED_FILE}`, index, event }));
  for (const file of CAPTURE_FILES) {
    const lines = fs.readFileSync(path.join(repo, file), 'utf8').split('\n').filter((l) => l.trim());
    lines.forEach((l, index) => out.push({ file, index, event: JSON.parse(l) as Record<string, unknown> }));
  }
  sample().events.forEach((event, index) => out.push({ file: `sample:${SAMPLE_NAMESPACE}`, index, event }));
  return out;
}
