import { parseId } from '../ids';
import { cmp } from './common';
import type { StopSite, TraceStop } from './stops-service';
import { parentIdOf, type StepRow, type Traversal } from './traversal';
import { EdgeType, EntityKind, MatchStrength, StopReason } from './types';

/**
 * METADATA_COLUMN stops, for stops-service.ts. Items whose lineage goes on through metadata columns the walk left out (Traversal.leftOut): one
 * METADATA_COLUMN stop per dataset of such items, the metadata columns as candidates, whether or
 * not the items also go on otherwise; such items are no other kind of stop.
 */
export function metadataStops<R extends StepRow>(walk: Traversal<R>, sites: StopSite[]): { metadata: TraceStop[]; rest: StopSite[] } {
  const through = new Map<string, R[]>();
  for (const { row } of walk.leftOut) {
    const item = parentIdOf(row, walk.direction);
    through.set(item, [...(through.get(item) ?? []), row]);
  }
  const rest = sites
    .map((s) => ({ ...s, itemIds: s.itemIds.filter((id) => !through.has(id)) }))
    .filter((s) => s.itemIds.length > 0)
    .map((s) => ({ ...s, distance: Math.min(...s.itemIds.map((id) => walk.reached.get(id)?.distance ?? s.distance)) }));
  const byDataset = new Map<string, string[]>();
  for (const item of through.keys()) {
    const node = walk.reached.get(item)?.node;
    const datasetId = node?.kind === EntityKind.FIELD ? node.datasetId : item;
    if (datasetId) byDataset.set(datasetId, [...(byDataset.get(datasetId) ?? []), item]);
  }
  const nameOf = (id: string) => walk.reached.get(id)?.node.name ?? id;
  const metadata = [...byDataset].map(([datasetId, unsorted]): TraceStop => {
    const items = unsorted.sort(cmp);
    const rows = items.flatMap((id) => through.get(id)!);
    const columns = [...new Map(rows.map((r) => [r.node.id, r])).values()].sort((x, y) => cmp(x.node.id, y.node.id));
    const from = [...new Set(columns.map((r) => r.node.name))].join(', ');
    const tables = [...new Set(columns.map((r) => tableOf(r.node.id)))].join(', ');
    const also = items.some((id) => walk.edges.some(({ row }) => row.type !== EdgeType.ALIAS && parentIdOf(row, walk.direction) === id)) ? ' also' : '';
    return {
      datasetId,
      itemIds: items,
      distance: Math.min(...items.map((id) => walk.reached.get(id)?.distance ?? 0)),
      reason: StopReason.METADATA_COLUMN,
      explanation:
        `${items.map(nameOf).join(', ')} ${items.length === 1 ? 'comes' : 'come'}${also} from ${from} of ${tables}: ` +
        `${columns.length === 1 ? 'a metadata column' : 'metadata columns'} the table format computes per row (where the row is stored, not data anyone wrote). ` +
        'Traces leave them out; trace with metadataColumns: true (the explorer\'s "Metadata columns too") to follow them.',
      candidates: columns.map((r) => ({
        id: r.node.id,
        kind: EntityKind.FIELD,
        strength: MatchStrength.STRONG,
        evidence: [`${r.jobId ?? 'a job'} reports ${nameOf(parentIdOf(r, walk.direction))} ← ${r.node.name}${typesOf(r)}`],
        ruleKind: null,
        rule: null,
      })),
    };
  });
  return { metadata, rest };
}

/** "<name> (<namespace>)" of a field's dataset. */
function tableOf(fieldIdValue: string): string {
  const ref = parseId(fieldIdValue);
  return ref.kind === EntityKind.FIELD ? `${ref.name} (${ref.namespace || 'empty namespace'})` : fieldIdValue;
}

const typesOf = (row: StepRow) => {
  const r = row as StepRow & { types?: string[] | null; subtypes?: string[] | null };
  const t = [...(r.types ?? []), ...(r.subtypes ?? [])];
  return t.length ? ` (${t.join(', ')})` : '';
};
