import { useEffect, useState } from 'react';
import { apiFetch, type ApiError } from './api.ts';

export type FetchState<T> = { status: 'loading' } | { status: 'error'; error: ApiError | Error } | { status: 'done'; data: T };

/** GETs a path (null: nothing yet) and follows it when it changes; `reload()` fetches again. */
export function useFetch<T>(path: string | null): FetchState<T> & { reload: () => void } {
  const [version, setVersion] = useState(0);
  const key = path === null ? null : `${version}:${path}`;
  // The answer remembers which request it answers: anything else is still loading.
  const [answer, setAnswer] = useState<{ key: string; state: FetchState<T> } | null>(null);
  useEffect(() => {
    if (key === null || path === null) return;
    let live = true;
    apiFetch<T>(path).then(
      (data) => live && setAnswer({ key, state: { status: 'done', data } }),
      (error: Error) => live && setAnswer({ key, state: { status: 'error', error } }),
    );
    return () => {
      live = false;
    };
  }, [key, path]);
  const state: FetchState<T> = answer && answer.key === key ? answer.state : { status: 'loading' };
  return { ...state, reload: () => setVersion((v) => v + 1) };
}
