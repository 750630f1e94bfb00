import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/config';
import { createDriver } from '../../src/graph/driver';
import { startEmbeddedNeo4j, storeHome, type EmbeddedNeo4j } from '../../src/graph/embedded/neo4j';
import { probeJava } from '../../src/graph/embedded/provision';
import { createLogger } from '../../src/log';

/**
 * The embedded Neo4j on a real Java 25 JVM keeps its AOT cache (src/graph/embedded/aot-cache.ts):
 * the first start records it and its JVM writes it on a clean stop, the next start maps it (the
 * JVM's own log says so), a cache the JVM cannot map is dropped without stopping the start, and a
 * JVM killed while recording leaves nothing behind. Needs a JDK 25 or later:
 * TRIBUTARY_TEST_JAVA25_HOME, or one under /usr/lib/jvm; skipped (and says so) without one.
 */
const log = createLogger('error');
const config = loadConfig();
const home = path.join(config.embedded.home, `test-aot-${process.pid}`);
const aotDir = path.join(storeHome({ home }), 'aot');

function findJava25(): string | null {
  const homes = [process.env.TRIBUTARY_TEST_JAVA25_HOME, ...listDir('/usr/lib/jvm').map((d) => path.join('/usr/lib/jvm', d))];
  for (const h of homes) {
    if (!h || !fs.existsSync(path.join(h, 'bin', 'java')) || !fs.existsSync(path.join(h, 'bin', 'jar'))) continue;
    if ((probeJava(path.join(h, 'bin', 'java')).major ?? 0) >= 25) return h;
  }
  return null;
}
function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir).sort();
  } catch {
    return [];
  }
}

const javaHome = findJava25() ?? undefined;
const start = () => startEmbeddedNeo4j({ ...config.embedded, neo4jJavaHome: javaHome, home, port: 0, heap: '512m', pageCache: '128m', aotCache: 'auto' }, log);
const files = () => listDir(aotDir);

let running: EmbeddedNeo4j | null = null;
after(async () => {
  await running?.stop();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('the embedded Neo4j\'s JVM AOT cache on Java 25', { skip: javaHome ? false : 'no JDK 25 or later (set TRIBUTARY_TEST_JAVA25_HOME)' }, () => {
  it('is recorded by a first run, written at its stop and mapped by the next start', async () => {
    fs.rmSync(home, { recursive: true, force: true });
    running = await start();
    assert.equal(running.aotCache, 'recording');
    assert.deepEqual(files().filter((f) => f.endsWith('.aot')), [], 'nothing kept before the JVM exits');
    await running.stop();
    const kept = files();
    assert.equal(kept.length, 1, `one cache, no recording left: ${kept.join(', ')}`);
    assert.match(kept[0]!, /^neo4j-[0-9a-f]{16}\.aot$/);
    assert.ok(fs.statSync(path.join(aotDir, kept[0]!)).size > 10_000_000, 'a cache of Neo4j\'s classes');

    running = await start();
    assert.equal(running.aotCache, 'loaded');
    assert.match(fs.readFileSync(path.join(storeHome({ home }), 'logs', 'jvm-aot.log'), 'utf8'), /Using AOT-linked classes: true/);
    await running.stop();
    assert.deepEqual(files(), kept, 'a loading start writes no new cache');
  });

  it('drops a cache the JVM cannot map, and the start goes on without it', async () => {
    const [name] = files();
    assert.ok(name, 'the cache of the test before');
    const file = path.join(aotDir, name);
    fs.truncateSync(file, 1 << 20);
    running = await start();
    assert.equal(running.aotCache, 'rejected');
    const driver = createDriver({ uri: running.uri, user: 'neo4j' });
    try {
      await driver.verifyConnectivity();
    } finally {
      await driver.close();
    }
    assert.equal(fs.existsSync(file), false, 'removed, so the next start records anew');
    await running.stop();
  });

  it('starts without a cache when its directory cannot be made', async () => {
    fs.rmSync(aotDir, { recursive: true, force: true });
    fs.writeFileSync(aotDir, 'a file where the directory goes');
    try {
      running = await start();
      assert.equal(running.aotCache, 'off');
      await running.stop();
    } finally {
      fs.rmSync(aotDir, { force: true });
    }
  });

  it('keeps nothing from a JVM killed while recording', async () => {
    running = await start();
    assert.equal(running.aotCache, 'recording');
    process.kill(running.pid, 'SIGKILL');
    assert.equal((await running.exited).signal, 'SIGKILL');
    running = null;
    assert.deepEqual(files(), []);
  });
});
