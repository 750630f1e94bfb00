import { useEffect, useState, type ReactNode } from 'react';
import { gql } from '../api';
import { ColumnHeads, ErrorBox, Link, Loading, NodeLink } from '../components/common';
import { href, type Location } from '../route';
import { useQuery } from '../use-query';

const DATASET = `query Dataset($id: ID!) { dataset(id: $id) {
  id name namespace description owners datasetType storageLayer fileFormat lifecycleState firstSeen lastSeen rawNames facets
  fields { id name type description metadataColumn } producers { id name namespace } consumers { id name namespace } } }`;

/** The writers and readers of a dataset's other (symlinked) names: the same dataset to its users. */
function useAliases(ids: string[]): Any[] {
  const [aliases, setAliases] = useState<Any[]>([]);
  const key = ids.join('\n');
  useEffect(() => {
    setAliases([]);
    if (ids.length === 0) return;
    const ctl = new AbortController();
    const vars = ids.map((_x, i) => `$a${i}: ID!`).join(', ');
    const parts = ids.map((_x, i) => `a${i}: dataset(id: $a${i}) { id name namespace producers { id name } consumers { id name } }`).join(' ');
    gql<Any>(`query Aliases(${vars}) { ${parts} }`, Object.fromEntries(ids.map((id, i) => [`a${i}`, id])), ctl.signal).then(
      (d) => setAliases(Object.values(d).filter(Boolean)),
      () => undefined,
    );
    return () => ctl.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return aliases;
}
const JOB = `query Job($id: ID!) { job(id: $id) {
  id name namespace description owners jobType integration processingType sql sourceCodeLanguage sourceCodeUrl firstSeen lastSeen facets
  inputs { id name } outputs { id name }
  versions { id inputs outputs codeSig runs firstSeen lastSeen }
  runs(first: 20) { total items { id runId state startedAt endedAt errorMessage } } } }`;
const RUN = `query Run($id: ID!) { run(id: $id) {
  id runId state startedAt endedAt nominalStartTime errorMessage engineName engineVersion facets
  job { id name namespace } parent { id job { id name } } inputs { id name } outputs { id name }
  upstreamRuns { runId datasetId run { job { id name } state } } downstreamRuns { runId datasetId run { job { id name } state } } } }`;

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function useEntity(query: string, id: string, key: string): { value?: Any | null; error?: unknown; retry: () => void } {
  const q = useQuery<Any>(query, { id });
  return { value: q.data ? (q.data[key] ?? null) : undefined, error: q.error, retry: q.retry };
}

function Shell({ kind, id, entity, children }: { kind: string; id: string; entity: ReturnType<typeof useEntity>; children: (v: Any) => ReactNode }) {
  if (entity.error) return <ErrorBox error={entity.error} onRetry={entity.retry} />;
  if (entity.value === undefined) return <Loading what={`the ${kind}`} />;
  if (entity.value === null)
    return (
      <div role="alert" className="error">
        No {kind} has the id <code>{id}</code>. Search for it by name above.
      </div>
    );
  return <>{children(entity.value)}</>;
}

const duration = (from?: string | null, to?: string | null) => {
  if (!from || !to) return '';
  const s = (Date.parse(to) - Date.parse(from)) / 1000;
  return s < 120 ? `${s.toFixed(1)} s` : s < 7200 ? `${(s / 60).toFixed(1)} min` : `${(s / 3600).toFixed(1)} h`;
};

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="facts">
      {rows
        .filter(([, v]) => v !== null && v !== undefined && v !== '')
        .map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
    </dl>
  );
}

function Facets({ facets }: { facets: Any }) {
  const keys = Object.keys(facets ?? {}).sort();
  if (keys.length === 0) return null;
  return (
    <details className="facets">
      <summary>Facets ({keys.join(', ')})</summary>
      <pre>{JSON.stringify(facets, null, 2)}</pre>
    </details>
  );
}

const list = (all: { id: string; name: string }[]) => {
  const items = [...new Map(all.map((x) => [x.id, x])).values()];
  return items.length ? (
    <ul className="inline-list">
      {items.map((x) => (
        <li key={x.id}>
          <NodeLink id={x.id} label={x.name} />
        </li>
      ))}
    </ul>
  ) : (
    <span className="muted">none</span>
  );
};

export function DatasetPage({ loc }: { loc: Location }) {
  const id = loc.params.get('id') ?? '';
  const entity = useEntity(DATASET, id, 'dataset');
  const names = useQuery<Any>(`query($id: ID!) { identity(id: $id, first: 20) { names { id source } } }`, { id });
  const identity: string[] = (names.data?.identity?.names ?? []).filter((n: Any) => n.source === 'SYMLINK').map((n: Any) => n.id);
  const aliases = useAliases(identity.slice(0, 10));
  return (
    <Shell kind="dataset" id={id} entity={entity}>
      {(d) => (
        <article aria-labelledby="page-title">
          <header className="view-head">
            <h1 id="page-title">
              ▦ {d.name} <span className="muted">{d.namespace}</span>
            </h1>
            <nav className="controls" aria-label="views of this dataset">
              <Link to={href('/lineage', { node: d.id })}>Lineage</Link>
              <Link to={href('/lineage', { node: d.id, mode: 'column' })}>Column lineage</Link>
              <Link to={href('/impact', { node: d.id })}>Blast radius</Link>
            </nav>
          </header>
          {d.description ? <p>{d.description}</p> : null}
          <Facts
            rows={[
              ['Owners', (d.owners ?? []).join(', ')],
              ['Type', d.datasetType],
              ['Storage', [d.storageLayer, d.fileFormat].filter(Boolean).join(' / ')],
              ['Lifecycle', d.lifecycleState],
              ['First seen', d.firstSeen],
              ['Last seen', d.lastSeen],
              ['Also sent as', (d.rawNames ?? []).join(', ')],
              ['Written by', list([...d.producers, ...aliases.flatMap((a) => a.producers)])],
              ['Read by', list([...d.consumers, ...aliases.flatMap((a) => a.consumers)])],
              [
                'Also named',
                aliases.length ? (
                  <ul className="inline-list" data-testid="aliases">
                    {aliases.map((a) => (
                      <li key={a.id}>
                        <NodeLink id={a.id} label={`${a.namespace} ${a.name}`} />
                      </li>
                    ))}
                  </ul>
                ) : null,
              ],
            ]}
          />
          <h2>Schema ({d.fields.length} fields)</h2>
          <table className="grid">
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Type</th>
                <th scope="col">Description</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {d.fields.map((f: Any) => (
                <tr key={f.id}>
                  <td className="mono">{f.name}</td>
                  <td>{f.type ?? ''}</td>
                  <td>
                    {f.metadataColumn ? (
                      <span className="state" data-testid="metadata-column" title="computed by the table format per row; left out of traces and column lineage unless asked">
                        metadata column
                      </span>
                    ) : null}{' '}
                    {f.description ?? ''}
                  </td>
                  <td>
                    <Link to={href('/trace', { node: f.id })} title={`trace ${f.name} back to its sources`}>
                      Trace
                    </Link>{' '}
                    <Link to={href('/impact', { node: f.id })}>Impact</Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Facets facets={d.facets} />
        </article>
      )}
    </Shell>
  );
}

export function JobPage({ loc }: { loc: Location }) {
  const id = loc.params.get('id') ?? '';
  const entity = useEntity(JOB, id, 'job');
  return (
    <Shell kind="job" id={id} entity={entity}>
      {(j) => (
        <article aria-labelledby="page-title">
          <header className="view-head">
            <h1 id="page-title">
              ⚙ {j.name} <span className="muted">{j.namespace}</span>
            </h1>
            <nav className="controls" aria-label="views of this job">
              <Link to={href('/lineage', { node: j.id })}>Lineage</Link>
            </nav>
          </header>
          {j.description ? <p>{j.description}</p> : null}
          <Facts
            rows={[
              ['Owners', (j.owners ?? []).join(', ')],
              ['Integration', [j.integration, j.jobType, j.processingType].filter(Boolean).join(' / ')],
              ['Reads', list(j.inputs)],
              ['Writes', list(j.outputs)],
              ['Source code', j.sourceCodeUrl ? <a href={j.sourceCodeUrl}>{j.sourceCodeUrl}</a> : null],
              ['First seen', j.firstSeen],
              ['Last seen', j.lastSeen],
            ]}
          />
          {j.sql ? (
            <>
              <h2>SQL</h2>
              <pre className="code">{j.sql}</pre>
            </>
          ) : null}
          <h2>Runs ({j.runs.total})</h2>
          <table className="grid">
            <ColumnHeads names={['Run', 'State', 'Started', 'Duration']} />
            <tbody>
              {j.runs.items.map((r: Any) => (
                <tr key={r.id}>
                  <td>
                    <NodeLink id={r.id} label={r.runId.slice(0, 8)} />
                  </td>
                  <td>
                    <span className={`state state-${(r.state ?? '').toLowerCase()}`}>{r.state}</span>
                    {r.errorMessage ? <div className="muted">{String(r.errorMessage).slice(0, 200)}</div> : null}
                  </td>
                  <td>{r.startedAt ?? ''}</td>
                  <td>{duration(r.startedAt, r.endedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h2>Versions ({j.versions.length})</h2>
          <ol className="versions">
            {j.versions.map((v: Any) => (
              <li key={v.id}>
                {v.runs} runs, {v.firstSeen} – {v.lastSeen}: reads {v.inputs.length}, writes {v.outputs.length}
                {v.codeSig ? `, code ${String(v.codeSig).slice(0, 12)}` : ''}
              </li>
            ))}
          </ol>
          <Facets facets={j.facets} />
        </article>
      )}
    </Shell>
  );
}

export function RunPage({ loc }: { loc: Location }) {
  const id = loc.params.get('id') ?? '';
  const entity = useEntity(RUN, id, 'run');
  const links = (rows: Any[]) =>
    rows.length ? (
      <ul>
        {rows.map((l) => (
          <li key={`${l.runId}|${l.datasetId}`}>
            <NodeLink id={l.runId} label={`${l.run?.job?.name ?? 'run'} (${l.run?.state ?? '?'})`} /> via <NodeLink id={l.datasetId} />
          </li>
        ))}
      </ul>
    ) : (
      <span className="muted">none</span>
    );
  return (
    <Shell kind="run" id={id} entity={entity}>
      {(r) => (
        <article aria-labelledby="page-title">
          <header className="view-head">
            <h1 id="page-title">
              Run {r.runId} <span className={`state state-${(r.state ?? '').toLowerCase()}`}>{r.state}</span>
            </h1>
          </header>
          <Facts
            rows={[
              ['Job', r.job ? <NodeLink id={r.job.id} label={r.job.name} /> : null],
              ['Parent run', r.parent ? <NodeLink id={r.parent.id} label={r.parent.job?.name ?? r.parent.id} /> : null],
              ['Started', r.startedAt],
              ['Ended', r.endedAt],
              ['Duration', duration(r.startedAt, r.endedAt)],
              ['Engine', [r.engineName, r.engineVersion].filter(Boolean).join(' ')],
              ['Error', r.errorMessage],
              ['Read', list(r.inputs)],
              ['Wrote', list(r.outputs)],
            ]}
          />
          <h2>Upstream runs</h2>
          {links(r.upstreamRuns)}
          <h2>Downstream runs</h2>
          {links(r.downstreamRuns)}
          <Facets facets={r.facets} />
        </article>
      )}
    </Shell>
  );
}
