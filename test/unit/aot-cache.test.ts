import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config';
import { aotCacheKey, aotCacheUsed, keepRecordedCache, planAotCache, type AotCacheInputs } from '../../src/graph/embedded/aot-cache';
import { provision } from '../../src/graph/embedded/provision';
import { scratchDir } from '../support/scratch';

/** Which flags a start passes for the JVM's AOT cache, and what happens to its files (aot-cache.ts). */

const scratch = () => scratchDir('tributary-aot-');
const inputs = (dir: string, over: Partial<AotCacheInputs> = {}): AotCacheInputs => ({
  setting: 'auto',
  javaMajor: 25,
  java: '/usr/lib/jvm/jdk-25/bin/java',
  javaVersion: 'openjdk version "25.0.3" 2026-04-21 LTS',
  classpath: '/t/launcher.jar:/m2/neo4j-5.26.30.jar',
  jvmArgs: ['-Xms1024m', '-Xmx1024m', '-XX:+UseG1GC'],
  dir: path.join(dir, 'aot'),
  logDir: path.join(dir, 'logs'),
  ...over,
});

// Lines of the JVM's own -Xlog:aot output (Temurin 25.0.3 over the embedded Neo4j's classpath).
const MAPPED = '[0.201s][info][aot] Using AOT-linked classes: true (static archive: has aot-linked classes)\n';
const REFUSED =
  '[0.136s][warning][aot] app classpath has fewer elements than expected\n' +
  '[0.136s][error  ][aot] shared class paths mismatch (hint: enable -Xlog:class+path=info to diagnose the failure)\n' +
  '[0.147s][error  ][aot] Unable to map shared spaces\n';

describe('the JVM AOT cache of the embedded Neo4j', () => {
  it('is on by default and can be turned off', () => {
    assert.equal(loadConfig({}).embedded.aotCache, 'auto');
    assert.equal(loadConfig({ TRIBUTARY_NEO4J_AOT_CACHE: 'off' }).embedded.aotCache, 'off');
    assert.throws(() => loadConfig({ TRIBUTARY_NEO4J_AOT_CACHE: 'yes' }), /TRIBUTARY_NEO4J_AOT_CACHE/);
    const own = loadConfig({ JAVA_HOME: '/jdk17', TRIBUTARY_NEO4J_JAVA_HOME: '/jdk25' }).embedded;
    assert.deepEqual([own.javaHome, own.neo4jJavaHome], ['/jdk17', '/jdk25'], 'Neo4j\'s own JDK, the other tools keep JAVA_HOME');
  });

  it('refuses a TRIBUTARY_NEO4J_JAVA_HOME that is not a JDK 17+, rather than falling back to another Java', async () => {
    const dir = scratch();
    await assert.rejects(provision({ neo4jJavaHome: path.join(dir, 'nowhere'), searchPath: process.env.PATH ?? '' }, () => {}), /TRIBUTARY_NEO4J_JAVA_HOME=.*nowhere has no bin\/java/);
    fs.mkdirSync(path.join(dir, 'jdk11', 'bin'), { recursive: true });
    const fake = path.join(dir, 'jdk11', 'bin', 'java');
    fs.writeFileSync(fake, '#!/bin/sh\necho \'openjdk version "11.0.2" 2019-01-15\' >&2\n', { mode: 0o755 });
    await assert.rejects(provision({ neo4jJavaHome: path.join(dir, 'jdk11'), searchPath: process.env.PATH ?? '' }, () => {}), /is openjdk version "11\.0\.2".*needs Java 17 or newer/);
  });

  it('passes no flag and writes nothing when off or before Java 25', () => {
    const dir = scratch();
    assert.deepEqual(planAotCache(inputs(dir, { setting: 'off' })), { state: 'off', flags: [] });
    assert.deepEqual(planAotCache(inputs(dir, { javaMajor: 21 })), { state: 'unsupported', flags: [] });
    assert.equal(fs.existsSync(path.join(dir, 'aot')), false);
  });

  it('records under a temporary name when there is no cache, loads it once kept', () => {
    const dir = scratch();
    const first = planAotCache(inputs(dir));
    assert.equal(first.state, 'recording');
    assert.deepEqual(first.flags[0], `-XX:AOTCacheOutput=${first.recordingFile}`);
    assert.match(first.flags[1]!, /^-Xlog:aot=info:file=.*jvm-aot\.log::filecount=0$/);
    fs.writeFileSync(first.recordingFile!, 'cache bytes');
    assert.equal(keepRecordedCache(first, { signal: null }), true);
    assert.equal(fs.existsSync(first.recordingFile!), false);
    const second = planAotCache(inputs(dir));
    assert.equal(second.state, 'loading');
    assert.equal(second.flags[0], `-XX:AOTCache=${first.cacheFile}`);
  });

  it('keeps nothing from a JVM that was killed or wrote nothing', () => {
    const dir = scratch();
    const killed = planAotCache(inputs(dir));
    fs.writeFileSync(killed.recordingFile!, 'half a cache');
    fs.writeFileSync(`${killed.recordingFile!}.config`, 'training data');
    assert.equal(keepRecordedCache(killed, { signal: 'SIGKILL' }), false);
    assert.equal(fs.existsSync(killed.recordingFile!), false);
    assert.equal(fs.existsSync(killed.cacheFile!), false);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'aot')), []);
    assert.equal(keepRecordedCache(planAotCache(inputs(dir)), { signal: null }), false);
    assert.equal(planAotCache(inputs(dir)).state, 'recording');
  });

  it('records anew when the JVM, its version, the classpath or a flag changes', () => {
    const base = aotCacheKey(inputs('/x'));
    for (const change of [
      { java: '/opt/jdk-25/bin/java' },
      { javaVersion: 'openjdk version "25.0.4" 2026-07-21 LTS' },
      { classpath: '/t/launcher.jar:/m2/neo4j-5.26.31.jar' },
      { jvmArgs: ['-Xms2048m', '-Xmx2048m', '-XX:+UseG1GC'] },
    ]) {
      assert.notEqual(aotCacheKey(inputs('/x', change)), base, JSON.stringify(change));
    }
    const dir = scratch();
    const old = planAotCache(inputs(dir));
    fs.writeFileSync(old.recordingFile!, 'old');
    keepRecordedCache(old, { signal: null });
    assert.equal(planAotCache(inputs(dir, { jvmArgs: ['-Xmx2g'] })).state, 'recording');
  });

  it('keeps the three caches last used in a directory, and the leftovers of a killed recording only while young', () => {
    const dir = scratch();
    const aot = path.join(dir, 'aot');
    const record = (heap: string, ageS: number) => {
      const p = planAotCache(inputs(dir, { jvmArgs: [`-Xmx${heap}`] }));
      fs.writeFileSync(p.recordingFile!, heap);
      keepRecordedCache(p, { signal: null });
      const t = new Date(Date.now() - ageS * 1000);
      fs.utimesSync(p.cacheFile!, t, t);
      return path.basename(p.cacheFile!);
    };
    const a = record('1g', 400);
    const b = record('2g', 300);
    const c = record('3g', 200);
    // Loading a touches it: b is now the least recently used.
    assert.equal(planAotCache(inputs(dir, { jvmArgs: ['-Xmx1g'] })).state, 'loading');
    const d = planAotCache(inputs(dir, { jvmArgs: ['-Xmx4g'] }));
    assert.equal(d.state, 'recording');
    assert.deepEqual(fs.readdirSync(aot).sort(), [a, c].sort(), `${b}, the least recently used, makes room for the one being recorded`);
    const young = path.join(aot, 'neo4j-0123456789abcdef.aot.recording');
    const old = `${young}.config`;
    fs.writeFileSync(young, 'another process writing');
    fs.writeFileSync(old, 'a killed JVM\'s');
    const t = new Date(Date.now() - 11 * 60_000);
    fs.utimesSync(old, t, t);
    planAotCache(inputs(dir, { jvmArgs: ['-Xmx1g'] }));
    assert.equal(fs.existsSync(young), true);
    assert.equal(fs.existsSync(old), false);
    assert.equal(loadConfig({ TRIBUTARY_NEO4J_AOT_DIR: 'cache/aot' }).embedded.aotDir, path.resolve('cache/aot'));
  });

  it('tells from the JVM\'s log whether the cache was mapped', () => {
    const dir = scratch();
    const plan = planAotCache(inputs(dir));
    fs.writeFileSync(plan.recordingFile!, 'x');
    keepRecordedCache(plan, { signal: null });
    const loading = planAotCache(inputs(dir));
    fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
    assert.equal(aotCacheUsed(loading), null, 'no log yet');
    fs.writeFileSync(loading.logFile!, `[0.023s][info][aot] Opened AOT cache x.\n${MAPPED}`);
    assert.equal(aotCacheUsed(loading), true);
    fs.writeFileSync(loading.logFile!, REFUSED);
    assert.equal(aotCacheUsed(loading), false);
    assert.equal(aotCacheUsed(plan), null, 'a recording start loads nothing');
  });
});
