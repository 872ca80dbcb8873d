import { describe, expect, it } from 'vitest';
import { useTestApp } from '../fixtures/app.ts';

/** The back office's one-record reads of what has no player's read: a pack, a promo code, a plan, an audit entry. */
describe('back office: one record', () => {
  const t = useTestApp();
  const as = (name: string, roles: string[], method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => t.current.as(name, { method, url, roles, ...(payload ? { payload } : {}) });
  const staff = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => as('boss', ['staff'], method, url, payload);
  const unknown = '00000000-0000-4000-8000-000000000000';

  async function records() {
    const pack = (await staff('POST', '/v1/pricing', { credits: 100, bonusCredits: 10, priceCents: 500, currency: 'EUR', label: { fr: 'Petit', en: 'Small' } })).json();
    const code = (await staff('POST', '/v1/promocode', { code: 'spring', kind: 'PERCENT_OFF', value: 10, maxUses: 3 })).json();
    const plan = (await staff('POST', '/v1/subscription', { name: { fr: 'Mensuel', en: 'Monthly' }, priceCents: 999, currency: 'EUR', interval: 'MONTH', credits: 1000 })).json();
    const [entry] = (await staff('GET', '/v1/staff/audit')).json().data;
    return { pack, code, plan, entry };
  }

  it('gives staff and support the record the list shows, archived ones too', async () => {
    const { pack, code, plan, entry } = await records();
    expect((await staff('DELETE', `/v1/promocode/${code.code}`)).statusCode).toBe(204);
    expect((await staff('DELETE', `/v1/subscription/${plan.id}`)).statusCode).toBe(204);

    for (const [name, roles] of [
      ['boss', ['staff']],
      ['helper', ['support']],
    ] as const) {
      const read = async (url: string) => {
        const answer = await as(name, [...roles], 'GET', url);
        expect(answer.statusCode, url).toBe(200);
        return answer.json();
      };
      expect(await read(`/v1/pricing/${pack.id}`)).toEqual(pack);
      expect(await read('/v1/staff/promocodes/spring')).toEqual({ ...code, archived: true });
      expect(await read(`/v1/subscription/${plan.id}`)).toEqual({ ...plan, archived: true, subscriberCount: 0 });
      expect(await read(`/v1/staff/audit/${entry.id}`)).toEqual(entry);
    }
    expect(entry).toMatchObject({ action: 'plan.create', entityId: plan.id, entityName: 'Mensuel' });
  });

  it('refuses a player and a visitor, and answers 404 for an unknown record', async () => {
    const { pack, plan, entry } = await records();
    const urls = [`/v1/pricing/${pack.id}`, '/v1/staff/promocodes/SPRING', `/v1/subscription/${plan.id}`, `/v1/staff/audit/${entry.id}`];
    for (const url of urls) {
      expect((await t.current.app.inject({ url })).statusCode, url).toBe(401);
      expect((await as('alice', [], 'GET', url)).statusCode, url).toBe(403);
    }

    const missing: Array<[string, string]> = [
      [`/v1/pricing/${unknown}`, 'notFound.creditPack'],
      ['/v1/staff/promocodes/NOSUCH', 'notFound.promoCode'],
      [`/v1/subscription/${unknown}`, 'notFound.subscriptionPlan'],
      [`/v1/staff/audit/${unknown}`, 'notFound.auditEntry'],
    ];
    for (const [url, code] of missing) {
      const answer = await staff('GET', url);
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json().code, url).toBe(code);
    }
  });
});
