import type { ReactNode } from 'react';
import { ApiError, idParts, kindOfId } from '../api';
import { follow, href } from '../route';

export function Link({ to, children, className, title }: { to: string; children: ReactNode; className?: string; title?: string }) {
  return (
    <a href={to} onClick={follow} className={className} title={title}>
      {children}
    </a>
  );
}

/** An API or network error as a message the user can act on, never a blank screen. */
export function ErrorBox({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const e = error instanceof ApiError ? error : new ApiError('ERROR', (error as Error)?.message ?? String(error));
  const hint: Record<string, string> = {
    UNAUTHENTICATED: 'This service needs a token with the read scope: set it with “Token” at the top right.',
    FORBIDDEN: 'Your token lacks the read scope.',
    NOT_FOUND: 'Nothing has that id. Search for it by name instead.',
    UNAVAILABLE: 'The service or its database is not available right now. Try again in a moment.',
    LIMIT_EXCEEDED: 'The question is larger than the server allows: lower the depth or the page size.',
  };
  return (
    <div role="alert" className="error">
      <strong>{e.code}</strong>: {e.message}
      {hint[e.code] ? <div className="hint">{hint[e.code]}</div> : null}
      {onRetry ? (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      Loading {what}…
    </div>
  );
}

/** The readable name of an id: a dataset or job's name, a field's dataset.name, a run's uuid. */
export function nameOf(id: string): string {
  const parts = idParts(id);
  switch (kindOfId(id)) {
    case 'FIELD':
      return `${parts[1]}.${parts[2]}`;
    case 'RUN':
      return parts[0] ?? id;
    default:
      return parts[1] ?? id;
  }
}

export function namespaceOf(id: string): string {
  return kindOfId(id) === 'RUN' ? '' : (idParts(id)[0] ?? '');
}

/** Link to the page of a dataset, job, run or field (a field links to its dataset). */
export function NodeLink({ id, label }: { id: string; label?: string }) {
  const kind = kindOfId(id);
  const path = kind === 'JOB' ? '/job' : kind === 'RUN' ? '/run' : '/dataset';
  const target = kind === 'FIELD' ? `dataset:${id.split(':')[1]}:${id.split(':')[2]}` : id;
  return (
    <Link to={href(path, { id: target })} title={id}>
      {label ?? nameOf(id)}
    </Link>
  );
}

export const pct = (share: number) => `${(share * 100).toFixed(1)}%`;

/** A table's header row: one column header per name, in order. */
export function ColumnHeads({ names }: { names: string[] }) {
  return (
    <thead>
      <tr>
        {names.map((n) => (
          <th scope="col" key={n}>
            {n}
          </th>
        ))}
      </tr>
    </thead>
  );
}
