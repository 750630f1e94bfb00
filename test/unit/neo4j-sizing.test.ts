import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config';
import { neo4jMemory, pageCacheNote, parseJvmSize } from '../../src/graph/embedded/sizing';

const GIB = 1024 ** 3;

describe('embedded Neo4j memory sizing', () => {
  it('leaves heap and page cache to the machine unless set', () => {
    const c = loadConfig({});
    assert.equal(c.embedded.heap, undefined);
    assert.equal(c.embedded.pageCache, undefined);
    assert.equal(loadConfig({ TRIBUTARY_NEO4J_PAGECACHE: '3g' }).embedded.pageCache, '3g');
  });

  it('gives the page cache half of what the heap, Node.js and the OS leave', () => {
    // 24 GiB: (24 - 2 - 2) / 2 = 10 GiB.
    assert.deepEqual(neo4jMemory(24 * GIB), { heap: '2048m', pageCache: '10240m', source: { heap: 'machine', pageCache: 'machine' } });
    // 8 GiB laptop: (8 - 1 - 2) / 2 = 2.5 GiB.
    assert.deepEqual(neo4jMemory(8 * GIB), { heap: '1024m', pageCache: '2560m', source: { heap: 'machine', pageCache: 'machine' } });
  });

  it('gives the heap 2 GiB from 12 GiB of RAM (less collection under sustained ingestion), 1 GiB below', () => {
    assert.equal(neo4jMemory(12 * GIB - 1).heap, '1024m');
    assert.equal(neo4jMemory(12 * GIB).heap, '2048m');
    assert.equal(neo4jMemory(16 * GIB).pageCache, `${6 * 1024}m`);
    assert.equal(neo4jMemory(4 * GIB).heap, '1024m');
    assert.equal(neo4jMemory(4 * GIB - 1).heap, '512m');
  });

  it('keeps small machines at 512 MiB of each and large ones at a 32 GiB page cache', () => {
    assert.deepEqual(neo4jMemory(2 * GIB), { heap: '512m', pageCache: '512m', source: { heap: 'machine', pageCache: 'machine' } });
    assert.equal(neo4jMemory(512 * GIB).pageCache, '32768m');
  });

  it('lets an explicit setting win and sizes the rest around it', () => {
    const m = neo4jMemory(24 * GIB, '4g');
    assert.equal(m.heap, '4g');
    assert.equal(m.pageCache, `${(24 - 4 - 2) * 512}m`);
    assert.deepEqual(neo4jMemory(24 * GIB, '1g', '256m'), { heap: '1g', pageCache: '256m', source: { heap: 'setting', pageCache: 'setting' } });
    assert.equal(parseJvmSize('2G'), 2 * GIB);
    assert.throws(() => parseJvmSize('2t'), /not a JVM size/);
  });

  it('says when the store is larger than the page cache, and only then', () => {
    assert.equal(pageCacheNote(600 * 2 ** 20, '10516m'), null);
    assert.equal(pageCacheNote(10516 * 2 ** 20, '10516m'), null);
    assert.match(pageCacheNote(23644 * 2 ** 20, '10516m')!, /^the store \(23\.1 GiB\) is larger than the page cache \(10\.3 GiB\).*TRIBUTARY_NEO4J_PAGECACHE/);
  });
});

