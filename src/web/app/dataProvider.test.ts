import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api.ts';
import { dataProvider } from './dataProvider.ts';
import { can, tokenRoles } from './access.ts';

/** The API as fetch sees it: each call recorded, each answer from `answer`. */
function stubApi(answer: (url: URL) => { status: number; body: unknown }) {
  const calls: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string) => {
      const url = new URL(path, 'http://app.test');
      calls.push(url);
      const { status, body } = answer(url);
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' } });
    }),
  );
  return calls;
}

const page = (data: unknown[], totalElements = data.length) => ({ status: 200, body: { data, totalElements, page: 0, size: 20 } });

describe('the data provider', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the page, the first sorter, equality filters and a search on q; other filters are not sent', async () => {
    const calls = stubApi(() => page([{ id: 'a' }], 41));
    const list = await dataProvider.getList({
      resource: 'users',
      pagination: { currentPage: 3, pageSize: 20 },
      sorters: [
        { field: 'balance', order: 'desc' },
        { field: 'name', order: 'asc' },
      ],
      filters: [
        { field: 'q', operator: 'contains', value: 'ali' },
        { field: 'status', operator: 'eq', value: 'ACTIVE' },
        { field: 'hidden', operator: 'eq', value: false },
        { field: 'name', operator: 'contains', value: 'x' },
        { field: 'kind', operator: 'eq', value: '' },
      ],
    });
    expect(list).toEqual({ data: [{ id: 'a' }], total: 41 });
    expect(calls[0]!.pathname).toBe('/v1/staff/users');
    expect(Object.fromEntries(calls[0]!.searchParams)).toEqual({ page: '2', size: '20', sort: 'balance,desc', q: 'ali', status: 'ACTIVE', hidden: 'false' });
  });

  it("passes a page's own fields along with its rows, and buys a game where games are bought, with the caller's Idempotency-Key", async () => {
    const calls = stubApi((url) =>
      url.pathname === '/v1/game/create' ? { status: 201, body: { id: 'g' } } : { status: 200, body: { data: [], totalElements: 0, page: 0, size: 5, canReview: true, mine: null } },
    );
    const reviews = await dataProvider.getList({ resource: 'gameReviews', meta: { params: { definitionId: 'd1' } } });
    expect(reviews).toEqual({ data: [], total: 0, canReview: true, mine: null });
    expect(calls[0]!.pathname).toBe('/v1/game/review/d1');
    await dataProvider.create({ resource: 'games', variables: { name: 'x' }, meta: { idempotencyKey: 'k-1' } });
    expect(calls[1]!.pathname).toBe('/v1/game/create');
    const sent = vi.mocked(fetch).mock.calls[1]![1] as RequestInit;
    expect(new Headers(sent.headers).get('idempotency-key')).toBe('k-1');
  });

  it("sends a custom call's query, and a write with the caller's Idempotency-Key", async () => {
    const calls = stubApi(() => ({ status: 200, body: { data: [] } }));
    await dataProvider.custom!({ url: '/v1/user/search', method: 'get', query: { q: 'ali e&x', none: undefined } });
    expect(calls[0]!.pathname).toBe('/v1/user/search');
    expect(calls[0]!.search).toBe('?q=ali+e%26x');
    await dataProvider.custom!({ url: '/v1/friend', method: 'post', payload: { userId: 'u' }, meta: { idempotencyKey: 'k-2' } });
    const sent = vi.mocked(fetch).mock.calls[1]![1] as RequestInit;
    expect(sent.method).toBe('POST');
    expect(new Headers(sent.headers).get('idempotency-key')).toBe('k-2');
  });

  it("sends a custom call's form (an image) as the browser encodes it, not as JSON", async () => {
    stubApi(() => ({ status: 200, body: { id: 'd', image: '/media/d.webp' } }));
    const form = new FormData();
    form.append('image', new Blob(['png'], { type: 'image/png' }), 'a.png');
    const { data } = await dataProvider.custom!({ url: '/v1/definition/game/d/image', method: 'post', payload: form });
    expect(data).toEqual({ id: 'd', image: '/media/d.webp' });
    const sent = vi.mocked(fetch).mock.calls[0]![1] as RequestInit;
    expect(sent.body).toBe(form);
    expect(new Headers(sent.headers).get('content-type')).toBeNull();
    expect(new Headers(sent.headers).get('idempotency-key')).toMatch(/^[0-9a-f]{32}$/);
  });

  it("sends a custom call's file (a world's zip) as its bytes with its type, and takes an accepted write's empty answer", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 202, headers: { 'content-length': '0' } })),
    );
    const zip = new Blob(['PK'], { type: 'application/zip' });
    const { data } = await dataProvider.custom!({ url: '/v1/game/g/world', method: 'put', payload: zip });
    expect(data).toBeUndefined();
    const sent = vi.mocked(fetch).mock.calls[0]![1] as RequestInit;
    expect(sent.body).toBe(zip);
    expect(new Headers(sent.headers).get('content-type')).toBe('application/zip');
    expect(new Headers(sent.headers).get('idempotency-key')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('lists the catalogue where it lists, and reads one promo code where staff read it, not at the player’s check', async () => {
    const calls = stubApi((url) =>
      url.pathname === '/v1/staff/promocodes/CODE120'
        ? { status: 200, body: { code: 'CODE120' } }
        : url.pathname.startsWith('/v1/staff/promocodes/')
          ? { status: 404, body: { status: 404 } }
          : page([]),
    );
    await dataProvider.getList({ resource: 'definitions' });
    expect(calls[0]!.pathname).toBe('/v1/definition/game/list');
    expect((await dataProvider.getOne({ resource: 'promoCodes', id: 'CODE120' })).data).toEqual({ code: 'CODE120' });
    expect(calls[1]!.pathname).toBe('/v1/staff/promocodes/CODE120');
    await expect(dataProvider.getOne({ resource: 'promoCodes', id: 'NOPE' })).rejects.toMatchObject({ statusCode: 404 });
    await dataProvider.getOne({ resource: 'creditPacks', id: 'p1' }).catch(() => undefined);
    expect(calls[3]!.pathname).toBe('/v1/pricing/p1');
  });

  it('turns the API problem into an HttpError whose errors are keyed by field, as forms show them', async () => {
    stubApi(() => ({
      status: 400,
      body: {
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        detail: 'Invalid name.fr, priceCents',
        errors: [
          { field: 'name.fr', message: 'must NOT have fewer than 1 characters' },
          { field: 'priceCents', message: 'must be >= 50' },
        ],
      },
    }));
    const failed = await dataProvider.create({ resource: 'plans', variables: {} }).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(ApiError);
    expect(failed).toMatchObject({ statusCode: 400, message: 'Invalid name.fr, priceCents', errors: { 'name.fr': 'must NOT have fewer than 1 characters', priceCents: 'must be >= 50' } });
  });
});

describe('access control', () => {
  const token = (roles: unknown) => `h.${btoa(JSON.stringify({ realm_access: { roles } })).replace(/=+$/, '')}.s`;

  it('reads the roles of the token, and none from a token it cannot read', () => {
    expect(tokenRoles(token(['staff', 'support']))).toEqual(['staff', 'support']);
    expect(tokenRoles(token('staff'))).toEqual([]);
    expect(tokenRoles('not-a-token')).toEqual([]);
    expect(tokenRoles(undefined)).toEqual([]);
  });

  it('lets staff do everything in the back office, support list and show, a player nothing; the player resources stay theirs', () => {
    expect(['list', 'show', 'create', 'edit', 'delete'].map((a) => can(['staff'], 'promoCodes', a))).toEqual([true, true, true, true, true]);
    expect(['list', 'show', 'create', 'edit', 'delete'].map((a) => can(['support'], 'promoCodes', a))).toEqual([true, true, false, false, false]);
    expect(can(['support'], 'promoCodeUses', 'list')).toBe(true);
    expect(['list', 'show'].map((a) => can([], 'definitions', a))).toEqual([false, false]);
    expect(can([], 'games', 'list')).toBe(true);
  });
});
