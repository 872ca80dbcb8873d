import type { BaseRecord, CrudFilter, CrudSort, DataProvider, MetaQuery } from '@refinedev/core';
import type { Page } from '../../contract/common.ts';
import { apiFetch } from './api.ts';
import { resources, type ResourcePaths } from './resources.ts';

function declared(resource: string): ResourcePaths {
  const found = resources.find((r) => r.name === resource);
  if (!found) throw new Error(`unknown resource "${resource}"`);
  return found.meta;
}

/** A `/v1` path with its `:name` parts filled from `meta.params`. */
function fill(resource: string, path: string, meta?: MetaQuery): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = (meta?.params as Record<string, string> | undefined)?.[name];
    if (value === undefined) throw new Error(`resource "${resource}" needs meta.params.${name}`);
    return encodeURIComponent(value);
  });
}

const resourcePath = (resource: string, meta?: MetaQuery) => fill(resource, declared(resource).path, meta);
const itemPath = (resource: string, id: string | number, meta?: MetaQuery) => `${resourcePath(resource, meta)}/${encodeURIComponent(String(id))}`;

/**
 * A write's body: a form (an image upload) goes as multipart, as the browser encodes it; a file (a
 * world's .zip) as its bytes, streamed by the browser with the file's type; anything else as JSON.
 */
function body(payload: unknown): { body?: BodyInit; json?: unknown; headers?: Record<string, string> } {
  if (payload === undefined) return {};
  if (payload instanceof FormData) return { body: payload };
  if (payload instanceof Blob) return { body: payload, headers: { 'content-type': payload.type || 'application/octet-stream' } };
  return { json: payload };
}

/**
 * The list's query: 0-based `page`/`size`; the first sorter as `sort=field,asc|desc`; an equality
 * filter as `field=value` (`status`, `userId`, `hidden`) and a `contains` filter on `q` as `q=`.
 */
function listQuery(page: { currentPage: number; pageSize: number } | null, sorters: CrudSort[] = [], filters: CrudFilter[] = []): URLSearchParams {
  const query = new URLSearchParams();
  if (page) {
    query.set('page', String(page.currentPage - 1));
    query.set('size', String(page.pageSize));
  }
  const [sorter] = sorters;
  if (sorter) query.set('sort', `${sorter.field},${sorter.order}`);
  for (const filter of filters) {
    if (!('field' in filter) || filter.value === undefined || filter.value === null || filter.value === '') continue;
    if (filter.operator === 'eq' || (filter.operator === 'contains' && filter.field === 'q')) query.set(filter.field, String(filter.value));
  }
  return query;
}

/**
 * Refine's data provider over the `/v1` API: Refine's 1-based pages become our 0-based
 * `page`/`size`, our `{ data, totalElements }` its `{ data, total }`, its sorters and filters our
 * query parameters. Errors are `ApiError`s, which Refine reads as `HttpError`s (with the fields').
 */
export const dataProvider: DataProvider = {
  getApiUrl: () => '/v1',

  async getList({ resource, pagination, sorters, filters, meta }) {
    const page = pagination?.mode === 'off' ? null : { currentPage: pagination?.currentPage ?? 1, pageSize: pagination?.pageSize ?? 20 };
    const path = fill(resource, declared(resource).listPath ?? declared(resource).path, meta);
    // A page's own fields beyond the rows and paging (a review page's `canReview` and `mine`) come along.
    const { data, totalElements, page: _page, size: _size, ...more } = await apiFetch<Page<never>>(`${path}?${listQuery(page, sorters, filters)}`);
    return { ...more, data, total: totalElements };
  },

  async getOne<TData extends BaseRecord>({ resource, id, meta }: Parameters<DataProvider['getOne']>[0]) {
    const { onePath } = declared(resource);
    return { data: await apiFetch<TData>(onePath ? `${fill(resource, onePath, meta)}/${encodeURIComponent(String(id))}` : itemPath(resource, id, meta)) };
  },

  /** `meta.idempotencyKey` keeps one key across retries of one purchase (else each call has its own). */
  async create({ resource, variables, meta }) {
    const path = fill(resource, declared(resource).createPath ?? declared(resource).path, meta);
    return { data: await apiFetch(path, { method: 'POST', json: variables, idempotencyKey: meta?.idempotencyKey as string | undefined }) };
  },

  async update({ resource, id, variables, meta }) {
    return { data: await apiFetch(itemPath(resource, id, meta), { method: 'PUT', json: variables }) };
  },

  async deleteOne<TData extends BaseRecord>({ resource, id, meta }: Parameters<DataProvider['deleteOne']>[0]) {
    await apiFetch(itemPath(resource, id, meta), { method: 'DELETE' });
    return { data: { id } as unknown as TData };
  },

  /**
   * Actions that are not CRUD (cancel a subscription, pay a renewal): `url` is a `/v1` path, `query`
   * its query string; `meta.idempotencyKey` keeps one key across retries of one write.
   */
  async custom({ url, method, payload, query, meta }) {
    const search = query ? new URLSearchParams(Object.entries(query as Record<string, unknown>).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))).toString() : '';
    const idempotencyKey = meta?.idempotencyKey as string | undefined;
    return {
      data: await apiFetch(search ? `${url}?${search}` : url, { method: method.toUpperCase(), ...body(payload), ...(idempotencyKey ? { idempotencyKey } : {}) }),
    };
  },
};
