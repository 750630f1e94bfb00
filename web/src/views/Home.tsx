import { ColumnHeads, ErrorBox, Link, Loading, nameOf } from '../components/common';
import { AlsoNamed, hitHref, SEARCH, type Hit } from '../components/SearchBox';
import { href, type Location } from '../route';
import { useQuery } from '../use-query';

type Page<T> = { total: number; items: T[]; pageInfo: { endCursor: string | null; hasNextPage: boolean } };

/** Every hit of a search, paged: /search?q=text&after=cursor */
export function SearchPage({ loc }: { loc: Location }) {
  const q = loc.params.get('q') ?? '';
  const after = loc.params.get('after');
  const r = useQuery<{ search: Page<Hit> & { hits: Hit[]; capped: boolean } }>(q ? SEARCH : null, { text: q, first: 50, after });
  if (!q) return <p>Type part of a name in the search box.</p>;
  return (
    <section aria-labelledby="search-title">
      <h1 id="search-title">Search: “{q}”</h1>
      {r.error ? <ErrorBox error={r.error} onRetry={r.retry} /> : null}
      {!r.error && !r.data ? <Loading what="hits" /> : null}
      {r.data ? (
        <>
          <p data-testid="search-total">
            {r.data.search.capped ? `${r.data.search.total.toLocaleString('en')} hits among the most relevant matches of many: type more to narrow it` : `${r.data.search.total} hits`}
          </p>
          <ul className="hits">
            {r.data.search.hits.map((h) => (
              <li key={h.id}>
                <span className={`kind kind-${h.kind.toLowerCase()}`}>{h.kind.toLowerCase()}</span> <Link to={hitHref(h)}>{h.kind === 'FIELD' ? nameOf(h.id) : h.name}</Link>{' '}
                <span className="muted">{h.namespace}</span>
                <AlsoNamed hit={h} />
              </li>
            ))}
          </ul>
          {r.data.search.pageInfo.hasNextPage ? <Link to={href('/search', { q, after: r.data.search.pageInfo.endCursor })}>Next page</Link> : null}
        </>
      ) : null}
    </section>
  );
}

const NAMESPACES = `query { namespaces(first: 1000) { total items { name datasetCount jobCount } } }`;
const IN_NAMESPACE = `query InNamespace($ns: String!, $after: String, $jobsAfter: String, $order: BrowseOrder!) {
  datasets(namespace: $ns, first: 100, after: $after, orderBy: $order) { total items { id name lastSeen } pageInfo { endCursor hasNextPage } }
  jobs(namespace: $ns, first: 100, after: $jobsAfter, orderBy: $order) { total items { id name lastSeen } pageInfo { endCursor hasNextPage } } }`;

/** Browse without a name: / lists namespaces; /?ns=<namespace> its datasets and jobs. */
export function Home({ loc }: { loc: Location }) {
  const ns = loc.params.get('ns');
  if (ns !== null) return <NamespacePage ns={ns} loc={loc} />;
  return <Namespaces />;
}

function Namespaces() {
  const r = useQuery<{ namespaces: Page<{ name: string; datasetCount: number; jobCount: number }> }>(NAMESPACES, {});
  return (
    <section aria-labelledby="home-title">
      <h1 id="home-title">Lineage explorer</h1>
      <p className="lead">
        Find a dataset, job or field with the search box (press <kbd>/</kbd>), or browse a namespace. Every view here is a link you can share, and every figure
        comes from the same GraphQL API at <code>/graphql</code>.
      </p>
      <p>
        <Link to="/coverage">Coverage dashboard</Link>: where lineage is column level, where only dataset level, and what to instrument next.
      </p>
      {r.error ? <ErrorBox error={r.error} onRetry={r.retry} /> : null}
      {!r.error && !r.data ? <Loading what="namespaces" /> : null}
      {r.data ? (
        <table className="grid">
          <caption>{r.data.namespaces.total} namespaces</caption>
          <ColumnHeads names={['Namespace', 'Datasets', 'Jobs']} />
          <tbody>
            {r.data.namespaces.items.map((n) => (
              <tr key={n.name}>
                <td>
                  <Link to={href('/', { ns: n.name })}>{n.name}</Link>
                </td>
                <td className="num">{n.datasetCount}</td>
                <td className="num">{n.jobCount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

function NamespacePage({ ns, loc }: { ns: string; loc: Location }) {
  const order = loc.params.get('order') === 'LAST_SEEN' ? 'LAST_SEEN' : 'NAME';
  const after = loc.params.get('after');
  const jobsAfter = loc.params.get('jobsAfter');
  const r = useQuery<{ datasets: Page<{ id: string; name: string; lastSeen: string | null }>; jobs: Page<{ id: string; name: string; lastSeen: string | null }> }>(IN_NAMESPACE, {
    ns,
    after,
    jobsAfter,
    order,
  });
  const orderParam = order === 'NAME' ? null : order;
  return (
    <section aria-labelledby="ns-title">
      <h1 id="ns-title">{ns}</h1>
      <p>
        <Link to="/">All namespaces</Link> · Order:{' '}
        {order === 'NAME' ? <Link to={href('/', { ns, order: 'LAST_SEEN' })}>most recently seen first</Link> : <Link to={href('/', { ns })}>by name</Link>}
      </p>
      {r.error ? <ErrorBox error={r.error} onRetry={r.retry} /> : null}
      {!r.error && !r.data ? <Loading what="the namespace" /> : null}
      {r.data ? (
        <div className="columns">
          <div>
            <h2>Datasets ({r.data.datasets.total})</h2>
            <ul className="hits">
              {r.data.datasets.items.map((d) => (
                <li key={d.id}>
                  <Link to={href('/lineage', { node: d.id })}>{d.name}</Link> <span className="muted">{d.lastSeen?.slice(0, 10)}</span>
                </li>
              ))}
            </ul>
            {r.data.datasets.pageInfo.hasNextPage ? <Link to={href('/', { ns, order: orderParam, after: r.data.datasets.pageInfo.endCursor, jobsAfter })}>Next datasets</Link> : null}
          </div>
          <div>
            <h2>Jobs ({r.data.jobs.total})</h2>
            <ul className="hits">
              {r.data.jobs.items.map((j) => (
                <li key={j.id}>
                  <Link to={href('/job', { id: j.id })}>{j.name}</Link>
                </li>
              ))}
            </ul>
            {r.data.jobs.pageInfo.hasNextPage ? <Link to={href('/', { ns, order: orderParam, after, jobsAfter: r.data.jobs.pageInfo.endCursor })}>Next jobs</Link> : null}
          </div>
        </div>
      ) : null}
    </section>
  );
}
