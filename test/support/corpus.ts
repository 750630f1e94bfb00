import fs from 'node:fs';
import path from 'node:path';
import { validateEvent } from '../../src/ingest/validate';

/**
 * Read access to the shared OpenLineage corpus (../shared/openlineage-corpus beside the checkout;
 * never copied into the project). Each document keeps its exact text: a single-object file's text,
 * a .jsonl line, or JSON.stringify of an array element.
 */
export const repoRoot = path.resolve(__dirname, '..', '..', '..');
export const corpusRoot = path.resolve(repoRoot, '..', 'shared', 'openlineage-corpus');

export interface ManifestRow {
  file: string;
  engine: string;
  eventTypes: string;
  templated: boolean;
  complete: boolean;
  nEvents: number;
}

export function manifest(): ManifestRow[] {
  const lines = fs.readFileSync(path.join(corpusRoot, 'MANIFEST.tsv'), 'utf8').trim().split('\n');
  const header = lines[0]!.split('\t');
  const col = (name: string) => header.indexOf(name);
  return lines.slice(1).map((l) => {
    const c = l.split('\t');
    return {
      file: c[col('file')]!,
      engine: c[col('engine')]!,
      eventTypes: c[col('event_types')]!,
      templated: c[col('templated')] === 'yes',
      complete: c[col('complete')] === 'yes',
      nEvents: Number(c[col('n_events')]),
    };
  });
}

export interface CorpusDoc {
  file: string;
  index: number;
  raw: string;
  value: unknown;
}

/** The documents of one corpus file. A file that is not JSON yields one doc with value undefined. */
export function docsOf(file: string): CorpusDoc[] {
  const text = fs.readFileSync(path.join(corpusRoot, file), 'utf8');
  if (file.endsWith('.jsonl')) {
    return text
      .split('\n')
      .filter((l) => l.trim())
      .map((raw, index) => ({ file, index, raw, value: tryParse(raw) }));
  }
  const value = tryParse(text);
  if (Array.isArray(value)) return value.map((v, index) => ({ file, index, raw: JSON.stringify(v), value: v }));
  return [{ file, index: 0, raw: text, value }];
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** True when Tributary accepts the value as an event (the corpus's valid events). */
export function isAccepted(value: unknown): boolean {
  try {
    validateEvent(value);
    return true;
  } catch {
    return false;
  }
}
