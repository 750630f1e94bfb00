import { badInput, notFound } from '../errors';
import type { TxRunner } from '../graph/executor';
import { Query } from '../graph/queries';
import { datasetId, NO_NODE_ID, parseIdOfKind } from '../ids';
import { EntityKind, type EntityRef } from './types';

/**
 * Helpers every lineage service shares: argument checks (depth, asOf, page size), the lookup of a
 * start node, and the one string order used for every sorted answer.
 */

/** Code-unit order of two strings (the order of ids in every answer; locale-independent). */
export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The depth to traverse: `requested` (a positive integer, else BAD_INPUT) capped at `maxDepth`. */
export function checkDepth(requested: number, maxDepth: number): number {
  if (!Number.isInteger(requested) || requested < 1) throw badInput(`depth must be a positive integer (got ${requested})`);
  return Math.min(requested, maxDepth);
}

/** A page size between 1 and `max`; BAD_INPUT otherwise. */
export function checkFirst(first: number, max: number, what = 'first'): number {
  if (!Number.isInteger(first) || first < 1 || first > max) throw badInput(`${what} must be between 1 and ${max} (got ${first})`);
  return first;
}

/** An ISO-8601 time argument as an event-time string (UTC, milliseconds); BAD_INPUT otherwise. */
export function normaliseAsOf(asOf: string, what = 'asOf'): string {
  const t = Date.parse(asOf);
  if (Number.isNaN(t)) throw badInput(`${what} must be an ISO-8601 date-time (got "${asOf}")`);
  return new Date(t).toISOString();
}

/** An optional time argument: null when absent, else normalised as by normaliseAsOf. */
export const optionalTime = (text: string | null | undefined, what = 'asOf'): string | null =>
  text ? normaliseAsOf(text, what) : null;

/**
 * The node with this id, which must be of one of `kinds` (BAD_INPUT otherwise), looked up by the
 * label its id names; NOT_FOUND when absent. A field id under a symlinked name of its dataset where
 * no field has that id resolves to the field of the same name under another name (whose id the
 * answer then carries: it says under which name the field was reported).
 */
export async function findStart(tx: TxRunner, id: string, ...kinds: EntityKind[]): Promise<EntityRef> {
  const ref = parseIdOfKind(id, ...kinds);
  const field = ref.kind === EntityKind.FIELD ? ref : null;
  const [found] = await tx.run<{ node: EntityRef }>(Query.NodeExists, {
    datasetId: ref.kind === EntityKind.DATASET ? id : NO_NODE_ID,
    jobId: ref.kind === EntityKind.JOB ? id : NO_NODE_ID,
    fieldId: field ? id : NO_NODE_ID,
    fieldDatasetId: field ? datasetId(field.namespace, field.name) : NO_NODE_ID,
    // A name, not an id: '' for any other kind (a string still, so one plan serves every kind).
    fieldName: field ? field.field : '',
  });
  if (!found) throw notFound(`no ${ref.kind.toLowerCase()} with id "${id}"`);
  return found.node;
}
