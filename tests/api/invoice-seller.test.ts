import { describe, expect, it } from 'vitest';
import { startTestApp, useTestApp, type TestApp } from '../fixtures/app.ts';
import { overlapping, pdfTexts } from '../fixtures/pdf.ts';

const URL = '/v1/staff/invoice-seller';

describe('GET /v1/staff/invoice-seller', () => {
  const t = useTestApp();

  it('tells staff the seller is the placeholder until INVOICE_SELLER_ADDRESS is set; players and support may not ask', async () => {
    const res = await t.current.as('boss', { method: 'GET', url: URL, roles: ['staff'] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: 'BlockHost SAS', address: '1 rue de l’Exemple\n75000 Paris\nFrance', vatId: null, placeholder: true });
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

describe('the seller on invoices and in the legal notice', () => {
  /** Buys a pack with a long label for `user`; the invoice's PDF in French and in English. */
  async function invoicePdfs(t: TestApp, user = 'alice') {
    const pack = await t.as('boss', {
      roles: ['staff'],
      method: 'POST',
      url: '/v1/pricing',
      payload: { credits: 12500, bonusCredits: 2500, priceCents: 123456, currency: 'EUR', label: { fr: 'Méga', en: 'Mega' } },
    });
    const paymentId = (await t.as(user, { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: pack.json().id } })).json().paymentId;
    expect((await t.as(user, { method: 'POST', url: `/v1/payment/sandbox/${paymentId}/confirm`, payload: { cardNumber: '4242424242424242' } })).statusCode).toBe(200);
    const invoice = (await t.as(user, { url: '/v1/purchase/invoices' })).json().data[0];
    const pdf = async (lang: string) => {
      const res = await t.as(user, { url: `/v1/purchase/invoice/${invoice.id}`, headers: { accept: 'application/pdf', 'accept-language': lang } });
      expect(`${res.statusCode} ${res.headers['content-type']}`, res.body.slice(0, 300)).toBe('200 application/pdf');
      return res.rawPayload;
    };
    return { fr: await pdf('fr'), en: await pdf('en') };
  }

  it('prints no text over other text, in French and in English', async () => {
    const t = await startTestApp();
    try {
      for (const [lang, pdf] of Object.entries(await invoicePdfs(t))) {
        const texts = pdfTexts(pdf);
        // The table is there: its headings and the amount.
        expect(texts.map((x) => x.text).join(' | '), lang).toMatch(lang === 'fr' ? /Qté.*Prix unitaire TTC.*Total TTC/ : /Qty.*Unit price.*Total/);
        expect(
          texts.some((x) => /1[\s\u202f\u00a0.,]?234[.,]56/.test(x.text)),
          lang,
        ).toBe(true);
        expect(overlapping(texts), lang).toEqual([]);
      }
    } finally {
      await t.close();
    }
  });

  it('is one seller, set once: the configured one is on the invoice and in the legal notice, in both languages', async () => {
    const t = await startTestApp({ INVOICE_SELLER_NAME: 'Cubes Réunis SARL', INVOICE_SELLER_ADDRESS: '7 allée des Blocs\\n33000 Bordeaux\\nFrance', INVOICE_SELLER_VAT_ID: 'FR98765432109' });
    try {
      const pdfs = await invoicePdfs(t);
      for (const lang of ['fr', 'en'] as const) {
        const printed = pdfTexts(pdfs[lang]).map((x) => x.text);
        for (const line of ['Cubes Réunis SARL', '7 allée des Blocs', '33000 Bordeaux', 'FR98765432109']) expect(printed.join('\n'), lang).toContain(line);
        const legal = (await t.app.inject({ url: `/_content/query/${lang}/legal` })).json().body as string;
        expect(legal, lang).toContain('Cubes Réunis SARL');
        expect(legal, lang).toContain('7 allée des Blocs, 33000 Bordeaux, France');
        expect(legal, lang).toContain('FR98765432109');
        expect(legal, lang).not.toMatch(/BlockHost SAS|12 rue des Artisans|\{\{/);
      }
    } finally {
      await t.close();
    }
  });
});
