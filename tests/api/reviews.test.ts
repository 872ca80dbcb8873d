import { describe, expect, it } from 'vitest';
import { useTestApp } from '../fixtures/app.ts';
import { buyGame, catalogue, fund } from '../fixtures/games.ts';

describe('reviews', () => {
  const t = useTestApp();
  const review = (user: string, payload: object) => t.current.as(user, { method: 'POST', url: '/v1/game/review', payload });

  it('takes one review per player who created a game of the definition, and rates the definition', async () => {
    const { definitionId, smallId } = await buyGame(t.current);
    const before = (await t.current.as('alice', { method: 'GET', url: `/v1/game/review/${definitionId}` })).json();
    expect(before).toMatchObject({ totalElements: 0, mine: null, canReview: true });
    expect((await t.current.as('bob', { method: 'GET', url: `/v1/game/review/${definitionId}` })).json()).toMatchObject({ mine: null, canReview: false });
    const created = await review('alice', { definitionId, rating: 5, comment: '  Great server  ' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ definitionId, rating: 5, comment: 'Great server', author: { name: 'alice' } });

    const again = await review('alice', { definitionId, rating: 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('reviews.alreadyReviewed');

    const stranger = await review('bob', { definitionId, rating: 1 });
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().code).toBe('reviews.notPlayed');

    await fund(t.current, 'bob', 100);
    await t.current.as('bob', { method: 'POST', url: '/v1/game/create', payload: { definitionId, packageId: smallId, name: 'Bob land' } });
    expect((await review('bob', { definitionId, rating: 2 })).statusCode).toBe(201);

    const def = (await t.current.app.inject({ url: `/v1/definition/game/${definitionId}` })).json();
    expect(def.rating).toEqual({ average: 3.5, count: 2 });
    expect((await t.current.app.inject({ url: '/v1/definition/game/list' })).json().data[0].rating).toEqual({ average: 3.5, count: 2 });

    const list = await t.current.as('carol', { method: 'GET', url: `/v1/game/review/${definitionId}` });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ totalElements: 2, page: 0, size: 20 });
    expect(list.json().data.map((r: { author: { name: string }; rating: number; comment: string | null }) => [r.author.name, r.rating, r.comment])).toEqual([
      ['bob', 2, null],
      ['alice', 5, 'Great server'],
    ]);
    expect((await t.current.as('carol', { method: 'GET', url: `/v1/game/review/${definitionId}?size=1&page=1` })).json().data[0].author.name).toBe('alice');
    // Alice's review is on page 2 of 1-review pages: she still gets it, and may not write another.
    const alicePage = (await t.current.as('alice', { method: 'GET', url: `/v1/game/review/${definitionId}?size=1` })).json();
    expect(alicePage.data[0].author.name).toBe('bob');
    expect(alicePage).toMatchObject({ mine: { rating: 5, author: { name: 'alice' } }, canReview: false });
  });

  it('shows the reviews to visitors, with no review of theirs and no right to write', async () => {
    const { definitionId } = await buyGame(t.current);
    expect((await review('alice', { definitionId, rating: 4, comment: 'Smooth' })).statusCode).toBe(201);
    const visitor = await t.current.app.inject({ url: `/v1/game/review/${definitionId}` });
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json()).toMatchObject({ totalElements: 1, mine: null, canReview: false });
    expect(visitor.json().data[0]).toMatchObject({ rating: 4, comment: 'Smooth', author: { name: 'alice' } });
    // A stale token on a public page leaves the caller a visitor rather than failing.
    const stale = await t.current.app.inject({ url: `/v1/game/review/${definitionId}`, headers: { authorization: 'Bearer a.b.c' } });
    expect(stale.statusCode).toBe(200);
    expect((await t.current.as('alice', { method: 'GET', url: `/v1/game/review/${definitionId}` })).json()).toMatchObject({ mine: { rating: 4 }, canReview: false });
    const doc = (await t.current.app.inject({ url: '/v1/openapi.json' })).json();
    expect(doc.paths['/v1/game/review/{id}'].get.security).toEqual([{}, { bearer: [] }]);
    expect(doc.paths['/v1/game/review'].post.security).toEqual([{ bearer: [] }]);
  });

  it('checks token, body and definition', async () => {
    const { definitionId } = await catalogue(t.current);
    expect((await t.current.app.inject({ method: 'POST', url: '/v1/game/review', payload: { definitionId, rating: 3 } })).statusCode).toBe(401);
    for (const rating of [0, 6, 2.5]) {
      const res = await review('alice', { definitionId, rating });
      expect(res.statusCode, String(rating)).toBe(400);
      expect(res.json().errors[0].field).toBe('rating');
    }
    expect((await review('alice', { definitionId, rating: 3, comment: 'x'.repeat(2001) })).json().errors[0].field).toBe('comment');
    expect((await review('alice', { definitionId, rating: 3, stars: 3 })).json().errors[0].field).toBe('stars');
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await review('alice', { definitionId: unknown, rating: 3 })).statusCode).toBe(404);
    expect((await t.current.as('alice', { method: 'GET', url: `/v1/game/review/${unknown}` })).statusCode).toBe(404);
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/game/review/nope' })).json().errors[0].field).toBe('params.id');
  });
});
