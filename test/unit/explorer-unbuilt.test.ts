import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { explorerRoutes } from '../../src/http/explorer';
import { createLogger } from '../../src/log';

describe('explorer not built', () => {
  it('every view path says how to build it (503), nothing is served from the folder', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'explorer-empty-'));
    const app = Fastify();
    try {
      await explorerRoutes(app as never, dir, createLogger('error'));
      const res = await app.inject({ method: 'GET', url: '/lineage?node=x' });
      assert.equal(res.statusCode, 503);
      assert.match(res.body, /not built here: run `npm run build`/);
      assert.equal((await app.inject({ method: 'GET', url: '/assets/index.js' })).statusCode, 404);
    } finally {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
