import type { Page, PageQuery } from '../../contract/common.ts';

export interface Window {
  limit: number;
  offset: number;
  page: number;
  size: number;
}

/** Turns `page`/`size`/`offset` into a SQL window; `offset` wins over `page` when both are given. */
export function pageWindow(query: PageQuery = {}): Window {
  const size = query.size ?? 20;
  const page = query.page ?? 0;
  const offset = query.offset ?? page * size;
  return { limit: size, offset, page: Math.floor(offset / size), size };
}

export function pageOf<T>(data: T[], totalElements: number, window: Window): Page<T> {
  return { data, totalElements, page: window.page, size: window.size };
}
