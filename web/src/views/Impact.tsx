import { useEffect, useState } from 'react';
import { gql } from '../api';
import { ColumnHeads, ErrorBox, Link, Loading, nameOf, namespaceOf, NodeLink } from '../components/common';
import { href, intParam, navigate, type Location } from '../route';
import { useQuery } from '../use-query';

interface Item {
  id: string;
  kind: string;
  name: string;
  namespace: string;
  distance: number;
  owners: string[];
  lastRunState: string | null;
  via: string[];
}
interface Count {
  key: string;
  count: number;
}
interface Radius {
  truncated: boolean;
  truncatedBy: string[];
  depth: number;
  totals: { items: number; datasets: number; jobs: number; fields: number; byDistance: Count[]; byNamespace: Count[]; byOwner: Count[] };
  items: Item[];
  pageInfo: { endCursor: string | null; hasNextPage: boolean };
}

const RADIUS = `query Radius($id: ID!, $depth: Int, $after: String) {
  blastRadius(nodeId: $id, depth: $depth, first: 500, after: $after) {
    truncated truncatedBy depth
    totals { items datasets jobs fields byDistance { key count } byNamespace { key count } byOwner { key count } }
    items { id kind name namespace distance owners lastRunState via }
    pageInfo { endCursor hasNextPage }
  }
}`;

/** Everything downstream: /impact?node=<dataset or field id>&depth=N */
export function ImpactView({ loc }: { loc: Location }) {
  const node = loc.params.get('node') ?? '';
  const depth = intParam(loc.params, 'depth', 20, 1, 20);
  const q = useQuery<{ blastRadius: Radius }>(node ? RADIUS : null, { id: node, depth });
  const [exporting, setExporting] = useState<string | null>(null);
  // A new node or depth: the previous export's message no longer applies.
  useEffect(() => setExporting(null), [node, depth]);

  if (!node) return <p>Pick a dataset: search for it above.</p>;
  const r = q.data?.blastRadius;

  /** Every page (at most 40 × 500 items), as CSV. */
  const exportCsv = async () => {
    setExporting('Collecting every item…');
    try {
      const items: Item[] = [];
      let after: string | null = null;
      let complete = false;
      for (let page = 0; page < 40; page++) {
        const d: { blastRadius: Radius } = await gql<{ blastRadius: Radius }>(RADIUS, { id: node, depth, after });
        items.push(...d.blastRadius.items);
        complete = !d.blastRadius.pageInfo.hasNextPage;
        if (complete) break;
        after = d.blastRadius.pageInfo.endCursor;
      }
      // Quoted, and a leading = + - @ (or tab, CR) defused: names come from events, and spreadsheets run formulas.
      const cell = (v: unknown) => {
        const text = String(v ?? '');
        return `"${(/^[=+\-@\t\r]/.test(text) ? `'${text}` : text).replace(/"/g, '""')}"`;
      };
      const lines = [['distance', 'kind', 'namespace', 'name', 'id', 'owners', 'lastRunState', 'via'].join(',')].concat(
        items.map((i) => [i.distance, i.kind, i.namespace, i.name, i.id, i.owners.join(' '), i.lastRunState, i.via.join(' ')].map(cell).join(',')),
      );
      const blob = new Blob([`${lines.join('\n')}\n`], { type: 'text/csv' });
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = `blast-radius-${nameOf(node).replace(/[^\w.-]+/g, '_')}.csv`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
      setExporting(complete ? `Exported ${items.length} items.` : `Exported the first ${items.length} items (the export stops at 20,000).`);
    } catch (err) {
      setExporting(`Export failed: ${(err as Error).message}`);
    }
  };

  const byDistance = new Map<number, Item[]>();
  for (const i of r?.items ?? []) byDistance.set(i.distance, [...(byDistance.get(i.distance) ?? []), i]);
  return (
    <section aria-labelledby="impact-title">
      <header className="view-head">
        <h1 id="impact-title">
          Blast radius of <NodeLink id={node} label={nameOf(node)} /> <span className="muted">{namespaceOf(node)}</span>
        </h1>
        <form className="controls" onSubmit={(e) => e.preventDefault()}>
          <label>
            Depth
            <input type="number" min={1} max={20} value={depth} onChange={(e) => navigate(href('/impact', { node, depth: e.target.value }))} />
          </label>
          <Link to={href('/lineage', { node, up: 0, down: 4 })}>On the canvas</Link>
          <button type="button" onClick={exportCsv} disabled={!r}>
            Export CSV
          </button>
          {exporting ? <span role="status">{exporting}</span> : null}
        </form>
      </header>
      {q.error ? <ErrorBox error={q.error} onRetry={q.retry} /> : null}
      {!q.error && !r ? <Loading what="the blast radius" /> : null}
      {r ? (
        <>
          <div className="totals" data-testid="impact-totals">
            <Stat label="affected in all" value={r.totals.items} />
            <Stat label="datasets" value={r.totals.datasets} />
            <Stat label="jobs" value={r.totals.jobs} />
            <Stat label="fields" value={r.totals.fields} />
          </div>
          {r.truncated ? <p className="warn">Truncated ({r.truncatedBy.join(', ')}): more lies beyond what is counted here.</p> : null}
          <div className="columns">
            <CountTable title="By distance" rows={r.totals.byDistance} keyLabel="hops" />
            <CountTable title="By namespace" rows={r.totals.byNamespace} keyLabel="namespace" />
            <CountTable title="By owner" rows={r.totals.byOwner} keyLabel="owner" />
          </div>
          {[...byDistance.keys()]
            .sort((a, b) => a - b)
            .map((d) => (
              <div key={d}>
                <h2>
                  {d} {d === 1 ? 'hop' : 'hops'} away ({byDistance.get(d)!.length}
                  {r.pageInfo.hasNextPage ? ' on this page' : ''})
                </h2>
                <table className="grid">
                  <ColumnHeads names={['Kind', 'Name', 'Namespace', 'Owners', 'Last run']} />
                  <tbody>
                    {byDistance.get(d)!.map((i) => (
                      <tr key={i.id}>
                        <td>{i.kind.toLowerCase()}</td>
                        <td>
                          <NodeLink id={i.id} label={i.name} />
                        </td>
                        <td>{i.namespace}</td>
                        <td>{i.owners.join(', ') || <span className="muted">none</span>}</td>
                        <td>{i.lastRunState ? <span className={`state state-${i.lastRunState.toLowerCase()}`}>{i.lastRunState}</span> : ''}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ))}
          {r.pageInfo.hasNextPage ? <p className="muted">The first 500 items are listed; the CSV export has up to 20,000.</p> : null}
        </>
      ) : null}
    </section>
  );
}

export function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="stat">
      <div className="stat-value">{value}</div>
      <div className="stat-label">{label}</div>
    </div>
  );
}

function CountTable({ title, rows, keyLabel }: { title: string; rows: Count[]; keyLabel: string }) {
  return (
    <table className="grid compact">
      <caption>{title}</caption>
      <ColumnHeads names={[keyLabel, 'count']} />
      <tbody>
        {rows.slice(0, 15).map((c) => (
          <tr key={c.key}>
            <td>{c.key || <span className="muted">none</span>}</td>
            <td className="num">{c.count}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
