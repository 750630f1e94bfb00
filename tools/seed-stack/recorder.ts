import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Log } from './contract';

/**
 * The seed stack's recorder: each producer's OpenLineage HTTP transport posts to
 * `http://127.0.0.1:<port>/<producer>/api/v1/lineage` (or `/lineage/batch`); the body is appended
 * verbatim, one line per request, to `<outDir>/<producer>.ndjson`, then forwarded unchanged to
 * `forwardTo` (Tributary) and Tributary's answer returned to the producer. Without `forwardTo` it
 * answers 201 itself. What a producer sent is what the fixtures hold, byte for byte (newlines
 * inside a body, which JSON allows only as whitespace, are folded to spaces).
 */
export interface Recorder {
  url: (producer: string) => string;
  /** Requests recorded so far, by producer. */
  counts(): Record<string, number>;
  stop(): Promise<void>;
}

export async function startRecorder(opts: { port: number; outDir: string; forwardTo?: string; log: Log }): Promise<Recorder> {
  fs.mkdirSync(opts.outDir, { recursive: true });
  const counts: Record<string, number> = {};
  const server = http.createServer((req, res) => {
    const m = /^\/([a-z0-9-]+)(\/api\/v1\/lineage(?:\/batch)?)\/?$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !m) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `POST /<producer>/api/v1/lineage expected, got ${req.method} ${req.url}` }));
      return;
    }
    const [, producer, route] = m as unknown as [string, string, string];
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      fs.appendFileSync(path.join(opts.outDir, `${producer}.ndjson`), `${body.toString('utf8').replace(/\r?\n/g, ' ').trim()}\n`);
      counts[producer] = (counts[producer] ?? 0) + 1;
      if (!opts.forwardTo) {
        res.writeHead(201).end();
        return;
      }
      forward(`${opts.forwardTo}${route}`, body, req.headers['content-type'] ?? 'application/json')
        .then(({ status, text }) => {
          if (status >= 400) opts.log(`Tributary answered ${status} to ${producer}: ${text.slice(0, 300)}`);
          res.writeHead(status, { 'content-type': 'application/json' }).end(text);
        })
        .catch((err: Error) => {
          opts.log(`forwarding ${producer}'s event failed: ${err.message}`);
          res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: err.message }));
        });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  return {
    url: (producer) => `http://127.0.0.1:${opts.port}/${producer}`,
    counts: () => ({ ...counts }),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function forward(url: string, body: Buffer, contentType: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': contentType }, signal: AbortSignal.timeout(30_000) });
  return { status: res.status, text: await res.text() };
}
