import { useEffect, useState } from 'react';
import { gql } from './api';

/**
 * One GraphQL query for a view: runs when the query or its variables change (the previous one
 * aborted), `data` or `error` once answered, `retry` runs it again. A null query runs nothing.
 */
export function useQuery<T>(query: string | null, variables: Record<string, unknown>): { data?: T; error?: unknown; retry: () => void } {
  const [state, setState] = useState<{ data?: T; error?: unknown }>({});
  const [attempt, setAttempt] = useState(0);
  const key = JSON.stringify(variables);
  useEffect(() => {
    if (!query) return;
    const ctl = new AbortController();
    setState({});
    gql<T>(query, JSON.parse(key) as Record<string, unknown>, ctl.signal).then(
      (data) => setState({ data }),
      (error) => ctl.signal.aborted || setState({ error }),
    );
    return () => ctl.abort();
  }, [query, key, attempt]);
  return { ...state, retry: () => setAttempt((a) => a + 1) };
}
