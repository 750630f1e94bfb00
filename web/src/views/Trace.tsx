import { useMemo } from 'react';
import { datasetOfField, kindOfId } from '../api';
import { ErrorBox, Link, Loading, NodeLink, nameOf, namespaceOf } from '../components/common';
import { Graph, type GraphEdge, type GraphNode } from '../components/Graph';
import { href, intParam, navigate, type Location } from '../route';
import { useQuery } from '../use-query';

interface Hop {
  distance: number;
  fromId: string;
  toId: string;
  granularity: 'FIELD' | 'DATASET';
  precisionLost: boolean;
  jobId: string;
  types: string[] | null;
  subtypes: string[] | null;
  evidence?: 'REPORTED' | 'COLLECTED' | 'DECLARED';
  declared?: { role: string; name: string; line: number; column: number }[];
}
interface StopCandidate {
  id: string;
  kind: string;
  strength: string;
  evidence: string[];
  rule: string | null;
}
interface Stop {
  datasetId: string;
  distance: number;
  reason: string;
  explanation: string;
  candidates: StopCandidate[];
}
interface TraceAnswer {
  stops: Stop[];
  truncated: boolean;
  truncatedBy: string[];
  start: { id: string; name: string; namespace: string; kind: string };
  nodes: { id: string; kind: string; name: string; namespace: string; distance: number; datasetId: string | null }[];
  hops: Hop[];
  unfollowed: Pick<Hop, 'jobId' | 'declared'>[];
}

// The first precision loss is the first hop with precisionLost (the API's firstPrecisionLoss, in
// its hop order), read off the hops: the query stays within the server's cost limit at depth 20.
const HOP = 'distance fromId toId granularity precisionLost jobId types subtypes evidence declared { role name line column }';
const TRACE = `query Trace($id: ID!, $dir: LineageDirection!, $depth: Int, $asOf: String, $deps: Dependencies!, $meta: Boolean!, $ev: Evidence!) {
  trace(nodeId: $id, direction: $dir, depth: $depth, asOf: $asOf, dependencies: $deps, metadataColumns: $meta, evidence: $ev) {
    truncated truncatedBy start { id name namespace kind }
    stops { datasetId distance reason explanation candidates { id kind strength evidence rule } }
    nodes { id kind name namespace distance datasetId }
    hops { ${HOP} }
    unfollowed { jobId declared { role name } }
  }
}`;

const firstLoss = (t: TraceAnswer): Hop | null => t.hops.find((h) => h.precisionLost) ?? null;
const sameHop = (a: Hop, b: Hop | null) => !!b && a.fromId === b.fromId && a.toId === b.toId && a.jobId === b.jobId;
const datasetOf = (id: string) => (kindOfId(id) === 'FIELD' ? datasetOfField(id) : id);

/**
 * Trace a value: /trace?node=<field id>&dir=UPSTREAM|DOWNSTREAM&depth=N&asOf=<iso>&deps=all&meta=1.
 * DIRECT column dependencies first (where the value comes from); deps=all adds the INDIRECT ones
 * (filters, joins, group-by keys), which fan out to every field of an output; meta=1 also walks
 * through metadata columns of table formats (Iceberg's _file, _pos, ...); ev=all also follows the
 * edges Tributary collected and the tables jobs' SQL declares (evidence ALL), drawn in their styles.
 */
export function TraceView({ loc }: { loc: Location }) {
  const p = loc.params;
  const node = p.get('node') ?? '';
  const dir = p.get('dir') === 'DOWNSTREAM' ? 'DOWNSTREAM' : 'UPSTREAM';
  const depth = intParam(p, 'depth', 10, 1, 20);
  const asOf = p.get('asOf');
  const deps = p.get('deps') === 'all' ? 'ALL' : 'DIRECT';
  const meta = p.get('meta') === '1';
  const ev = p.get('ev') === 'all' ? 'ALL' : 'REPORTED';
  const q = useQuery<{ trace: TraceAnswer }>(node ? TRACE : null, { id: node, dir, depth, asOf, deps, meta, ev });
  const state = { trace: q.data?.trace, error: q.error };

  const drawing = useMemo(() => (state.trace ? traceDrawing(state.trace) : null), [state.trace]);
  if (!node) return <p>Pick a field to trace: search for it above, or open a dataset and choose one of its fields.</p>;
  const t = state.trace;
  const loss = t ? firstLoss(t) : null;
  const set = (k: string, v: string | number) => {
    const next = new URLSearchParams(p);
    next.set(k, String(v));
    navigate(`/trace?${next.toString()}`);
  };
  return (
    <section aria-labelledby="trace-title">
      <header className="view-head">
        <h1 id="trace-title">
          Trace of <span className="mono">{nameOf(node)}</span> <span className="muted">{namespaceOf(node)}</span>
        </h1>
        <form className="controls" onSubmit={(e) => e.preventDefault()} aria-label="trace controls">
          <fieldset className="segmented">
            <legend className="sr-only">Direction</legend>
            <label>
              <input type="radio" name="dir" checked={dir === 'UPSTREAM'} onChange={() => set('dir', 'UPSTREAM')} /> Back to the sources
            </label>
            <label>
              <input type="radio" name="dir" checked={dir === 'DOWNSTREAM'} onChange={() => set('dir', 'DOWNSTREAM')} /> Forward to the consumers
            </label>
          </fieldset>
          <label>
            Depth
            <input type="number" min={1} max={20} value={depth} onChange={(e) => set('depth', e.target.value)} />
          </label>
          <label title="Filters, joins and group-by keys: they shape every field of an output">
            <input type="checkbox" checked={deps === 'ALL'} onChange={(e) => set('deps', e.target.checked ? 'all' : 'direct')} /> Indirect dependencies too
          </label>
          <label title="Columns the table format computes per row (Iceberg's _file, _pos, _spec_id, ...; Delta's _metadata): kept, left out of the trace unless asked">
            <input type="checkbox" checked={meta} onChange={(e) => set('meta', e.target.checked ? '1' : '0')} /> Metadata columns too
          </label>
          <label title="Also the edges Tributary collected (Kafka Connect connectors) and the tables jobs' SQL names where their events do not (DECLARED)">
            <input type="checkbox" checked={ev === 'ALL'} onChange={(e) => set('ev', e.target.checked ? 'all' : 'reported')} /> Collected and declared too
          </label>
          <Link to={href('/lineage', { node: datasetOf(node), mode: 'column' })}>Column lineage</Link>
        </form>
      </header>
      {state.error ? <ErrorBox error={state.error} onRetry={q.retry} /> : null}
      {!state.error && !t ? <Loading what="the trace" /> : null}
      {t && drawing ? (
        <>
          <div className="notices" aria-live="polite">
            <span data-testid="hop-count">{t.hops.length} hops</span>
            {loss ? (
              <span className="loss-note" data-testid="precision-loss">
                Precision is first lost at hop {loss.distance}: {nameOf(loss.jobId)} connects {nameOf(loss.fromId)} → {nameOf(loss.toId)} at dataset level only.
              </span>
            ) : (
              <span className="ok-note" data-testid="precision-kept">
                {t.hops.some((h) => h.evidence === 'DECLARED')
                  ? 'Column level wherever producers report lineage; the declared hops are dataset level (SQL names tables, not columns).'
                  : 'Column level all the way.'}
              </span>
            )}
            {t.truncated ? <span className="warn">Truncated ({t.truncatedBy.join(', ')}): the trace continues beyond.</span> : null}
            {t.unfollowed.length > 0 ? (
              <span className="warn" data-testid="unfollowed">
                {t.unfollowed.length} hop{t.unfollowed.length === 1 ? '' : 's'} that jobs&apos; SQL declares {t.unfollowed.length === 1 ? 'is' : 'are'} not followed
                (first: {nameOf(t.unfollowed[0]!.jobId)} {t.unfollowed[0]!.declared?.[0]?.role === 'OUTPUT' ? 'writes' : 'reads'} {t.unfollowed[0]!.declared?.[0]?.name}).{' '}
                <button type="button" onClick={() => set('ev', 'all')}>
                  Follow them
                </button>
              </span>
            ) : null}
          </div>
          <Stops stops={t.stops} onShowMetadata={meta ? undefined : () => set('meta', '1')} />
          <div className="canvas-row">
            <Graph nodes={drawing.nodes} edges={drawing.edges} label={`trace of ${nameOf(node)}`} focus={drawing.focus} />
            <aside className="side" aria-label="hops">
              <h2>Hops</h2>
              <ol className="hops">
                {[...t.hops]
                  .sort((a, b) => a.distance - b.distance)
                  .map((h) => (
                    <li key={`${h.fromId}|${h.toId}|${h.jobId}`} className={sameHop(h, loss) ? 'hop-loss' : h.granularity === 'DATASET' ? 'hop-dataset' : 'hop-field'}>
                      <span className="hop-d">{h.distance}</span> <span className="mono">{nameOf(h.fromId)}</span> → <span className="mono">{nameOf(h.toId)}</span>
                      <div className="muted">
                        {h.granularity === 'FIELD' ? `field level, ${(h.subtypes ?? h.types ?? []).join(', ') || 'no transformation type'}` : 'dataset level only'} · by{' '}
                        <NodeLink id={h.jobId} />
                        {sameHop(h, loss) ? <strong className="loss-tag"> first precision loss</strong> : null}
                        {h.evidence === 'DECLARED' ? <span className="evidence-tag"> · declared: {declaredText(h)}</span> : null}
                        {h.evidence === 'COLLECTED' ? <span className="evidence-tag"> · collected by Tributary, no producer reports it</span> : null}
                      </div>
                    </li>
                  ))}
              </ol>
            </aside>
          </div>
        </>
      ) : null}
    </section>
  );
}

const REASON: Record<string, string> = {
  ORIGIN: 'where the data enters',
  END: 'where lineage ends',
  OTHER_NAME: 'another name',
  UNREPORTED_WRITER: 'an unreported writer',
  UNREPORTED_READER: 'an unreported reader',
  METADATA_COLUMN: 'metadata columns left out',
};

/** Where lineage stops within the trace, why, and what would join it again (the rule to copy). */
function Stops({ stops, onShowMetadata }: { stops: Stop[]; onShowMetadata?: () => void }) {
  if (stops.length === 0) return null;
  return (
    <section className="stops" aria-label="where lineage stops" data-testid="stops">
      <h2>Where lineage stops</h2>
      <ul>
        {stops.map((s) => (
          <li key={`${s.datasetId}|${s.reason}`} className={`stop stop-${s.reason.toLowerCase()}`}>
            <span className="stop-reason">{REASON[s.reason] ?? s.reason}</span> <NodeLink id={s.datasetId} /> <span className="muted">hop {s.distance}</span>
            <p className="stop-text">{s.explanation}</p>
            {s.reason === 'METADATA_COLUMN' && onShowMetadata ? (
              <button type="button" onClick={onShowMetadata}>
                Follow the metadata columns
              </button>
            ) : null}
            {s.candidates.map((c) => (
              <details key={c.id}>
                <summary>
                  {c.strength.toLowerCase()}: <NodeLink id={c.id} />
                </summary>
                <ul className="evidence">
                  {c.evidence.map((e) => (
                    <li key={e}>{e}</li>
                  ))}
                </ul>
                {c.rule ? (
                  <>
                    <p className="muted">Identity rule (TRIBUTARY_IDENTITY_RULES) that joins the names:</p>
                    <pre className="rule">{JSON.stringify(JSON.parse(c.rule), null, 2)}</pre>
                  </>
                ) : null}
              </details>
            ))}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Datasets holding the traced fields, field hops between fields, dataset hops between datasets; the first loss marked. */
function traceDrawing(t: TraceAnswer): { nodes: GraphNode[]; edges: GraphEdge[]; focus: string[] } {
  const datasets = new Map<string, GraphNode>();
  const touch = (id: string) => {
    const ds = datasetOf(id);
    if (!datasets.has(ds)) datasets.set(ds, { id: ds, kind: 'DATASET', label: nameOf(ds), namespace: namespaceOf(ds), fields: [] });
    const n = datasets.get(ds)!;
    if (kindOfId(id) === 'FIELD' && !n.fields!.some((f) => f.id === id)) n.fields!.push({ id, name: nameOf(id).slice(nameOf(ds).length + 1), marked: id === t.start.id });
    return n;
  };
  touch(t.start.id).root = true;
  const loss = firstLoss(t);
  // Field hops join fields; dataset-level hops of one job between two datasets are one edge (the
  // loss, when one of them is the first loss).
  const edges = new Map<string, GraphEdge>();
  for (const h of t.hops) {
    touch(h.fromId);
    const target = touch(h.toId);
    const isLoss = sameHop(h, loss);
    if (isLoss) {
      target.badge = 'precision lost here';
      target.badgeTone = 'loss';
    }
    const [from, to] = [datasetOf(h.fromId), datasetOf(h.toId)];
    if (h.granularity === 'FIELD') {
      edges.set(`${h.fromId}|${h.toId}|${h.jobId}`, {
        id: `${h.fromId}|${h.toId}|${h.jobId}`,
        source: from,
        target: to,
        sourceField: kindOfId(h.fromId) === 'FIELD' ? h.fromId : undefined,
        targetField: kindOfId(h.toId) === 'FIELD' ? h.toId : undefined,
        tone: 'field',
        label: (h.subtypes ?? h.types ?? []).join(', ') || undefined,
        title: `${nameOf(h.fromId)} → ${nameOf(h.toId)} by ${nameOf(h.jobId)}`,
      });
      continue;
    }
    const key = `${from}|${to}|${h.jobId}`;
    if (h.evidence === 'DECLARED' || h.evidence === 'COLLECTED') {
      const declared = h.evidence === 'DECLARED';
      edges.set(key, {
        id: key,
        source: from,
        target: to,
        tone: declared ? 'declared' : 'collected',
        label: `${declared ? 'declared' : 'collected'}: ${nameOf(h.jobId)}`,
        title: declared ? `${nameOf(from)} → ${nameOf(to)} by ${nameOf(h.jobId)}: ${declaredText(h)}` : `${nameOf(from)} → ${nameOf(to)} by ${nameOf(h.jobId)}, collected by Tributary; no producer reports it`,
      });
      continue;
    }
    const lossHere = isLoss || edges.get(key)?.tone === 'loss';
    edges.set(key, {
      id: key,
      source: from,
      target: to,
      tone: lossHere ? 'loss' : 'dataset',
      label: lossHere ? `precision lost: ${nameOf(h.jobId)}` : `dataset level: ${nameOf(h.jobId)}`,
      title: `${nameOf(from)} → ${nameOf(to)} by ${nameOf(h.jobId)}, which reports no column lineage`,
    });
  }
  for (const st of t.stops) {
    const n = datasets.get(st.datasetId);
    if (n && !n.badge) {
      n.badge = `lineage stops: ${REASON[st.reason] ?? st.reason}`;
      n.badgeTone = 'stop';
    }
  }
  for (const n of datasets.values()) n.fields!.sort((a, b) => (a.name < b.name ? -1 : 1));
  // The first view shows the start and the hop where precision is lost (or the first hops).
  const focus = loss ? [datasetOf(t.start.id), datasetOf(loss.fromId), datasetOf(loss.toId)] : [datasetOf(t.start.id), ...t.hops.filter((h) => h.distance === 1).map((h) => datasetOf(h.fromId))];
  return { nodes: [...datasets.values()], edges: [...edges.values()], focus: [...new Set(focus)] };
}

/** A DECLARED hop's evidence in words: what the job's SQL reads and writes, and where. */
function declaredText(h: Hop): string {
  return (h.declared ?? []).map((d) => `its SQL ${d.role === 'OUTPUT' ? 'writes' : 'reads'} ${d.name} (line ${d.line}, column ${d.column})`).join('; ') + ', which its events do not list';
}
