import { createHash } from 'node:crypto';
import { datasetId, eventId, jobId, runId } from '../ids';
import { normaliseDatasetName } from './naming';
import type { ValidEvent } from './validate';

/** An accepted event as stored (Event node), with the ids it concerns. */
export interface StoredEventRow {
  id: string;
  kind: ValidEvent['kind'];
  eventType: string | null;
  eventTime: string;
  producer: string;
  specVersion: string | null;
  runId: string | null;
  jobId: string | null;
  datasetId: string | null;
  raw: string;
}

/**
 * The stored form of an event: `raw` is the exact JSON text received; the id is the SHA-256 of the
 * canonical JSON (keys sorted, no white space), so the same event sent again, pretty-printed or
 * inside a batch, is recognised as a duplicate. `knownId`: that id as computed from this same text
 * before (kept in the spool, spool-records.ts), used as it is.
 */
export function storedEventRow(v: ValidEvent, raw: string, value: unknown, knownId?: string): StoredEventRow {
  const e = v.event as { producer: string; job?: { namespace: string; name: string } };
  let dsId: string | null = null;
  if (v.kind === 'DatasetEvent') {
    const n = normaliseDatasetName(v.event.dataset.namespace, v.event.dataset.name);
    dsId = datasetId(n.namespace, n.name);
  }
  return {
    id: knownId ?? eventId(createHash('sha256').update(canonicalJson(value)).digest('hex')),
    kind: v.kind,
    eventType: v.kind === 'RunEvent' ? v.eventType : null,
    eventTime: v.eventTimeUtc,
    producer: e.producer,
    specVersion: v.specVersion,
    runId: v.kind === 'RunEvent' ? runId(v.event.run.runId) : null,
    jobId: e.job ? jobId(e.job.namespace, e.job.name) : null,
    datasetId: dsId,
    raw,
  };
}

/** JSON with object keys sorted at every level and no white space. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + (canonicalJson(value[i]) ?? '');
    return out + ']';
  }
  const o = value as Record<string, unknown>;
  const keys = sortKeys(Object.keys(o));
  let out = '{';
  for (const k of keys) {
    const v = o[k];
    if (v === undefined) continue;
    out += (out.length > 1 ? ',' : '') + JSON.stringify(k) + ':' + canonicalJson(v);
  }
  return out + '}';
}

/**
 * The keys in `Array.prototype.sort`'s default order (UTF-16 code units), in place. Most objects
 * of an event have a few keys, often in order already: an insertion sort allocates nothing, where
 * the built-in sort copies the array (a tenth of all the memory the S bench process allocated, 1.35 of 13 GB).
 */
function sortKeys(keys: string[]): string[] {
  if (keys.length > 16) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i]!;
    let j = i - 1;
    if (keys[j]! < k) continue;
    while (j >= 0 && keys[j]! > k) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = k;
  }
  return keys;
}
