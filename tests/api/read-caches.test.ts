import { describe, expect, it } from 'vitest';
import { startReplica, startTestApp } from '../fixtures/app.ts';

/**
 * GET /v1/user is served from read caches that the database's triggers keep true. These tests
 * read between writes: a stale copy anywhere shows as a wrong balance or Minecraft account.
 */
describe('read caches of the user and the balance', () => {
  it('show every change the caller made, at once', async () => {
    const t = await startTestApp();
    try {
      const me = (await t.as('alice', { method: 'GET', url: '/v1/user' })).json();
      for (let i = 1; i <= 15; i++) {
        const credit = await t.as('boss', { method: 'POST', url: '/v1/user/credit', roles: ['staff'], payload: { userId: me.id, amount: 7, reason: `Gift ${i}` } });
        expect(credit.statusCode).toBe(200);
        expect((await t.as('alice', { method: 'GET', url: '/v1/user' })).json().balance).toBe(7 * i);
      }
      // A rolled-back change leaves the balance as it was.
      const { credits, db } = t.app.services;
      await expect(
        db.transaction(async (tx) => {
          await credits.apply(tx, { userId: me.id, amount: -7, kind: 'GAME_CHARGE', reason: { key: 'text', params: { text: 'Rolled back' } } });
          throw new Error('the cause failed');
        }),
      ).rejects.toThrow('the cause failed');
      expect((await t.as('alice', { method: 'GET', url: '/v1/user' })).json().balance).toBe(105);
    } finally {
      await t.close();
    }
  });

  it('drop a copy when another replica, or a plain SQL write, changes the row', async () => {
    const t = await startTestApp();
    const replica = await startReplica(t);
    try {
      const me = (await t.as('alice', { method: 'GET', url: '/v1/user' })).json();
      expect(me).toMatchObject({ balance: 0, mcUuid: null });
      // Written by the other replica: this one hears of it only through the trigger's NOTIFY.
      await replica.app.services.credits.apply(replica.app.services.db, { userId: me.id, amount: 40, kind: 'ADMIN_ADJUSTMENT', reason: { key: 'text', params: { text: 'From elsewhere' } } });
      const mcUuid = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
      await replica.database.db.execute(`update users set mc_uuid = '${mcUuid}' where id = '${me.id}'`);
      await expect.poll(async () => (await t.as('alice', { method: 'GET', url: '/v1/user' })).json(), { timeout: 5000 }).toMatchObject({ balance: 40, mcUuid });
    } finally {
      await replica.close();
      await t.close();
    }
  });
});
