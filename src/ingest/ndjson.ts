import readline from 'node:readline';
import type { Readable } from 'node:stream';
import type { IngestItem, Ingestor } from './ingestor';

/**
 * NDJSON ingestion (the OpenLineage file transport's format: one event per line). Lines are
 * committed in batches; blank lines are skipped; a line that is not JSON or not a valid event is
 * counted and reported with its line number, never stops the run.
 */

export interface NdjsonSummary {
  lines: number;
  stored: number;
  duplicates: number;
  rejected: number;
  /** Rejection reasons with their counts, most frequent first. */
  reasons: { reason: string; count: number }[];
  /** The first rejections, with line numbers. */
  examples: { line: number; reason: string }[];
  seconds: number;
}

export interface NdjsonOptions {
  batchSize?: number;
  /** Called after each committed batch. */
  progress?: (s: NdjsonSummary) => void;
}

export async function ingestNdjson(input: Readable, ingestor: Ingestor, opts: NdjsonOptions = {}): Promise<NdjsonSummary> {
  const batchSize = opts.batchSize ?? 500;
  const started = Date.now();
  const reasons = new Map<string, number>();
  const summary: NdjsonSummary = { lines: 0, stored: 0, duplicates: 0, rejected: 0, reasons: [], examples: [], seconds: 0 };
  const reject = (line: number, reason: string) => {
    summary.rejected++;
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    if (summary.examples.length < 20) summary.examples.push({ line, reason });
  };
  let batch: { line: number; item: IngestItem }[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const outcomes = await ingestor.ingest(batch.map((b) => b.item));
    outcomes.forEach((o, i) => {
      if (!o.ok) reject(batch[i]!.line, reasonOf(o.error.message, o.error.details));
      else if (o.duplicate) summary.duplicates++;
      else summary.stored++;
    });
    batch = [];
    opts.progress?.(finish(summary, reasons, started));
  };

  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  for await (const text of lines) {
    lineNo++;
    if (text.trim() === '') continue;
    summary.lines++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      reject(lineNo, 'NOT_JSON');
      continue;
    }
    batch.push({ line: lineNo, item: { raw: text, value } });
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return finish(summary, reasons, started);
}

/** A stable, countable reason: the policy reason and path of the first problem, without values. */
export function reasonOf(message: string, details: { path: string; message: string; reason?: string }[]): string {
  const d = details[0];
  if (!d) return message;
  return `${d.reason ?? 'INVALID'} ${d.path.replace(/\[\d+\]/g, '[]')}`;
}

function finish(s: NdjsonSummary, reasons: Map<string, number>, started: number): NdjsonSummary {
  return {
    ...s,
    reasons: [...reasons].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : 1)),
    seconds: (Date.now() - started) / 1000,
  };
}
