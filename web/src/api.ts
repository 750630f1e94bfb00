/**
 * The explorer's only way to the service: POST /graphql, the same API every client uses.
 * Errors come back as ApiError with the API's code (BAD_INPUT, NOT_FOUND, UNAUTHENTICATED, ...)
 * and its message, for the views to show; nothing is retried behind the user's back.
 */

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const TOKEN_KEY = 'tributary.token';

/** The bearer token the user gave (kept for this browser tab only), if any. */
export const token = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (value: string | null) => (value ? sessionStorage.setItem(TOKEN_KEY, value) : sessionStorage.removeItem(TOKEN_KEY)),
};

export async function gql<T>(query: string, variables: Record<string, unknown> = {}, signal?: AbortSignal): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const bearer = token.get();
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  let res: Response;
  try {
    res = await fetch('/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }), signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError('UNAVAILABLE', 'the service cannot be reached');
  }
  const text = await res.text();
  let body: { data?: T; errors?: { message: string; extensions?: { code?: string } }[]; error?: { code: string; message: string } };
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(res.status >= 500 ? 'UNAVAILABLE' : 'BAD_RESPONSE', `the service answered ${res.status} without JSON`);
  }
  if (body.error) throw new ApiError(body.error.code, body.error.message);
  if (body.errors?.length) {
    const first = body.errors[0]!;
    throw new ApiError(first.extensions?.code ?? 'ERROR', first.message);
  }
  if (!res.ok || body.data === undefined) throw new ApiError('ERROR', `the service answered ${res.status}`);
  return body.data;
}

export type Kind = 'DATASET' | 'JOB' | 'FIELD' | 'RUN';

/** The kind an id names (src/ids.ts forms); null for anything else. */
export function kindOfId(id: string): Kind | null {
  if (id.startsWith('dataset:')) return 'DATASET';
  if (id.startsWith('job:')) return 'JOB';
  if (id.startsWith('datasetField:')) return 'FIELD';
  if (id.startsWith('run:')) return 'RUN';
  return null;
}

/** The components of an id, unescaped (%3A → ':', %25 → '%'). */
export function idParts(id: string): string[] {
  return id
    .split(':')
    .slice(1)
    .map((p) => p.replace(/%3A/gi, ':').replace(/%25/g, '%'));
}

/** The dataset id of a field id. */
export function datasetOfField(fieldId: string): string {
  const parts = fieldId.split(':');
  return `dataset:${parts[1]}:${parts[2]}`;
}
