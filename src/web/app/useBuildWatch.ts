import { useEffect, useState } from 'react';
import { BUILD_POLL_MS } from './constants.ts';

/** Polls /builds/latest.json; true once the server announces a version other than the running one. */
export function useBuildWatch(running: string): boolean {
  const [outdated, setOutdated] = useState(false);
  useEffect(() => {
    if (outdated) return;
    const check = async () => {
      try {
        const res = await fetch('/builds/latest.json', { cache: 'no-cache' });
        if (!res.ok) return;
        const { version } = (await res.json()) as { version: string };
        if (version && version !== running) setOutdated(true);
      } catch {
        // Offline for a moment: the next poll tells.
      }
    };
    const timer = setInterval(() => void check(), BUILD_POLL_MS);
    return () => clearInterval(timer);
  }, [running, outdated]);
  return outdated;
}
