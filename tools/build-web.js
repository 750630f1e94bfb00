#!/usr/bin/env node
// Builds the explorer (web/) into dist/web with Vite, after type-checking it, unless dist/web was
// built from exactly these sources (a hash of web/ and the lock file in dist/web/.source-hash).
// `--force` rebuilds anyway. Exits non-zero when the type check or the build fails.
'use strict';
const { createHash } = require('node:crypto');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const web = path.join(root, 'web');
const out = path.join(root, 'dist', 'web');
const stamp = path.join(out, '.source-hash');

function files(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.name !== 'node_modules' && e.name !== 'screenshots')
    .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    .sort();
}

const hash = createHash('sha256');
for (const f of [...files(web), path.join(root, 'package-lock.json'), __filename, path.join(root, 'node_modules', 'vite', 'package.json')]) {
  if (fs.existsSync(f)) hash.update(path.relative(root, f)).update('\0').update(fs.readFileSync(f));
}
const digest = hash.digest('hex');
const built = () => fs.existsSync(path.join(out, 'index.html')) && fs.existsSync(path.join(out, 'assets')) && fs.readdirSync(path.join(out, 'assets')).length > 0;
if (!process.argv.includes('--force') && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === digest && built()) process.exit(0);

const started = Date.now();
const run = (args) => {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
run([require.resolve('typescript/bin/tsc'), '-p', path.join(web, 'tsconfig.json')]);
run([path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', path.join(web, 'vite.config.mts'), '--logLevel', 'warn']);
fs.writeFileSync(stamp, digest);
const size = files(out).reduce((n, f) => n + fs.statSync(f).size, 0);
process.stdout.write(`explorer built into dist/web (${(size / 1024).toFixed(0)} KiB) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
