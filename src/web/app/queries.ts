import type { BaseRecord } from '@refinedev/core';
import { QueryClient, queryOptions, useMutation } from '@tanstack/react-query';
import { apiFetch } from './api.ts';

/**
 * The public site's reads (docs/conventions.md, A page): react-query without Refine, which keeps its
 * own client in the dashboard's chunk. A failed read shows its error at once, with a retry button,
 * rather than after silent retries; a page reads again when it mounts, not when the tab is focused.
 */
export const siteQueryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });

/** A GET of the API (or the content server), cached under its path. */
export const apiQuery = <T>(path: string) => queryOptions({ queryKey: [path], queryFn: () => apiFetch<T>(path) });

/** The read failed and no retry is under way: the page shows its error. During a retry it shows its loader again, not the old error. */
export const hasFailed = (query: { isError: boolean; isFetching: boolean }) => query.isError && !query.isFetching;

/** A write of a page Refine does not load: a `/v1` path, its method, its body and, for a purchase, the key kept across retries. */
interface ApiWrite {
  url: string;
  method: 'post' | 'put' | 'patch' | 'delete';
  payload?: unknown;
  idempotencyKey?: string;
}

/**
 * The writes of the pages Refine does not load (the shell's bell, /credits and its card step):
 * react-query's mutation over the data provider's `custom`, as Refine's `useCustomMutation` runs
 * in the dashboard. The data provider comes with the first write, so a first page does not carry it.
 */
export function useApiWrite<T extends BaseRecord>() {
  return useMutation({
    mutationFn: async ({ url, method, payload, idempotencyKey }: ApiWrite) => {
      const { dataProvider } = await import('./dataProvider.ts');
      return (await dataProvider.custom!<T>({ url, method, payload, meta: idempotencyKey ? { idempotencyKey } : undefined })).data;
    },
  });
}
