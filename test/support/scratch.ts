import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A fresh directory under the OS's temporary folder, removed with everything in it when this test
 * process exits, passed or failed (a test that throws before its own clean-up leaves nothing behind
 * either). For a file's scratch space that several tests or a service started in it still use up to
 * the end; a test that wants its directory gone earlier removes it itself.
 */
export function scratchDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  if (made.length === 1) process.once('exit', removeAll);
  return dir;
}

const made: string[] = [];

function removeAll(): void {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
}
