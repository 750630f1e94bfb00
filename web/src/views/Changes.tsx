import { useMemo } from 'react';
import { ColumnHeads, ErrorBox, Link, Loading, NodeLink, pct } from '../components/common';
import { href } from '../route';
import { useQuery } from '../use-query';

interface Change {
  kind: string;
  jobId: string | null;
  datasetId: string | null;
  cause: string | null;
  fromProducer: string | null;
  toProducer: string | null;
}
interface Answer {
  lineageDiff: {
    from: string;
    truncated: boolean;
    unrecorded: number;
    coverageFrom: { edges: number; columnLevelShare: number };
    coverageTo: { edges: number; columnLevelShare: number };
    counts: { kind: string; count: number }[];
    changes: { total: number; items: Change[] };
  };
}

// Granularity changes come first in a diff's order, so one page holds them (up to 50) and the
// counts hold every kind.
const QUERY = `query Changes($scope: CoverageScope!, $value: String, $from: String!) {
  lineageDiff(scope: $scope, value: $value, from: $from, first: 50) {
    from truncated unrecorded coverageFrom { edges columnLevelShare } coverageTo { edges columnLevelShare }
    counts { kind count } changes { total items { kind jobId datasetId cause fromProducer toProducer } }
  }
}`;

const PERIODS = [1, 7, 30];
const CAUSE: Record<string, string> = {
  PRODUCER_CHANGED: 'another producer',
  PRODUCER_VERSION_CHANGED: 'producer version changed',
  ENGINE_VERSION_CHANGED: 'engine version changed',
  JOB_CODE_CHANGED: 'job code changed',
  UNKNOWN: 'nothing in the events differs',
};
const words = (kind: string) => kind.toLowerCase().replace(/_/g, ' ');
const edges = (n: number) => `${n} edge${n === 1 ? '' : 's'}`;

/** What changed in the scope over the last `days` days (lineageDiff to now): granularity changes with causes, counts of the rest. */
export function RecentChanges({ scope, value, days, periodHref }: { scope: string; value: string | null; days: number; periodHref: (days: number) => string }) {
  const from = useMemo(() => new Date(Date.now() - days * 86_400_000).toISOString(), [days]);
  const state = useQuery<Answer>(QUERY, { scope, value, from });
  const d = state.data?.lineageDiff;
  const granularity = d?.changes.items.filter((c) => c.kind.startsWith('GRANULARITY_')) ?? [];
  const granularityTotal = d?.counts.filter((c) => c.kind.startsWith('GRANULARITY_')).reduce((n, c) => n + c.count, 0) ?? 0;
  return (
    <section aria-labelledby="changes-title" data-testid="recent-changes">
      <h2 id="changes-title">
        Changes in the last {days === 1 ? 'day' : `${days} days`}{' '}
        <span className="muted small">
          {PERIODS.filter((p) => p !== days).map((p) => (
            <Link key={p} to={periodHref(p)}>
              {p === 1 ? '1 day' : `${p} days`}
            </Link>
          ))}
        </span>
      </h2>
      {state.error ? <ErrorBox error={state.error} onRetry={state.retry} /> : null}
      {!state.error && !d ? <Loading what="changes" /> : null}
      {d ? (
        <>
          <p>
            Column-level share {pct(d.coverageFrom.columnLevelShare)} ({edges(d.coverageFrom.edges)}) → {pct(d.coverageTo.columnLevelShare)} ({edges(d.coverageTo.edges)}).{' '}
            {d.counts.length === 0 ? 'Nothing else changed.' : d.counts.map((c) => `${c.count} ${words(c.kind)}`).join(', ') + '.'}
            {d.truncated ? ' Partial: the scope has more edges than the server reads at once.' : ''}
            {d.unrecorded ? ` ${d.unrecorded} edges ran before per-run reports were kept (reproject to compare their fields).` : ''}
          </p>
          {granularityTotal > granularity.length ? (
            <p className="muted">
              Showing {granularity.length} of {granularityTotal} granularity changes (all of them: lineageDiff in GraphQL or GET /api/v1/lineage/diff).
            </p>
          ) : null}
          {granularity.length ? (
            <table className="grid" data-testid="granularity-changes">
              <ColumnHeads names={['Change', 'Job', 'Output', 'Likely cause', 'Producer before → after']} />
              <tbody>
                {granularity.map((c) => (
                  <tr key={`${c.kind}|${c.jobId}|${c.datasetId}`} className={c.kind === 'GRANULARITY_REGRESSED' ? 'regressed' : undefined}>
                    <td>{c.kind === 'GRANULARITY_REGRESSED' ? 'column → dataset level' : 'dataset → column level'}</td>
                    <td>
                      <NodeLink id={c.jobId!} />
                    </td>
                    <td>
                      <Link to={href('/lineage', { node: c.datasetId, mode: 'column' })}>{c.datasetId!.split(':').slice(2).join(':')}</Link>
                    </td>
                    <td>{CAUSE[c.cause ?? 'UNKNOWN'] ?? c.cause}</td>
                    <td className="muted small">
                      {c.fromProducer ?? '?'} → {c.toProducer ?? '?'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
