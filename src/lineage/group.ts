/** Rows grouped by key, groups in first-seen order, rows in input order within a group. Linear. */
export function groupBy<T>(rows: Iterable<T>, key: (row: T) => string | undefined): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    if (k === undefined) continue;
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}
