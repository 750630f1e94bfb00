import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../log';

/**
 * The lineage explorer (web/, built by `npm run build` into dist/web): its page at / and at every
 * view path (the URL holds a view's state, so each is a permalink), its hashed assets under
 * /assets/ (cached for a year: a new build has new names). No data is in these files, so they are
 * open even where /graphql needs a token; the page asks for one when the API says so.
 */

/** The explorer's view paths (web/src/App.tsx); each answers with the page. */
export const VIEW_PATHS = ['/', '/search', '/lineage', '/trace', '/impact', '/coverage', '/dataset', '/job', '/run'] as const;

/** Where the build puts the bundle, relative to this file in dist/src/http. */
export const defaultExplorerDir = (): string => path.resolve(__dirname, '..', '..', 'web');

// The page loads scripts and styles from itself only; React Flow positions nodes with inline styles.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export async function explorerRoutes(app: FastifyInstance, dir: string, log: Logger): Promise<void> {
  const indexFile = path.join(dir, 'index.html');
  if (!fs.existsSync(indexFile)) {
    log.warn('the explorer is not built: / answers 503 until `npm run build` has built it', { dir });
    for (const p of VIEW_PATHS) {
      app.get(p, async (_req, reply) =>
        reply.code(503).type('text/plain; charset=utf-8').send('The Tributary explorer is not built here: run `npm run build`. The API is at /graphql.\n'),
      );
    }
    return;
  }
  const page = fs.readFileSync(indexFile);
  for (const p of VIEW_PATHS) {
    app.get(p, async (_req, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('content-security-policy', CSP)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .send(page),
    );
  }
  await app.register(fastifyStatic, {
    root: path.join(dir, 'assets'),
    prefix: '/assets/',
    wildcard: false,
    index: false,
    immutable: true,
    maxAge: '365d',
  });
}
