import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { SERVICE_NODE_FLAGS } from '../../src/service-flags';

/** The service's Node.js flags (src/service-flags.ts) are the same wherever it is started. */
const repo = path.resolve(__dirname, '..', '..', '..');

describe('the service runs with its Node.js flags everywhere it is started', () => {
  it('npm start and npm run bench pass them before the script; the image sets them in NODE_OPTIONS', () => {
    assert.ok(SERVICE_NODE_FLAGS.length > 0);
    const scripts = (JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const [name, script] of [['start', 'dist/src/main.js'], ['bench', 'dist/bench/run.js']] as const) {
      const command = /node ([^&]*?)\s*dist\//.exec(scripts[name]!)?.[1]?.split(/\s+/) ?? [];
      for (const flag of SERVICE_NODE_FLAGS) assert.ok(command.includes(flag), `npm ${name} (${scripts[name]}) runs ${script} with ${flag}`);
    }
    const dockerfile = fs.readFileSync(path.join(repo, 'Dockerfile'), 'utf8');
    assert.match(dockerfile, new RegExp(`^ENV NODE_OPTIONS=${SERVICE_NODE_FLAGS.join(' ')}$`, 'm'));
  });

  it('the benchmarks and tools that start the service as a process pass them', () => {
    for (const file of ['bench/marquez.ts', 'tools/seed-stack/tributary.ts']) {
      assert.match(fs.readFileSync(path.join(repo, file), 'utf8'), /\[\.\.\.SERVICE_NODE_FLAGS, path\.join\(repo(Root)?, 'dist', 'src', 'main\.js'\)\]/, file);
    }
  });
});
