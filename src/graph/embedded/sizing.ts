import { parseByteSize } from '../../config';

/**
 * Memory for the embedded Neo4j when TRIBUTARY_NEO4J_HEAP or TRIBUTARY_NEO4J_PAGECACHE is unset,
 * sized from the machine rather than fixed.
 *
 * Contract:
 *  - heap: 2 GiB from 12 GiB of RAM, 1 GiB below, 512 MiB below 4 GiB. It holds transaction state
 *    (one projection batch) and query plans, which do not grow with the store; answers stream to
 *    the client. 1 GiB holds them, but under sustained ingestion its collector then spends 0.36–0.70 s
 *    of CPU per 1000 M events (median 0.48), 2 GiB 0.19–0.41 (median 0.20), for about 1 GiB more
 *    resident memory (bench/README, *The 16 clients' path on M*).
 *  - page cache: half of what is left once the heap and 2 GiB for Node.js and the OS are set aside,
 *    at least 512 MiB, at most 32 GiB. Neo4j allocates its page cache as pages are first used, so
 *    a small store costs little resident memory whatever this ceiling is, and a store that grows
 *    during a run is not starved by a figure chosen when it was empty.
 *  - An explicit setting always wins.
 */
export interface Neo4jMemory {
  heap: string;
  pageCache: string;
  /** How each figure was chosen, for the start-up log. */
  source: { heap: 'setting' | 'machine'; pageCache: 'setting' | 'machine' };
}

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

export function neo4jMemory(totalRamBytes: number, heap?: string, pageCache?: string): Neo4jMemory {
  const heapBytes = heap ? parseJvmSize(heap) : totalRamBytes < 4 * GIB ? 512 * MIB : totalRamBytes < 12 * GIB ? GIB : 2 * GIB;
  const left = totalRamBytes - heapBytes - 2 * GIB;
  const cacheBytes = Math.min(32 * GIB, Math.max(512 * MIB, Math.floor(left / 2)));
  return {
    heap: heap ?? `${Math.round(heapBytes / MIB)}m`,
    pageCache: pageCache ?? `${Math.floor(cacheBytes / MIB)}m`,
    source: { heap: heap ? 'setting' : 'machine', pageCache: pageCache ? 'setting' : 'machine' },
  };
}

/** `512m`, `2g` (the JVM sizes config.ts accepts) in bytes, through config's byte-size reader. */
export function parseJvmSize(size: string): number {
  if (!/^\d+[mg]$/i.test(size)) throw new Error(`not a JVM size: ${size}`);
  return parseByteSize(size);
}

/**
 * Whether the page cache holds the whole store: when it cannot (a store larger than the ceiling
 * this machine gives), a line for the start-up log. Lineage walks read jobs, datasets and their
 * edges, a small part of a store that fields, runs and stored events make large (XL: a 23.6 GB
 * store under a 10.3 GiB cache answered depth-20 lineage in 151 ms p50), so it is said, not refused.
 */
export function pageCacheNote(storeBytes: number, pageCache: string): string | null {
  const cache = parseJvmSize(pageCache);
  if (storeBytes <= cache) return null;
  const gb = (b: number) => `${(b / 2 ** 30).toFixed(1)} GiB`;
  return `the store (${gb(storeBytes)}) is larger than the page cache (${gb(cache)}): reads of its colder parts go to disk; more RAM, or TRIBUTARY_NEO4J_PAGECACHE, keeps more of it in memory`;
}

