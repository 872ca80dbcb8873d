import type { Problem } from '../../contract/common.ts';

/** An answer outside 200-299, carrying the problem+json body. Also Refine's `HttpError` (statusCode). */
export class ApiError extends Error {
  readonly status: number;
  readonly statusCode: number;
  readonly problem: Problem | undefined;
  constructor(status: number, problem: Problem | undefined) {
    super(problem?.detail ?? problem?.title ?? `Request failed with status ${status}`);
    this.status = status;
    this.statusCode = status;
    this.problem = problem;
  }
}

let accessToken: () => string | undefined = () => undefined;
/** The auth provider tells the client how to find the current access token. */
export function setAccessTokenSource(source: () => string | undefined) {
  accessToken = source;
}

/** fetch against the API with the bearer token whenever a session exists; JSON in and out. */
export async function apiFetch<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const headers = new Headers(init.headers);
  const token = accessToken();
  if (token) headers.set('authorization', `Bearer ${token}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  const res = await fetch(path, { ...init, headers, body });
  if (!res.ok) {
    const problem = res.headers.get('content-type')?.includes('json') ? ((await res.json().catch(() => undefined)) as Problem | undefined) : undefined;
    throw new ApiError(res.status, problem);
  }
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

export function bearer(): string | undefined {
  return accessToken();
}

/** The text to show for a failed call: the API's own detail when it gave one. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.problem?.detail ?? err.problem?.title ?? err.message;
  return err instanceof Error ? err.message : String(err);
}
