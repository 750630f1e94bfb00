import path from 'node:path';
import { ConfigError } from './config';
import type { KafkaConnectSettings } from './config-types';

/**
 * The Kafka Connect collector's settings, from the variables config.ts has already parsed (it
 * stays the only reader of `process.env`): each cluster with its name, REST URL and bootstrap
 * servers, or a ConfigError naming the variable and what is wrong with it.
 */
export interface KafkaConnectEnv {
  TRIBUTARY_KAFKA_CONNECT_URLS?: string;
  TRIBUTARY_KAFKA_CONNECT_KAFKA?: string;
  KAFKA_BROKERS?: string;
  TRIBUTARY_KAFKA_CONNECT_CREDENTIALS?: string;
  TRIBUTARY_KAFKA_CONNECT_INTERVAL_S: number;
  TRIBUTARY_KAFKA_CONNECT_TIMEOUT_MS: number;
  TRIBUTARY_KAFKA_CONNECT_MAX_BYTES: number;
}

const CLUSTER_NAME = /^[A-Za-z0-9._:-]{1,100}$/;

/** TRIBUTARY_KAFKA_CONNECT_*: each cluster with its name, REST URL and bootstrap servers. */
export function kafkaConnectSettings(e: KafkaConnectEnv): KafkaConnectSettings | null {
  if (!e.TRIBUTARY_KAFKA_CONNECT_URLS) return null;
  const bad = (why: string) => new ConfigError(`invalid configuration: TRIBUTARY_KAFKA_CONNECT_URLS: ${why}`);
  const clusters = e.TRIBUTARY_KAFKA_CONNECT_URLS.split(',')
    .map((x) => x.trim())
    .filter(Boolean)
    .map((entry) => {
      const eq = entry.indexOf('=');
      const named = eq > 0 && !entry.slice(0, eq).includes('/');
      const text = named ? entry.slice(eq + 1).trim() : entry;
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        throw bad(`"${text}" is not a URL (expected http://host:8083 or name=http://host:8083)`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad(`"${text}" is not http:// or https://`);
      if (url.username || url.password) throw bad(`"${url.host}": credentials belong in TRIBUTARY_KAFKA_CONNECT_CREDENTIALS, not in the URL`);
      const name = named ? entry.slice(0, eq).trim() : url.host;
      if (!CLUSTER_NAME.test(name)) throw bad(`cluster name "${name}" may hold letters, digits, '.', '_', ':' and '-' only`);
      return { name, url: text.replace(/\/+$/, '') };
    });
  if (clusters.length === 0) throw bad('no URL');
  const names = clusters.map((c) => c.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw bad(`two clusters named "${twice}" (name them: name=url)`);
  const servers = bootstrapOf(e.TRIBUTARY_KAFKA_CONNECT_KAFKA ?? e.KAFKA_BROKERS, names);
  return {
    clusters: clusters.map((c) => ({ ...c, bootstrap: servers(c.name) })),
    credentialsFile: e.TRIBUTARY_KAFKA_CONNECT_CREDENTIALS ? path.resolve(e.TRIBUTARY_KAFKA_CONNECT_CREDENTIALS) : undefined,
    intervalMs: e.TRIBUTARY_KAFKA_CONNECT_INTERVAL_S * 1000,
    timeoutMs: e.TRIBUTARY_KAFKA_CONNECT_TIMEOUT_MS,
    maxBodyBytes: Math.max(1, e.TRIBUTARY_KAFKA_CONNECT_MAX_BYTES),
  };
}

/** One bootstrap list for every cluster, or `name=servers;name=servers` (each cluster named once). */
function bootstrapOf(text: string | undefined, names: string[]): (name: string) => string {
  const bad = (why: string) =>
    new ConfigError(`invalid configuration: TRIBUTARY_KAFKA_CONNECT_KAFKA: ${why}; the Kafka Connect REST API does not say which Kafka its workers use, and topics are named after it (kafka://<bootstrap servers>)`);
  if (!text) throw bad('needed with TRIBUTARY_KAFKA_CONNECT_URLS (or KAFKA_BROKERS)');
  if (!text.includes('=')) return () => text.trim();
  const map = new Map<string, string>();
  for (const part of text.split(';').map((x) => x.trim()).filter(Boolean)) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw bad(`"${part}" is not name=servers`);
    map.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const missing = names.filter((n) => !map.get(n));
  if (missing.length) throw bad(`no bootstrap servers for ${missing.join(', ')}`);
  return (name) => map.get(name)!;
}
