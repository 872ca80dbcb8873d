import type { Problem } from '../../contract/common.ts';

/**
 * An answer outside 200-299, carrying the problem+json body. Also Refine's `HttpError`: `statusCode`,
 * and `errors` keyed by the field's dotted path ("name.fr"), which Refine's forms show on that field.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly statusCode: number;
  readonly problem: Problem | undefined;
  readonly errors: Record<string, string> | undefined;
  constructor(status: number, problem: Problem | undefined) {
    super(problem?.detail ?? problem?.title ?? `Request failed with status ${status}`);
    this.status = status;
    this.statusCode = status;
    this.problem = problem;
    this.errors = problem?.errors?.length ? Object.fromEntries(problem.errors.map((e) => [e.field, e.message])) : undefined;
  }
}

let accessToken: () => string | undefined = () => undefined;
/** The auth provider tells the client how to find the current access token. */
export function setAccessTokenSource(source: () => string | undefined) {
  accessToken = source;
}

/**
 * A new `Idempotency-Key`: one per submit, so the server does a purchase once however often the
 * request is sent. getRandomValues, unlike randomUUID, also works on a plain-http address.
 */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * fetch against the API with the bearer token whenever a session exists; JSON in and out. Every
 * write carries an `Idempotency-Key`: `idempotencyKey` when the caller keeps one across retries of
 * one submit, else a new one.
 */
export async function apiFetch<T>(path: string, init: RequestInit & { json?: unknown; idempotencyKey?: string } = {}): Promise<T> {
  const { idempotencyKey, json, ...request } = init;
  const headers = new Headers(request.headers);
  const token = accessToken();
  if (token) headers.set('authorization', `Bearer ${token}`);
  if (WRITES.has((request.method ?? 'GET').toUpperCase())) headers.set('idempotency-key', idempotencyKey ?? newIdempotencyKey());
  let body = request.body;
  if (json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(json);
  }
  const res = await fetch(path, { ...request, headers, body });
  if (!res.ok) {
    const problem = res.headers.get('content-type')?.includes('json') ? ((await res.json().catch(() => undefined)) as Problem | undefined) : undefined;
    throw new ApiError(res.status, problem && (await inReadersWords(problem)));
  }
  // 204, or an accepted write that answers nothing (202 with no body).
  if (res.status === 204 || res.headers.get('content-length') === '0') return undefined as T;
  return (await res.json()) as T;
}

/**
 * How a problem's detail is worded again for its reader (i18n.ts sets it once the catalogues can
 * load); until then, and outside the app, the API's own words.
 */
let inReadersWords: (problem: Problem) => Promise<Problem> = async (problem) => problem;
export function setProblemWording(reword: (problem: Problem) => Promise<Problem>) {
  inReadersWords = reword;
}

export function bearer(): string | undefined {
  return accessToken();
}

/** The text to show for a failed call: the API's own detail when it gave one. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.problem?.detail ?? err.problem?.title ?? err.message;
  return err instanceof Error ? err.message : String(err);
}
