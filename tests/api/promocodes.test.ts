import { describe, expect, it } from 'vitest';
import { useTestApp } from '../fixtures/app.ts';
import { userId } from '../fixtures/games.ts';

describe('promo codes', () => {
  const t = useTestApp();
  const staff = (method: 'POST' | 'GET' | 'DELETE', url: string, payload?: object) => t.current.as('boss', { method, url, roles: ['staff'], ...(payload ? { payload } : {}) });
  const day = 24 * 3600_000;

  it('lets staff make, list and archive codes; support reads; players may do neither', async () => {
    const made = await staff('POST', '/v1/promocode', { code: 'summer-26', kind: 'PERCENT_OFF', value: 20, maxUses: 100 });
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({ code: 'SUMMER-26', kind: 'PERCENT_OFF', value: 20, maxUses: 100, uses: 0, archived: false });
    expect((await staff('POST', '/v1/promocode', { code: 'SUMMER-26', kind: 'BONUS_CREDITS', value: 5 })).statusCode).toBe(409);
    expect((await staff('POST', '/v1/promocode', { code: 'TOO-MUCH', kind: 'PERCENT_OFF', value: 150 })).statusCode).toBe(400);
    expect(
      (await staff('POST', '/v1/promocode', { code: 'BACKWARDS', kind: 'BONUS_CREDITS', value: 5, validFrom: new Date().toISOString(), validUntil: new Date(Date.now() - day).toISOString() }))
        .statusCode,
    ).toBe(400);

    const asSupport = await t.current.as('helper', { method: 'GET', url: '/v1/promocode', roles: ['support'] });
    expect(asSupport.json()).toMatchObject({ totalElements: 1, data: [{ code: 'SUMMER-26' }] });
    expect((await t.current.as('helper', { method: 'POST', url: '/v1/promocode', roles: ['support'], payload: { code: 'NOPE', kind: 'BONUS_CREDITS', value: 5 } })).statusCode).toBe(403);
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/promocode' })).statusCode).toBe(403);
    expect((await t.current.as('alice', { method: 'DELETE', url: '/v1/promocode/SUMMER-26' })).statusCode).toBe(403);

    expect((await staff('DELETE', '/v1/promocode/summer-26')).statusCode).toBe(204);
    expect((await staff('DELETE', '/v1/promocode/UNKNOWN')).statusCode).toBe(404);
    const check = await t.current.as('alice', { method: 'GET', url: '/v1/promocode/SUMMER-26' });
    expect(check.statusCode).toBe(404);
  });

  it('tells a player what a code gives, or why not: unknown, not yet, expired, used up, used already, not for games', async () => {
    await staff('POST', '/v1/promocode', { code: 'BONUS10', kind: 'BONUS_CREDITS', value: 10 });
    await staff('POST', '/v1/promocode', { code: 'LATER', kind: 'PERCENT_OFF', value: 10, validFrom: new Date(Date.now() + day).toISOString() });
    await staff('POST', '/v1/promocode', { code: 'GONE', kind: 'PERCENT_OFF', value: 10, validUntil: new Date(Date.now() + day).toISOString() });
    const check = (code: string, query = '') => t.current.as('alice', { method: 'GET', url: `/v1/promocode/${code}${query}` });

    expect((await check('bonus10')).json()).toEqual({ code: 'BONUS10', kind: 'BONUS_CREDITS', value: 10, validUntil: null });
    expect((await check('NOSUCH')).statusCode).toBe(404);
    const later = await check('LATER');
    expect(later.statusCode).toBe(422);
    expect(later.json().code).toBe('promoCode.notYetValid');
    expect((await check('BONUS10', '?for=GAME')).json().code).toBe('promoCode.packOnly');
    t.current.clock.advance(2 * day);
    expect((await check('GONE')).json().code).toBe('promoCode.expired');
    expect((await check('bad code!')).statusCode).toBe(400);

    const { promoCodes, db } = t.current.app.services;
    const alice = await userId(t.current, 'alice');
    await db.transaction((tx) => promoCodes.redeem(tx, { code: 'BONUS10', userId: alice, target: 'PACK', refType: 'payment', refId: 'p1' }));
    expect((await check('BONUS10')).json().code).toBe('promoCode.alreadyUsed');
  });

  it('counts exactly the uses left when 20 players use a code with 5 left at once, and gives a use back on release', async () => {
    await staff('POST', '/v1/promocode', { code: 'RUSH', kind: 'PERCENT_OFF', value: 50, maxUses: 5 });
    const { promoCodes, db } = t.current.app.services;
    const players = await Promise.all(Array.from({ length: 20 }, (_, i) => userId(t.current, `rusher_${i}`)));
    const results = await Promise.allSettled(players.map((id, i) => db.transaction((tx) => promoCodes.redeem(tx, { code: 'rush', userId: id, target: 'PACK', refType: 'payment', refId: `p${i}` }))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    expect(results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason.status === 422)).toBe(true);
    const listed = (await staff('GET', '/v1/promocode')).json();
    expect(listed.data[0]).toMatchObject({ code: 'RUSH', uses: 5 });
    expect(await promoCodes.uses('RUSH')).toHaveLength(5);

    // A failed payment gives its use back: another player may use it.
    const winner = players[results.findIndex((r) => r.status === 'fulfilled')]!;
    const used = (await promoCodes.uses('RUSH')).find((u) => u.userId === winner)!;
    await db.transaction((tx) => promoCodes.release(tx, { code: 'RUSH', userId: winner, refType: used.refType, refId: used.refId }));
    expect((await staff('GET', '/v1/promocode')).json().data[0].uses).toBe(4);
    const late = players.find((p) => !results[players.indexOf(p)] || results[players.indexOf(p)]!.status === 'rejected')!;
    await db.transaction((tx) => promoCodes.redeem(tx, { code: 'RUSH', userId: late, target: 'PACK', refType: 'payment', refId: 'late' }));
    expect((await staff('GET', '/v1/promocode')).json().data[0].uses).toBe(5);
  });
});
