import type { BaseRecord, DataProvider, MetaQuery } from '@refinedev/core';
import type { Page } from '../../contract/common.ts';
import { apiFetch } from './api.ts';
import { resources } from './resources.ts';

/** The `/v1` path of a resource, its `:name` parts filled from `meta.params`. */
function resourcePath(resource: string, meta?: MetaQuery): string {
  const declared = resources.find((r) => r.name === resource);
  if (!declared) throw new Error(`unknown resource "${resource}"`);
  return declared.meta.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = (meta?.params as Record<string, string> | undefined)?.[name];
    if (value === undefined) throw new Error(`resource "${resource}" needs meta.params.${name}`);
    return encodeURIComponent(value);
  });
}

/**
 * Refine's data provider over the `/v1` API: Refine's 1-based pages become our 0-based
 * `page`/`size`, our `{ data, totalElements }` its `{ data, total }`, and an equality filter a
 * query parameter (`status`, `ignoredStatus`). Errors are `ApiError`s, which Refine reads as
 * `HttpError`s.
 */
export const dataProvider: DataProvider = {
  getApiUrl: () => '/v1',

  async getList({ resource, pagination, filters, meta }) {
    const query = new URLSearchParams();
    if (pagination?.mode !== 'off') {
      query.set('page', String((pagination?.currentPage ?? 1) - 1));
      query.set('size', String(pagination?.pageSize ?? 20));
    }
    for (const filter of filters ?? []) {
      if ('field' in filter && filter.operator === 'eq' && filter.value !== undefined && filter.value !== null) query.set(filter.field, String(filter.value));
    }
    const page = await apiFetch<Page<never>>(`${resourcePath(resource, meta)}?${query}`);
    return { data: page.data, total: page.totalElements };
  },

  async getOne({ resource, id, meta }) {
    return { data: await apiFetch(`${resourcePath(resource, meta)}/${encodeURIComponent(String(id))}`) };
  },

  async create({ resource, variables, meta }) {
    return { data: await apiFetch(resourcePath(resource, meta), { method: 'POST', json: variables }) };
  },

  async update({ resource, id, variables, meta }) {
    return { data: await apiFetch(`${resourcePath(resource, meta)}/${encodeURIComponent(String(id))}`, { method: 'PUT', json: variables }) };
  },

  async deleteOne<TData extends BaseRecord>({ resource, id, meta }: Parameters<DataProvider['deleteOne']>[0]) {
    await apiFetch(`${resourcePath(resource, meta)}/${encodeURIComponent(String(id))}`, { method: 'DELETE' });
    return { data: { id } as unknown as TData };
  },

  /** Actions that are not CRUD (cancel a subscription, pay a renewal): `url` is a `/v1` path. */
  async custom({ url, method, payload }) {
    return { data: await apiFetch(url, { method: method.toUpperCase(), ...(payload === undefined ? {} : { json: payload }) }) };
  },
};
