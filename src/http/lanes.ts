import type { FastifyRequest } from 'fastify';
import { parse, type GraphQLSchema } from 'graphql';
import { isLookup, type WalkCaps } from '../graphql/limits';
import { ReadSlots } from './read-slots';

/**
 * Admission lanes for reads. Each class of request has its own slots, so that no class can occupy
 * the slots another needs; within a lane, clients take turns (read-slots.ts):
 *   lookup  GraphQL lookups: no walk, region read or analytics, a small estimated cost (isLookup)
 *   heavy   every other GraphQL operation; REST coverage, gaps and diff; embeds answered to a token
 *   embed   anonymous embeds (/embed/* with TRIBUTARY_EMBED_PUBLIC=true)
 * A client is its token's name when the request is authenticated, else its address.
 */
export enum Lane {
  LOOKUP = 'lookup',
  HEAVY = 'heavy',
  EMBED = 'embed',
}

export type Lanes = Record<Lane, ReadSlots>;

/** Slots of each lane; requests that may wait in each lane, and of one client in a lane. */
export interface LaneSettings {
  lookup: number;
  heavy: number;
  embed: number;
  queue: number;
  clientQueue: number;
}

export function createLanes(s: LaneSettings): Lanes {
  const lane = (name: Lane, limit: number) => new ReadSlots(limit, s.queue, s.clientQueue, name);
  return { [Lane.LOOKUP]: lane(Lane.LOOKUP, s.lookup), [Lane.HEAVY]: lane(Lane.HEAVY, s.heavy), [Lane.EMBED]: lane(Lane.EMBED, s.embed) };
}

/** Whom a request's turn belongs to. */
export function clientOf(req: FastifyRequest): string {
  return req.principal ? `token:${req.principal.name}` : `address:${req.ip}`;
}

const CACHE_ENTRIES = 1000;
const CACHE_KEY = 10_000;

/**
 * The lane of a GraphQL request, from its document (parsed here, before Apollo; the gate has
 * bounded its size), variables and operation name. A request without a document text (a persisted
 * query's hash) is heavy; one that does not parse or whose estimate fails is a lookup, since Apollo
 * refuses it before anything runs. Answers for short requests are remembered (bounded; emptied
 * when full), as the gate remembers the documents it passed.
 */
export function graphqlLane(schema: GraphQLSchema, caps: WalkCaps, maxTokens: number): (request: unknown) => Lane {
  const known = new Map<string, Lane>();
  return (request) => {
    const { query, variables, operationName } = (request ?? {}) as { query?: unknown; variables?: unknown; operationName?: unknown };
    if (typeof query !== 'string') return Lane.HEAVY;
    const vars = typeof variables === 'string' ? variables : JSON.stringify(variables ?? null);
    const name = typeof operationName === 'string' ? operationName : undefined;
    const key = `${name ?? ''}\u0000${vars}\u0000${query}`;
    const cached = known.get(key);
    if (cached) return cached;
    let lane: Lane;
    try {
      const values = typeof variables === 'string' ? JSON.parse(variables) : variables;
      lane = isLookup(schema, parse(query, { maxTokens, noLocation: true }), caps, (values ?? {}) as Record<string, unknown>, name) ? Lane.LOOKUP : Lane.HEAVY;
    } catch {
      lane = Lane.LOOKUP;
    }
    if (key.length <= CACHE_KEY) {
      if (known.size >= CACHE_ENTRIES) known.clear();
      known.set(key, lane);
    }
    return lane;
  };
}
