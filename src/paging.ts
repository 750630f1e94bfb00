import { badInput } from './errors';

/** Opaque offset cursors for paged lists: `after` takes the `endCursor` of the previous page. */
export const encodeOffset = (offset: number): string => Buffer.from(`offset:${offset}`).toString('base64url');

export function decodeOffset(cursor: string): number {
  const m = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw badInput('invalid cursor: pass the endCursor of a previous page');
  return Number(m[1]);
}
