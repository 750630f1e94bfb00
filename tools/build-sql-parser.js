#!/usr/bin/env node
// Bundles dt-sql-parser (ESM written for bundlers: its directory imports do not load in Node) into
// one CommonJS file, dist/vendor/dt-sql-parser.cjs, with rolldown, for src/sql/parse-worker.ts.
// Skipped when the bundle was made from the installed version (dist/vendor/.dt-sql-parser-version).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const out = path.join(root, 'dist', 'vendor', 'dt-sql-parser.cjs');
const stamp = path.join(root, 'dist', 'vendor', '.dt-sql-parser-version');
const pkg = path.join(root, 'node_modules', 'dt-sql-parser', 'package.json');
const version = `${JSON.parse(fs.readFileSync(pkg, 'utf8')).version} ${fs.readFileSync(__filename, 'utf8').length}`;
if (fs.existsSync(out) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === version) process.exit(0);

(async () => {
  const started = Date.now();
  const { build } = await import('rolldown');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  await build({
    input: path.join(root, 'node_modules', 'dt-sql-parser', 'dist', 'index.js'),
    platform: 'node',
    logLevel: 'warn',
    output: { file: out, format: 'cjs' },
  });
  fs.writeFileSync(stamp, version);
  process.stdout.write(`dt-sql-parser ${version.split(' ')[0]} bundled into dist/vendor (${Math.round(fs.statSync(out).size / 1024)} KiB) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
})().catch((err) => {
  process.stderr.write(`bundling dt-sql-parser failed: ${err?.stack ?? err}\n`);
  process.exit(1);
});
