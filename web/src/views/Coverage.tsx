import { ColumnHeads, ErrorBox, Link, Loading, NodeLink, pct } from '../components/common';
import { href, navigate, type Location } from '../route';
import { useQuery } from '../use-query';
import { RecentChanges } from './Changes';
import { Stat } from './Impact';

interface Figures {
  key: string;
  edges: number;
  columnLevel: number;
  datasetLevelOnly: number;
  columnLevelShare: number;
  outputFields: number;
  fieldsWithInputs: number;
  fieldShare: number;
  collectedEdges: number;
  declaredEdges: number;
}
interface Answer {
  coverage: { overall: Figures; byEngine: Figures[]; byNamespace: Figures[]; byJob: Figures[]; truncated: boolean; trend: { start: string; edges: number; columnLevel: number; columnLevelShare: number }[] };
  coverageGaps: {
    totalGaps: number;
    truncated: boolean;
    gaps: { jobId: string; datasetId: string; engine: string; namespace: string; downstreamDatasets: number; downstreamJobs: number; impactTruncated: boolean }[];
    totalLineageUnknown: number;
    lineageUnknown: { jobId: string; engine: string; reason: string; lastSeen: string | null }[];
  };
  lineageBreaks: { truncated: boolean; sources: { id: string }[]; sinks: { id: string }[]; probableMatches: { sourceId: string; writtenId: string; strength: string; rule: string; evidence: string[] }[];
    declaredJobs: { datasetId: string; role: string; jobId: string; direction: string; strength: string; name: string; line: number; column: number; silent: boolean }[] };
}

const FIG = 'key edges columnLevel datasetLevelOnly columnLevelShare outputFields fieldsWithInputs fieldShare collectedEdges declaredEdges';
const QUERY = `query Coverage($scope: CoverageScope!, $value: String, $ns: String) {
  coverage(scope: $scope, value: $value) { truncated overall { ${FIG} } byEngine { ${FIG} } byNamespace { ${FIG} } byJob { ${FIG} } trend { start edges columnLevel columnLevelShare } }
  coverageGaps(scope: $scope, value: $value, first: 20) { totalGaps truncated gaps { jobId datasetId engine namespace downstreamDatasets downstreamJobs impactTruncated } totalLineageUnknown lineageUnknown { jobId engine reason lastSeen } }
  lineageBreaks(namespace: $ns) { truncated sources { id } sinks { id } probableMatches { sourceId writtenId strength rule evidence }
    declaredJobs { datasetId role jobId direction strength name line column silent } }
}`;

type SortKey = 'key' | 'edges' | 'columnLevelShare' | 'fieldShare';

/** Coverage dashboard: /coverage?scope=ALL|NAMESPACE|ENGINE&value=...&sort=...&days=1|7|30 (with days: the changes of that period) */
export function CoverageView({ loc }: { loc: Location }) {
  const scope = (['ALL', 'NAMESPACE', 'ENGINE', 'JOB'].includes(loc.params.get('scope') ?? '') ? loc.params.get('scope') : 'ALL') as string;
  const value = scope === 'ALL' ? null : loc.params.get('value');
  const sort = (loc.params.get('sort') ?? 'columnLevelShare') as SortKey;
  // The changes panel reads two snapshots of the scope: only when asked (?days=).
  const days = [1, 7, 30].includes(Number(loc.params.get('days'))) ? Number(loc.params.get('days')) : null;
  const state = useQuery<Answer>(QUERY, { scope, value, ns: scope === 'NAMESPACE' ? value : null });
  const c = state.data?.coverage;
  const to = (s: string, v: string | null, k: SortKey = sort, d: number | null = days) =>
    href('/coverage', { scope: s === 'ALL' ? null : s, value: v, sort: k === 'columnLevelShare' ? null : k, days: d });
  return (
    <section aria-labelledby="coverage-title">
      <header className="view-head">
        <h1 id="coverage-title">Coverage{value ? `: ${value}` : ''}</h1>
        {scope !== 'ALL' ? <Link to={to('ALL', null)}>All of it</Link> : null}
      </header>
      {state.error ? <ErrorBox error={state.error} onRetry={state.retry} /> : null}
      {!state.error && !c ? <Loading what="coverage" /> : null}
      {c && state.data ? (
        <>
          <div className="totals" data-testid="coverage-overall">
            <Stat label="job → output edges with column lineage" value={pct(c.overall.columnLevelShare)} />
            <Stat label="edges" value={c.overall.edges} />
            <Stat label="column level" value={c.overall.columnLevel} />
            <Stat label="dataset level only" value={c.overall.datasetLevelOnly} />
            <Stat label="output fields with an input field" value={pct(c.overall.fieldShare)} />
          </div>
          {c.overall.collectedEdges > 0 ? (
            <p className="muted" data-testid="collected-edges">
              Not counted above: {c.overall.collectedEdges} edge{c.overall.collectedEdges === 1 ? '' : 's'} of Kafka Connect connectors, whose lineage Tributary
              collected from the Connect REST API because no producer reports it.
            </p>
          ) : null}
          {c.overall.declaredEdges > 0 ? (
            <p className="muted" data-testid="declared-edges">
              Not counted above{c.overall.collectedEdges > 0 ? ' either' : ''}: {c.overall.declaredEdges} output edge{c.overall.declaredEdges === 1 ? '' : 's'} that jobs&apos; SQL declares and their events do
              not report (DECLARED lineage; a trace follows {c.overall.declaredEdges === 1 ? 'it' : 'them'} with evidence: ALL).
            </p>
          ) : null}
          <Trend points={c.trend} />
          {days ? (
            <RecentChanges scope={scope} value={value} days={days} periodHref={(d) => to(scope, value, sort, d)} />
          ) : (
            <p>
              <Link to={to(scope, value, sort, 7)}>What changed in the last 7 days?</Link>
            </p>
          )}
          <div className="columns">
            <FigureTable title="By engine" rows={c.byEngine} sort={sort} link={(k) => to('ENGINE', k)} sortTo={(k) => to(scope, value, k)} />
            <FigureTable title="By namespace" rows={c.byNamespace} sort={sort} link={(k) => to('NAMESPACE', k)} sortTo={(k) => to(scope, value, k)} />
          </div>
          <FigureTable title={`By job${c.truncated ? ' (partial)' : ''}`} rows={c.byJob.slice(0, 200)} sort={sort} link={(k) => href('/job', { id: k })} sortTo={(k) => to(scope, value, k)} />
          <h2>What to instrument next</h2>
          <p className="muted">
            Jobs that write an output at dataset level only, ranked by how much lies downstream ({state.data.coverageGaps.totalGaps} such edges).
          </p>
          <table className="grid" data-testid="gaps">
            <ColumnHeads names={['Job', 'Output', 'Engine', 'Downstream datasets', 'Downstream jobs']} />
            <tbody>
              {state.data.coverageGaps.gaps.map((g) => (
                <tr key={`${g.jobId}|${g.datasetId}`}>
                  <td>
                    <NodeLink id={g.jobId} />
                  </td>
                  <td>
                    <Link to={href('/lineage', { node: g.datasetId })}>{g.datasetId.split(':').slice(2).join(':')}</Link>
                  </td>
                  <td>{g.engine}</td>
                  <td className="num">
                    {g.downstreamDatasets}
                    {g.impactTruncated ? '+' : ''}
                  </td>
                  <td className="num">{g.downstreamJobs}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {state.data.coverageGaps.totalLineageUnknown > 0 ? (
            <>
              <h3>Lineage unknown</h3>
              <p className="muted">
                {state.data.coverageGaps.totalLineageUnknown} job{state.data.coverageGaps.totalLineageUnknown === 1 ? '' : 's'} run but nobody reports what they read or
                write (for example a Kafka Connect connector of a class Tributary does not map): no edge to rank, never a guess.
              </p>
              <table className="grid" data-testid="lineage-unknown">
                <ColumnHeads names={['Job', 'Engine', 'Why', 'Last seen']} />
                <tbody>
                  {state.data.coverageGaps.lineageUnknown.map((j) => (
                    <tr key={j.jobId}>
                      <td>
                        <NodeLink id={j.jobId} />
                      </td>
                      <td>{j.engine}</td>
                      <td>{j.reason}</td>
                      <td>{j.lastSeen ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          ) : null}
          <h2>Lineage breaks{scope === 'NAMESPACE' ? ` in ${value}` : ''}</h2>
          {scope === 'ENGINE' || scope === 'JOB' ? <p className="muted">Breaks are found per namespace or for everything; these are for everything.</p> : null}
          <p className="muted">
            {state.data.lineageBreaks.sources.length} datasets read but never written, {state.data.lineageBreaks.sinks.length} written but never read; probable matches
            across engines with their evidence:
          </p>
          <ul className="breaks">
            {state.data.lineageBreaks.probableMatches.slice(0, 50).map((m) => (
              <li key={`${m.sourceId}|${m.writtenId}`}>
                <strong>{m.strength}</strong> <NodeLink id={m.sourceId} /> (read) may be <NodeLink id={m.writtenId} /> (written)
                <div className="muted">{m.evidence.join('; ')}</div>
              </li>
            ))}
          </ul>
          {state.data.lineageBreaks.declaredJobs.length > 0 ? (
            <>
              <p className="muted">Breaks a job&apos;s SQL declares the missing edge of (DECLARED lineage; a trace follows the STRONG ones with evidence: ALL):</p>
              <ul className="breaks" data-testid="declared-breaks">
                {state.data.lineageBreaks.declaredJobs.slice(0, 50).map((d) => (
                  <li key={`${d.datasetId}|${d.jobId}|${d.direction}`}>
                    <strong>{d.strength}</strong> <NodeLink id={d.datasetId} /> ({d.role === 'SOURCE' ? 'read, never written' : 'written, never read'}):{' '}
                    <NodeLink id={d.jobId} />
                    {`'s SQL ${d.direction === 'OUTPUT' ? 'writes' : 'reads'} ${d.name} (line ${d.line}, column ${d.column})`}
                    <div className="muted">{d.silent ? (d.direction === 'OUTPUT' ? 'the job reports no output at all' : 'the job reports no input at all') : 'its events do not report this edge'}</div>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function FigureTable({ title, rows, sort, link, sortTo }: { title: string; rows: Figures[]; sort: SortKey; link: (key: string) => string; sortTo: (k: SortKey) => string }) {
  const sorted = [...rows].sort((a, b) => (sort === 'key' ? (a.key < b.key ? -1 : 1) : (b[sort] as number) - (a[sort] as number)));
  const head = (k: SortKey, label: string) => (
    <th scope="col" aria-sort={sort === k ? (k === 'key' ? 'ascending' : 'descending') : 'none'}>
      <a href={sortTo(k)} onClick={(e) => (e.preventDefault(), navigate(sortTo(k), true))}>
        {label}
      </a>
    </th>
  );
  return (
    <table className="grid">
      <caption>{title}</caption>
      <thead>
        <tr>
          {head('key', 'name')}
          {head('edges', 'edges')}
          {head('columnLevelShare', 'column level')}
          {head('fieldShare', 'fields with inputs')}
        </tr>
      </thead>
      <tbody>
        {sorted.map((f) => (
          <tr key={f.key}>
            <td>
              <Link to={link(f.key)}>{f.key}</Link>
            </td>
            <td className="num">{f.edges}</td>
            <td className="num">
              <Bar share={f.columnLevelShare} /> {pct(f.columnLevelShare)}
            </td>
            <td className="num">{pct(f.fieldShare)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Bar({ share }: { share: number }) {
  return (
    <span className="bar" aria-hidden="true">
      <span style={{ width: `${Math.round(share * 100)}%` }} />
    </span>
  );
}

/** The share per week that had edges (weeks without any are left out, not drawn as 0%). */
function Trend({ points: all }: { points: { start: string; edges: number; columnLevelShare: number }[] }) {
  const points = all.filter((p) => p.edges > 0);
  if (points.length < 2) return null;
  const [w, h] = [640, 140];
  const x = (i: number) => 30 + (i * (w - 40)) / (points.length - 1);
  const y = (s: number) => 10 + (1 - s) * (h - 30);
  const path = points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.columnLevelShare).toFixed(1)}`).join(' ');
  return (
    <figure className="trend">
      <svg viewBox={`0 0 ${w} ${h}`} role="img" aria-label={`column-level share over time, from ${pct(points[0]!.columnLevelShare)} to ${pct(points[points.length - 1]!.columnLevelShare)}`}>
        <line x1={30} x2={w - 10} y1={y(0)} y2={y(0)} className="axis" />
        <line x1={30} x2={w - 10} y1={y(1)} y2={y(1)} className="axis faint" />
        <text x={0} y={y(1) + 4} className="tick">
          100%
        </text>
        <text x={8} y={y(0) + 4} className="tick">
          0%
        </text>
        <path d={path} className="trend-line" />
        {points.map((p, i) => (
          <circle key={p.start} cx={x(i)} cy={y(p.columnLevelShare)} r={3} className="trend-dot">
            <title>{`${p.start.slice(0, 10)}: ${pct(p.columnLevelShare)} of ${p.edges} edges`}</title>
          </circle>
        ))}
      </svg>
      <figcaption>
        Column-level share of the weeks with job → output edges ({points.length}), {points[0]!.start.slice(0, 10)} to {points[points.length - 1]!.start.slice(0, 10)}
      </figcaption>
    </figure>
  );
}
