import { useEffect, useState } from 'react';
import { apiFetch, type ApiError } from './api.ts';

export type FetchState<T> = { status: 'loading' } | { status: 'error'; error: ApiError | Error } | { status: 'done'; data: T };

/**
 * GETs a path (null: nothing yet) and follows it when it changes; `reload()` fetches again. With
 * `keep`, a reload of the same path shows the last answer until the new one arrives.
 */
export function useFetch<T>(path: string | null, { keep = false } = {}): FetchState<T> & { reload: () => void } {
  const [version, setVersion] = useState(0);
  const key = path === null ? null : `${version}:${path}`;
  // The answer remembers which request it answers: anything else is still loading.
  const [answer, setAnswer] = useState<{ key: string; path: string; state: FetchState<T> } | null>(null);
  useEffect(() => {
    if (key === null || path === null) return;
    let live = true;
    apiFetch<T>(path).then(
      (data) => live && setAnswer({ key, path, state: { status: 'done', data } }),
      (error: Error) => live && setAnswer({ key, path, state: { status: 'error', error } }),
    );
    return () => {
      live = false;
    };
  }, [key, path]);
  const current = answer && (answer.key === key || (keep && answer.path === path && answer.state.status === 'done'));
  const state: FetchState<T> = current ? answer.state : { status: 'loading' };
  return { ...state, reload: () => setVersion((v) => v + 1) };
}
