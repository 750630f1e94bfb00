import type { MiddlewareFn } from 'type-graphql';
import type { Context } from './context';
import { WALK_FIELDS } from './limits';

/**
 * One walk at a time per request: the root fields that walk the graph or read a region of it
 * (WALK_FIELDS: lineage, trace, blastRadius, path, search, the analytics, ...) run in the order
 * they were reached, each once the one before it has answered. Admission counts requests, so a
 * request of twenty aliases would otherwise put twenty walks on the CPU behind one slot; this way
 * the heavy lane's slots bound the walks running at once, and lookups keep their share of the CPU.
 */
export const oneWalkAtATime: MiddlewareFn<Context> = ({ context, info }, next) =>
  info.parentType.name === 'Query' && WALK_FIELDS.has(info.fieldName) ? context.walks(() => Promise.resolve(next())) : next();
