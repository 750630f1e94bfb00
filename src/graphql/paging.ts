import { Field, ObjectType } from 'type-graphql';
import { badInput } from '../errors';

/**
 * Cursor paging, GraphQL side only: services take and return offsets and totals; this module
 * turns `after` cursors into offsets and offsets back into the one PageInfo shape every paged
 * answer carries.
 */

@ObjectType({ description: 'Cursor paging information.' })
export class PageInfo {
  @Field(() => String, { nullable: true, description: 'Pass as `after` to get the next page.' })
  endCursor!: string | null;

  @Field(() => Boolean, { description: 'Whether more items follow.' })
  hasNextPage!: boolean;
}

/** Opaque cursor of a position (the offset of the next item). */
export const encodeOffset = (offset: number): string => Buffer.from(`offset:${offset}`).toString('base64url');

/** The offset an `after` cursor stands for (0 without one); BAD_INPUT for anything else. */
export function offsetAfter(cursor: string | null | undefined): number {
  if (!cursor) return 0;
  const m = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m || m[1]!.length > 9) throw badInput('invalid cursor: pass the endCursor of a previous page');
  return Number(m[1]);
}

/** PageInfo of a page of `count` items starting at `offset`, out of `total`. */
export function pageInfo(offset: number, count: number, total: number): PageInfo {
  const end = offset + count;
  return { endCursor: count > 0 ? encodeOffset(end) : null, hasNextPage: end < total };
}
