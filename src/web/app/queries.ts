import { QueryClient, queryOptions } from '@tanstack/react-query';
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
