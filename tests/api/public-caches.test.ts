import { describe, expect, it } from 'vitest';
import { startReplica, startTestApp, type TestApp } from '../fixtures/app.ts';
import { catalogue } from '../fixtures/games.ts';

const staff = { roles: ['staff'] };
const pack = { credits: 500, priceCents: 499, currency: 'EUR', label: { fr: 'Débutant', en: 'Starter' } };

/**
 * The catalogue and the credit packs are served to visitors from answers kept in memory, with
 * ETags. These tests read between writes: a stale answer shows as an old name, price or pack.
 */
describe('public answers kept in memory', () => {
  const names = async (t: TestApp) => ((await t.app.inject({ url: '/v1/definition/game/list' })).json().data as Array<{ name: { en: string } }>).map((d) => d.name.en);

  it('answers 304 to a client holding the answer, and a new ETag once staff changed the catalogue', async () => {
    const t = await startTestApp();
    try {
      const { definitionId } = await catalogue(t);
      const first = await t.app.inject({ url: '/v1/definition/game/list' });
      expect(first.statusCode).toBe(200);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect(first.headers['cache-control']).toBe('no-cache');
      const again = await t.app.inject({ url: '/v1/definition/game/list', headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      // Another page is another answer.
      expect((await t.app.inject({ url: '/v1/definition/game/list?size=1', headers: { 'if-none-match': etag } })).statusCode).toBe(200);

      // Staff rename the definition: the next read, and the one after it, say the new name.
      const current = (await t.app.inject({ url: `/v1/definition/game/${definitionId}` })).json();
      const edit = { name: { fr: 'Survie 2', en: 'Survival 2' }, description: current.description, version: current.version, settings: current.settings, published: true };
      const renamed = await t.as('boss', { ...staff, method: 'PUT', url: `/v1/definition/game/${definitionId}`, payload: edit });
      expect(renamed.statusCode).toBe(200);
      const changed = await t.app.inject({ url: '/v1/definition/game/list', headers: { 'if-none-match': etag } });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
      expect(await names(t)).toEqual(['Survival 2']);
      expect((await t.app.inject({ url: `/v1/definition/game/${definitionId}` })).json().name.en).toBe('Survival 2');

      // Unpublished, it is gone for visitors at once; staff still see it.
      await t.as('boss', { ...staff, method: 'PUT', url: `/v1/definition/game/${definitionId}`, payload: { ...edit, published: false } });
      expect(await names(t)).toEqual([]);
      expect((await t.app.inject({ url: `/v1/definition/game/${definitionId}` })).statusCode).toBe(404);
      expect((await t.as('boss', { ...staff, url: '/v1/definition/game/list' })).json().totalElements).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('drops its answers when another replica, or a plain SQL write, changes the tables behind them', async () => {
    const t = await startTestApp();
    const replica = await startReplica(t);
    try {
      const { definitionId, smallId } = await catalogue(t);
      expect(await names(t)).toEqual(['Survival']);
      const packs = async () => ((await t.app.inject({ url: '/v1/pricing' })).json().data as Array<{ label: { en: string } | null; priceCents: number }>).map((p) => `${p.label?.en} ${p.priceCents}`);
      const created = await replica.app.inject({ method: 'POST', url: '/v1/pricing', headers: { authorization: `Bearer ${await t.token('boss', { roles: ['staff'] })}` }, payload: pack });
      expect(created.statusCode).toBe(201);
      await expect.poll(packs, { timeout: 5000 }).toEqual(['Starter 499']);

      // Written where this replica hears of it only through the tables' NOTIFY.
      await replica.database.db.execute(`update game_definitions set name = '{"fr":"Ailleurs","en":"Elsewhere"}'::jsonb where id = '${definitionId}'`);
      await expect.poll(() => names(t), { timeout: 5000 }).toEqual(['Elsewhere']);
      await replica.database.db.execute(`update game_packages set price_credits = 42 where id = '${smallId}'`);
      await expect.poll(async () => (await t.app.inject({ url: `/v1/definition/game/${definitionId}` })).json().priceFrom, { timeout: 5000 }).toBe(42);
      await replica.database.db.execute(`update credit_packs set price_cents = 399 where id = '${created.json().id}'`);
      await expect.poll(packs, { timeout: 5000 }).toEqual(['Starter 399']);
    } finally {
      await replica.close();
      await t.close();
    }
  });
});
