import { describe, expect, it } from 'vitest';
import { startTestApp, useTestApp } from '../fixtures/app.ts';

const URL = '/v1/staff/invoice-seller';

describe('GET /v1/staff/invoice-seller', () => {
  const t = useTestApp();

  it('tells staff the seller is the placeholder until INVOICE_SELLER_ADDRESS is set; players and support may not ask', async () => {
    const res = await t.current.as('boss', { method: 'GET', url: URL, roles: ['staff'] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: 'BlockHost', address: '1 rue de l’Exemple\n75000 Paris\nFrance', vatId: null, placeholder: true });
    for (const roles of [[], ['support']]) expect((await t.current.as('alice', { method: 'GET', url: URL, roles })).statusCode, roles.join()).toBe(403);
    expect((await t.current.app.inject({ url: URL })).statusCode).toBe(401);
    const doc = (await t.current.app.inject({ url: '/v1/openapi.json' })).json();
    expect(doc.paths[URL].get).toMatchObject({ security: [{ bearer: [] }], tags: ['staff'] });
  });

  it('answers the configured seller, no longer a placeholder', async () => {
    const app = await startTestApp({ INVOICE_SELLER_NAME: 'BlockHost SAS', INVOICE_SELLER_ADDRESS: '12 quai de Seine\\n75019 Paris\\nFrance', INVOICE_SELLER_VAT_ID: 'FR12345678901' });
    try {
      const res = await app.as('boss', { method: 'GET', url: URL, roles: ['staff'] });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ name: 'BlockHost SAS', address: '12 quai de Seine\n75019 Paris\nFrance', vatId: 'FR12345678901', placeholder: false });
    } finally {
      await app.close();
    }
  });
});
