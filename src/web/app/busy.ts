import { useEffect, useSyncExternalStore } from 'react';

/** How many things (lazy pages, page data) are loading now; the top loading bar follows it. */
let count = 0;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function useBusyCount(): number {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => count,
  );
}

/** Counts the calling component as loading while it is mounted. */
export function useMarkBusy() {
  useEffect(() => {
    count++;
    emit();
    return () => {
      count--;
      emit();
    };
  }, []);
}
