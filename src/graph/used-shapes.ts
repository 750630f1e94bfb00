import neo4j from 'neo4j-driver';
import type { Query } from './queries';

/**
 * The query shapes the service met: each query with the types of its parameters, which is what
 * Neo4j caches a plan for. The executor records every call (src/app.ts), the warm-up what it
 * compiled; the plan refresher (plan-refresher.ts) replans from them.
 */

/** A query and the types of its parameters: what Neo4j caches a plan for. */
export interface Shape {
  query: Query;
  /** The parameters of one call, with every list cut to its first element (the plan ignores sizes). */
  params: Record<string, unknown>;
  write: boolean;
  /** Run after a write in its transaction: Neo4j caches that plan apart (ExplainOptions.afterWrite). */
  afterWrite: boolean;
}

/** The shapes the executor ran or the warm-up compiled, at most `max` (the rest are counted, not kept). */
export class UsedShapes {
  private readonly shapes = new Map<string, Shape>();
  /** Keys of the kept shapes that have run (not only been compiled by the warm-up). */
  private readonly ran = new Set<string>();
  /** Calls whose shape was not kept because `max` were already (a shape met again counts again). */
  dropped = 0;

  constructor(private readonly max = 2_000) {}

  /**
   * True when the shape is new (kept, or not kept past `max`). `ran`: the shape ran (false: the
   * warm-up only compiled it). Health probes (health/*.cypher) are not kept: they are not on any
   * user's path.
   */
  record(query: Query, params: Record<string, unknown>, write: boolean, afterWrite = false, ran = true): boolean {
    if (query.startsWith('health/')) return false;
    const key = `${query}|${write ? 'w' : 'r'}${afterWrite ? 'a' : ''}|${signature(params)}`;
    if (this.shapes.has(key)) {
      if (ran) this.ran.add(key);
      return false;
    }
    if (this.shapes.size >= this.max) {
      this.dropped++;
      return true;
    }
    this.shapes.set(key, { query, params: sample(params), write, afterWrite });
    if (ran) this.ran.add(key);
    return true;
  }

  /** Whether the shape of this key (as `keyed` gives it) has run. */
  hasRun(key: string): boolean {
    return this.ran.has(key);
  }

  get size(): number {
    return this.shapes.size;
  }

  list(): Shape[] {
    return [...this.shapes.values()];
  }

  /** The shapes with their keys (query, write mode and signature). */
  keyed(): [string, Shape][] {
    return [...this.shapes.entries()];
  }
}

/** The parameter types Neo4j keys a plan by, as a string: one tag per parameter, by name. */
export function signature(params: Record<string, unknown>): string {
  return Object.keys(params)
    .sort()
    .map((k) => `${k}:${typeTag(params[k], 0)}`)
    .join(',');
}

function typeTag(v: unknown, depth: number): string {
  if (v === null || v === undefined) return 'n';
  if (typeof v === 'string') return 's';
  if (typeof v === 'number') return 'f';
  if (typeof v === 'boolean') return 'b';
  if (typeof v === 'bigint' || neo4j.isInt(v)) return 'i';
  if (Array.isArray(v)) return v.length === 0 ? 'L-' : depth > 2 ? 'L' : `L${typeTag(v[0], depth + 1)}`;
  if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) return 'M';
  return `o${(v as object).constructor?.name ?? ''}`;
}

/** `params` with each top-level list cut to its first element (a plan cached without parameter sizes serves any size). */
function sample(params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v.slice(0, 1) : v]));
}
