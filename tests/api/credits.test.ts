import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { useTestApp } from '../fixtures/app.ts';
import { MAX_BALANCE } from '../../src/server/modules/money/credits/service.ts';

async function userId(t: ReturnType<typeof useTestApp>['current'], name: string): Promise<string> {
  return (await t.as(name, { method: 'GET', url: '/v1/user' })).json().id;
}

describe('credits ledger', () => {
  const t = useTestApp();

  it('lets staff add credits with a reason, recorded in the user ledger', async () => {
    const alice = await userId(t.current, 'alice');
    const res = await t.current.as('boss', { method: 'POST', url: '/v1/user/credit', roles: ['staff'], payload: { userId: alice, amount: 150, reason: 'Contest prize' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ userId: alice, balance: 150 });
    const correction = await t.current.as('boss', { method: 'POST', url: '/v1/user/credit', roles: ['staff'], payload: { userId: alice, amount: -50, reason: 'Correction' } });
    expect(correction.json().balance).toBe(100);

    expect((await t.current.as('alice', { method: 'GET', url: '/v1/user' })).json().balance).toBe(100);
    const ledger = (await t.current.as('alice', { method: 'GET', url: '/v1/purchase/transactions' })).json();
    expect(ledger).toMatchObject({ totalElements: 2, page: 0, size: 20 });
    expect(ledger.data.map((e: { amount: number; reason: string; balanceAfter: number }) => [e.amount, e.balanceAfter, e.reason]).sort()).toEqual([
      [-50, 100, 'Correction'],
      [150, 150, 'Contest prize'],
    ]);
  });

  it('never takes a balance below zero: a correction beyond it is 409 and changes nothing', async () => {
    const alice = await userId(t.current, 'alice');
    await t.current.as('boss', { method: 'POST', url: '/v1/user/credit', roles: ['staff'], payload: { userId: alice, amount: 10, reason: 'Gift' } });
    const res = await t.current.as('boss', { method: 'POST', url: '/v1/user/credit', roles: ['staff'], payload: { userId: alice, amount: -11, reason: 'Too much' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'credits.belowZero', detail: expect.stringContaining('11') });
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/user' })).json().balance).toBe(10);
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/purchase/transactions' })).json().totalElements).toBe(1);
  });

  it('answers 400 to a body of the wrong type instead of coercing it, and changes nothing', async () => {
    const alice = await userId(t.current, 'alice');
    for (const amount of [true, [5], '5', null]) {
      const res = await t.current.as('boss', { method: 'POST', url: '/v1/user/credit', roles: ['staff'], payload: { userId: alice, amount, reason: 'Coerced?' } });
      expect(res.statusCode, JSON.stringify(amount)).toBe(400);
      expect(res.json().errors).toEqual([expect.objectContaining({ field: 'amount' })]);
    }
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/purchase/transactions' })).json().totalElements).toBe(0);
  });

  it('refuses a grant that would take a balance past the maximum (409), and changes nothing', async () => {
    const alice = await userId(t.current, 'alice');
    const { credits, db } = t.current.app.services;
    await credits.apply(db, { userId: alice, amount: MAX_BALANCE - 10, kind: 'ADMIN_ADJUSTMENT', reason: { key: 'text', params: { text: 'Near the top' } } });
    const res = await t.current.as('boss', { method: 'POST', url: '/v1/user/credit', roles: ['staff'], payload: { userId: alice, amount: 1_000_000, reason: 'Overflow' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'credits.balanceTooHigh' });
    expect(await credits.balance(alice)).toBe(MAX_BALANCE - 10);
    const ok = await t.current.as('boss', { method: 'POST', url: '/v1/user/credit', roles: ['staff'], payload: { userId: alice, amount: 10, reason: 'To the top' } });
    expect(ok.json().balance).toBe(MAX_BALANCE);
  });

  it('lists the ledger newest first in the order the balance changed, even when concurrent spends commit out of order', async () => {
    const alice = await userId(t.current, 'alice');
    const { credits, db } = t.current.app.services;
    await credits.apply(db, { userId: alice, amount: 1000, kind: 'ADMIN_ADJUSTMENT', reason: { key: 'text', params: { text: 'Top up' } } });
    // Each spend's transaction starts, then waits for the others, so their start times are not the
    // order their balance updates took.
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        db.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          await new Promise((r) => setTimeout(r, (8 - i) * 15));
          await credits.apply(tx, { userId: alice, amount: -(i + 1) * 10, kind: 'GAME_CHARGE', reason: { key: 'text', params: { text: `Spend ${i}` } } });
        }),
      ),
    );
    const ledger = (await t.current.as('alice', { method: 'GET', url: '/v1/purchase/transactions?size=100' })).json();
    const rows = ledger.data as Array<{ amount: number; balanceAfter: number }>;
    expect(rows).toHaveLength(9);
    // Newest first: each entry's balance is the one before it (older) plus its amount.
    for (let i = 0; i < rows.length - 1; i++) expect(rows[i]!.balanceAfter).toBe(rows[i + 1]!.balanceAfter + rows[i]!.amount);
    expect(rows[0]!.balanceAfter).toBe(await credits.balance(alice));
  });

  it('holds under 50 concurrent debits against a balance that covers 10', async () => {
    const alice = await userId(t.current, 'alice');
    const { credits, db } = t.current.app.services;
    await credits.apply(db, { userId: alice, amount: 100, kind: 'ADMIN_ADJUSTMENT', reason: { key: 'text', params: { text: 'Top up' } } });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => credits.apply(db, { userId: alice, amount: -10, kind: 'GAME_CHARGE', reason: { key: 'text', params: { text: `Spend ${i}` } } })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    expect(ok).toHaveLength(10);
    expect(results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason.status === 402)).toBe(true);
    expect(await credits.balance(alice)).toBe(0);
    const ledger = (await t.current.as('alice', { method: 'GET', url: '/v1/purchase/transactions?size=100' })).json();
    expect(ledger.totalElements).toBe(11);
    expect(ledger.data.reduce((sum: number, e: { amount: number }) => sum + e.amount, 0)).toBe(0);
  });

  it('writes the ledger in its cause’s transaction: a failure after it leaves no trace', async () => {
    const alice = await userId(t.current, 'alice');
    const { credits, db } = t.current.app.services;
    await expect(
      db.transaction(async (tx) => {
        await credits.apply(tx, { userId: alice, amount: 40, kind: 'PURCHASE', reason: { key: 'text', params: { text: 'Pack' } } });
        throw new Error('the cause failed');
      }),
    ).rejects.toThrow('the cause failed');
    expect(await credits.balance(alice)).toBe(0);
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/purchase/transactions' })).json().totalElements).toBe(0);
  });

  it('applies a provider event once', async () => {
    const alice = await userId(t.current, 'alice');
    const { credits, db } = t.current.app.services;
    await credits.apply(db, { userId: alice, amount: 100, kind: 'PURCHASE', reason: { key: 'text', params: { text: 'Pack' } }, providerEventId: 'evt_1' });
    await expect(credits.apply(db, { userId: alice, amount: 100, kind: 'PURCHASE', reason: { key: 'text', params: { text: 'Pack' } }, providerEventId: 'evt_1' })).rejects.toThrow();
    expect(await credits.balance(alice)).toBe(100);
  });

  it('pages the ledger with page, size and offset', async () => {
    const alice = await userId(t.current, 'alice');
    const { credits, db } = t.current.app.services;
    for (let i = 1; i <= 5; i++) await credits.apply(db, { userId: alice, amount: i, kind: 'ADMIN_ADJUSTMENT', reason: { key: 'text', params: { text: `r${i}` } } });
    const p1 = (await t.current.as('alice', { method: 'GET', url: '/v1/purchase/transactions?page=1&size=2' })).json();
    expect(p1).toMatchObject({ totalElements: 5, page: 1, size: 2 });
    expect(p1.data).toHaveLength(2);
    const byOffset = (await t.current.as('alice', { method: 'GET', url: '/v1/purchase/transactions?offset=4&size=2' })).json();
    expect(byOffset.data).toHaveLength(1);
    const bad = await t.current.as('alice', { method: 'GET', url: '/v1/purchase/transactions?size=500' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('querystring.size');
  });
});

describe('credits calls: auth, roles and input', () => {
  const t = useTestApp();

  it('POST /v1/user/credit: 401 without token, 403 for a player, 404 for an unknown user, 400 naming the bad field', async () => {
    const { app } = t.current;
    const alice = await userId(t.current, 'alice');
    const body = { userId: alice, amount: 5, reason: 'Gift' };
    expect((await app.inject({ method: 'POST', url: '/v1/user/credit', payload: body })).statusCode).toBe(401);
    const player = await t.current.as('alice', { method: 'POST', url: '/v1/user/credit', payload: body });
    expect(player.statusCode).toBe(403);
    expect(player.headers['content-type']).toContain('application/problem+json');
    const unknown = await t.current.as('boss', { method: 'POST', url: '/v1/user/credit', roles: ['staff'], payload: { ...body, userId: '00000000-0000-4000-8000-000000000000' } });
    expect(unknown.statusCode).toBe(404);
    const bad = await t.current.as('boss', { method: 'POST', url: '/v1/user/credit', roles: ['staff'], payload: { ...body, amount: 'lots' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { field: string }) => e.field)).toContain('amount');
    const extra = await t.current.as('boss', { method: 'POST', url: '/v1/user/credit', roles: ['staff'], payload: { ...body, admin: true } });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().errors).toContainEqual({ field: 'admin', code: 'validation.additionalProperties', message: expect.any(String) });
    const missing = await t.current.as('boss', { method: 'POST', url: '/v1/user/credit', roles: ['staff'], payload: { userId: alice, amount: 5 } });
    expect(missing.json().errors.map((e: { field: string }) => e.field)).toContain('reason');
    expect(await t.current.app.services.credits.balance(alice)).toBe(0);
  });

  it('GET /v1/purchase/transactions: 401 without token, and one user never sees another’s entries', async () => {
    expect((await t.current.app.inject({ url: '/v1/purchase/transactions' })).statusCode).toBe(401);
    const alice = await userId(t.current, 'alice');
    await t.current.as('boss', { method: 'POST', url: '/v1/user/credit', roles: ['staff'], payload: { userId: alice, amount: 5, reason: 'Gift' } });
    const bob = (await t.current.as('bob', { method: 'GET', url: '/v1/purchase/transactions' })).json();
    expect(bob.totalElements).toBe(0);
  });
});
