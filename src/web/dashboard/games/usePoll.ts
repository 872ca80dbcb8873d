import { useEffect, useRef, useState } from 'react';
import { apiFetch } from '../../app/api.ts';

/**
 * GETs a path every `intervalMs` (null path or interval: not polling) and keeps the last answer;
 * a failed poll keeps the last data and reports the error. `refresh()` asks at once.
 */
export function usePoll<T>(path: string | null, intervalMs: number | null) {
  const [state, setState] = useState<{ path: string; data?: T; error?: unknown } | null>(null);
  const [tick, setTick] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    if (path === null) return;
    let live = true;
    const run = () => {
      apiFetch<T>(path).then(
        (data) => live && setState({ path, data }),
        (error: unknown) => live && setState((s) => ({ path, data: s?.path === path ? s.data : undefined, error })),
      ).finally(() => {
        if (live && intervalMs !== null) timer.current = setTimeout(run, intervalMs);
      });
    };
    run();
    return () => {
      live = false;
      clearTimeout(timer.current);
    };
  }, [path, intervalMs, tick]);
  const current = state && state.path === path ? state : null;
  return { data: current?.data, error: current?.error, loading: current === null, refresh: () => setTick((n) => n + 1) };
}
