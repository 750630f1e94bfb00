import { useEffect, useMemo, useState } from 'react';
import { datasetOfField, gql, kindOfId } from '../api';
import { ErrorBox, Link, Loading, NodeLink, nameOf, namespaceOf } from '../components/common';
import { Graph } from '../components/Graph';
import { columnDrawing, datasetDrawing, fetchDatasetLineage, fetchFieldLineage, type Drawable, type Fetched } from '../lineage-data';
import { href, intParam, navigate, type Location } from '../route';

const MAX_DEPTH = 20;
const DEFAULT_CAP = 300;
const COLUMN_FIELDS = 60;

/**
 * The lineage canvas: /lineage?node=<id>&up=2&down=2&mode=dataset|column&asOf=<iso>&x=<expanded id>...&cap=300&meta=1
 * (meta=1: column mode shows and walks the metadata columns of table formats too).
 */
export function LineageView({ loc }: { loc: Location }) {
  const p = loc.params;
  const requested = p.get('node') ?? '';
  // A field opens the column view of its dataset.
  const node = kindOfId(requested) === 'FIELD' ? datasetOfField(requested) : requested;
  const mode = p.get('mode') === 'column' || kindOfId(requested) === 'FIELD' ? 'column' : 'dataset';
  const up = intParam(p, 'up', 2, 0, MAX_DEPTH);
  const down = intParam(p, 'down', 2, 0, MAX_DEPTH);
  const asOf = p.get('asOf');
  const cap = intParam(p, 'cap', DEFAULT_CAP, 10, 100_000);
  const expanded = p.getAll('x');
  const meta = p.get('meta') === '1';
  const [state, setState] = useState<{ drawing?: Drawable; fetched?: Fetched; error?: unknown; note?: string }>({});
  const [attempt, setAttempt] = useState(0);
  const [selected, setSelected] = useState<string | null>(null);

  const set = (changes: Record<string, string | number | null | string[]>) => {
    const next = new URLSearchParams(p);
    for (const [k, v] of Object.entries(changes)) {
      next.delete(k);
      if (Array.isArray(v)) v.forEach((x) => next.append(k, x));
      else if (v !== null && v !== '') next.set(k, String(v));
    }
    navigate(`/lineage?${next.toString()}`);
  };

  useEffect(() => {
    if (!node) return;
    const ctl = new AbortController();
    setState({});
    setSelected(null);
    (async () => {
      const d = await fetchDatasetLineage(node, up, down, asOf, mode === 'dataset' ? expanded : [], ctl.signal);
      if (mode === 'dataset') return { drawing: datasetDrawing(d, node, cap), fetched: d };
      const ds = await gql<{ dataset: { fields: { id: string; name: string; metadataColumn: boolean }[] } | null }>(
        `query($id: ID!) { dataset(id: $id) { fields { id name metadataColumn } } }`,
        { id: node },
        ctl.signal,
      );
      const allFields = ds.dataset?.fields ?? [];
      const rootFields = allFields.filter((x) => meta || !x.metadataColumn);
      const traced = rootFields.slice(0, COLUMN_FIELDS);
      const f = await fetchFieldLineage(traced.map((x) => x.id), Math.ceil(up / 2), Math.ceil(down / 2), asOf, meta, ctl.signal);
      f.truncatedBy.forEach((t) => d.truncatedBy.add(t));
      const hidden = allFields.length - rootFields.length;
      const notes = [
        rootFields.length > COLUMN_FIELDS ? `Column lineage of the first ${COLUMN_FIELDS} of ${rootFields.length} fields.` : '',
        hidden > 0 ? `${hidden} metadata column${hidden === 1 ? '' : 's'} of the table format not shown (${allFields.filter((x) => x.metadataColumn).slice(0, 3).map((x) => x.name).join(', ')}${hidden > 3 ? ', …' : ''}).` : '',
      ].filter(Boolean);
      const note = notes.length ? notes.join(' ') : undefined;
      return { drawing: columnDrawing(f, d, node, rootFields, cap), fetched: d, note };
    })().then(
      (s) => setState(s),
      (error) => ctl.signal.aborted || setState({ error }),
    );
    return () => ctl.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [node, up, down, asOf, mode, meta, cap, expanded.join('\n'), attempt]);

  const truncatedBy = state.fetched ? [...state.fetched.truncatedBy] : [];
  const drawing = state.drawing;
  const sideList = useMemo(() => (drawing ? [...drawing.nodes].sort((a, b) => (a.label < b.label ? -1 : 1)) : []), [drawing]);
  if (!node) return <p>Pick a dataset or job: search for it above.</p>;

  return (
    <section className="lineage" aria-labelledby="lineage-title">
      <header className="view-head">
        <h1 id="lineage-title">
          Lineage of <NodeLink id={node} label={nameOf(node)} /> <span className="muted">{namespaceOf(node)}</span>
        </h1>
        <form className="controls" onSubmit={(e) => e.preventDefault()} aria-label="lineage controls">
          <label>
            Upstream
            <input type="number" min={0} max={MAX_DEPTH} value={up} onChange={(e) => set({ up: e.target.value })} />
          </label>
          <label>
            Downstream
            <input type="number" min={0} max={MAX_DEPTH} value={down} onChange={(e) => set({ down: e.target.value })} />
          </label>
          <fieldset className="segmented">
            <legend className="sr-only">Granularity</legend>
            <label>
              <input type="radio" name="mode" checked={mode === 'dataset'} onChange={() => set({ mode: null, node })} /> Datasets and jobs
            </label>
            <label>
              <input type="radio" name="mode" checked={mode === 'column'} onChange={() => set({ mode: 'column', node })} /> Columns
            </label>
          </fieldset>
          {mode === 'column' ? (
            <label title="Columns the table format computes per row (Iceberg's _file, _pos, _spec_id, ...; Delta's _metadata): kept, left out unless asked">
              <input type="checkbox" checked={meta} onChange={(e) => set({ meta: e.target.checked ? '1' : null })} /> Metadata columns
            </label>
          ) : null}
          <label>
            As of (UTC)
            <input
              type="datetime-local"
              value={asOf ? asOf.slice(0, 16) : ''}
              onChange={(e) => set({ asOf: e.target.value ? new Date(`${e.target.value}Z`).toISOString() : null })}
            />
          </label>
          {asOf ? (
            <button type="button" onClick={() => set({ asOf: null })}>
              Now
            </button>
          ) : null}
          <Link to={href('/impact', { node })}>Blast radius</Link>
        </form>
      </header>
      <Legend column={mode === 'column'} />
      {state.error ? <ErrorBox error={state.error} onRetry={() => setAttempt((a) => a + 1)} /> : null}
      {!state.error && !drawing ? <Loading what="lineage" /> : null}
      {drawing ? (
        <>
          <div className="notices" aria-live="polite">
            <span data-testid="node-count">
              {drawing.nodes.length} of {drawing.total} nodes drawn
            </span>
            {truncatedBy.length > 0 ? (
              <span className="warn" data-testid="truncated">
                Truncated: {truncatedBy.map((t) => (t === 'DEPTH' ? 'lineage continues beyond this depth' : 'the server node limit was reached')).join('; ')}.
                {truncatedBy.includes('DEPTH') ? (
                  <button type="button" onClick={() => set({ up: Math.min(MAX_DEPTH, up + 2), down: Math.min(MAX_DEPTH, down + 2) })}>
                    Go deeper
                  </button>
                ) : null}
              </span>
            ) : null}
            {drawing.hidden > 0 ? (
              <span className="warn" data-testid="capped">
                {drawing.hidden} more nodes not drawn (nearest first).
                <button type="button" onClick={() => set({ cap: cap + DEFAULT_CAP })}>
                  Show more
                </button>
              </span>
            ) : null}
            {state.note ? <span className="muted">{state.note}</span> : null}
          </div>
          <div className="canvas-row">
            <Graph nodes={drawing.nodes} edges={drawing.edges} onOpen={setSelected} label={`lineage graph of ${nameOf(node)}`} />
            <aside className="side" aria-label="nodes in this lineage">
              {selected ? (
                <div className="selected" aria-live="polite">
                  <h2>{nameOf(selected)}</h2>
                  <div className="muted">{namespaceOf(selected)}</div>
                  <ul className="actions">
                    <li>
                      <NodeLink id={selected} label="Open its page" />
                    </li>
                    <li>
                      <Link to={href('/lineage', { node: selected, up, down, mode: mode === 'column' ? 'column' : null, asOf })}>Lineage from here</Link>
                    </li>
                    {mode === 'dataset' && !expanded.includes(selected) && selected !== node ? (
                      <li>
                        <button type="button" onClick={() => set({ x: [...expanded, selected] })}>
                          Expand its next hop
                        </button>
                      </li>
                    ) : null}
                    {kindOfId(selected) === 'DATASET' ? (
                      <li>
                        <Link to={href('/impact', { node: selected })}>Blast radius</Link>
                      </li>
                    ) : null}
                  </ul>
                </div>
              ) : (
                <p className="muted">Click a node for its actions.</p>
              )}
              <h2>Nodes</h2>
              <ul className="node-list">
                {sideList.map((n) => (
                  <li key={n.id}>
                    <button type="button" className="linkish" onClick={() => setSelected(n.id)} aria-label={`select ${n.kind === 'JOB' ? 'job' : 'dataset'} ${n.label}`}>
                      {n.kind === 'JOB' ? '⚙' : '▦'} {n.label}
                    </button>
                    {n.aliases?.length ? <span className="muted"> (also {n.aliases.join(', ')})</span> : null}
                  </li>
                ))}
              </ul>
            </aside>
          </div>
        </>
      ) : null}
    </section>
  );
}

function Legend({ column }: { column: boolean }) {
  return (
    <ul className="legend" aria-label="legend">
      {column ? (
        <>
          <li>
            <span className="swatch swatch-field" /> column lineage (label: transformation)
          </li>
          <li>
            <span className="swatch swatch-indirect" /> INDIRECT (filter, join, group by…)
          </li>
          <li>
            <span className="swatch swatch-dataset" /> dataset level only: no column lineage through that job
          </li>
          <li>
            <span className="swatch swatch-collected" /> collected: a Kafka Connect connector&apos;s configuration, no producer reports it
          </li>
          <li>
            <span className="swatch swatch-declared" /> declared: the job&apos;s SQL names the table, its events do not
          </li>
        </>
      ) : (
        <>
          <li>
            <span className="swatch swatch-column" /> job → output with column lineage
          </li>
          <li>
            <span className="swatch swatch-dataset" /> job → output at dataset level only
          </li>
          <li>
            <span className="swatch swatch-plain" /> read
          </li>
          <li>
            <span className="swatch swatch-collected" /> collected: a Kafka Connect connector&apos;s configuration, no producer reports it
          </li>
          <li>
            <span className="swatch swatch-declared" /> declared: the job&apos;s SQL names the table, its events do not
          </li>
        </>
      )}
    </ul>
  );
}
