import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, useTestApp, type TestApp } from '../fixtures/app.ts';
import { startFakeStripe, type FakeStripe, type StripeEvent } from '../fixtures/stripe.ts';
import { rejectedProviderEvents } from '../../src/server/db/schema/payments.ts';

const staff = { roles: ['staff'] };
const GOOD = '4242424242424242';
const DECLINED = '4000000000000002';
const NO_FUNDS = '4000000000009995';

async function pack(t: TestApp, body: object = { credits: 500, bonusCredits: 50, priceCents: 499, currency: 'EUR', label: { fr: 'Débutant', en: 'Starter' } }) {
  const res = await t.as('boss', { ...staff, method: 'POST', url: '/v1/pricing', payload: body });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json().id as string;
}
const me = async (t: TestApp, user = 'alice') => (await t.as(user, { method: 'GET', url: '/v1/user' })).json() as { id: string; balance: number };
const promoUses = async (t: TestApp, code: string) =>
  ((await t.as('boss', { ...staff, method: 'GET', url: '/v1/promocode' })).json().data as Array<{ code: string; uses: number }>).find((c) => c.code === code)?.uses;
const staffPayment = async (t: TestApp, id: string) => (await t.as('boss', { ...staff, method: 'GET', url: `/v1/staff/payments/${id}` })).json();
const ledger = async (t: TestApp, user = 'alice') => (await t.as(user, { method: 'GET', url: '/v1/purchase/transactions' })).json().data as Array<{ kind: string; amount: number }>;

describe('credit packs, sandbox payments and invoices', () => {
  const t = useTestApp();

  it('sells packs to visitors’ eyes, and lets staff change and take them off sale', async () => {
    const id = await pack(t.current);
    const listed = (await t.current.app.inject({ url: '/v1/pricing' })).json();
    expect(listed).toMatchObject({ totalElements: 1, data: [{ id, credits: 500, bonusCredits: 50, priceCents: 499, currency: 'EUR', label: { fr: 'Débutant', en: 'Starter' }, archived: false }] });
    expect((await t.current.as('alice', { method: 'POST', url: '/v1/pricing', payload: { credits: 1, priceCents: 100, currency: 'EUR' } })).statusCode).toBe(403);
    for (const bad of [
      { credits: -5, priceCents: 100, currency: 'EUR' },
      { credits: 5, priceCents: 100, currency: 'euro' },
      { credits: 5, priceCents: 1e12, currency: 'EUR' },
    ]) {
      expect((await t.current.as('boss', { ...staff, method: 'POST', url: '/v1/pricing', payload: bad })).statusCode, JSON.stringify(bad)).toBe(400);
    }
    const changed = await t.current.as('boss', { ...staff, method: 'PUT', url: `/v1/pricing/${id}`, payload: { credits: 600, priceCents: 599, currency: 'EUR' } });
    expect(changed.json()).toMatchObject({ credits: 600, bonusCredits: 0, priceCents: 599, label: null });
    expect((await t.current.as('boss', { ...staff, method: 'DELETE', url: `/v1/pricing/${id}` })).statusCode).toBe(204);
    expect((await t.current.app.inject({ url: '/v1/pricing' })).json().totalElements).toBe(0);
  });

  it('keeps a pack’s label in French and in English: staff set both, French and English callers read both, one language alone is refused', async () => {
    const id = await pack(t.current, { credits: 500, priceCents: 499, currency: 'EUR', label: { fr: 'Découverte', en: 'Discovery' } });
    const labels = async (lang: string) => ((await t.current.app.inject({ url: '/v1/pricing', headers: { 'accept-language': lang } })).json().data as Array<{ label: unknown }>).map((p) => p.label);
    // The answer is the same for every caller (it is cached once): each page picks its own language.
    expect(await labels('fr')).toEqual([{ fr: 'Découverte', en: 'Discovery' }]);
    expect(await labels('en')).toEqual([{ fr: 'Découverte', en: 'Discovery' }]);

    const put = (label: unknown) => t.current.as('boss', { ...staff, method: 'PUT', url: `/v1/pricing/${id}`, payload: { credits: 500, priceCents: 499, currency: 'EUR', label } });
    const changed = await put({ fr: 'Aventurier', en: 'Adventurer' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().label).toEqual({ fr: 'Aventurier', en: 'Adventurer' });
    expect(await labels('en')).toEqual([{ fr: 'Aventurier', en: 'Adventurer' }]);

    const frOnly = await put({ fr: 'Bâtisseur' });
    expect(frOnly.statusCode).toBe(400);
    expect(frOnly.json().errors.map((e: { field: string }) => e.field)).toContain('label.en');
    const emptyEn = await put({ fr: 'Bâtisseur', en: '' });
    expect(emptyEn.statusCode).toBe(400);
    expect(emptyEn.json().errors).toContainEqual({ field: 'label.en', code: 'validation.minLength', message: 'doit contenir au moins 1 caractères' });
    // A plain string, the label's former shape, is refused too.
    expect((await put('Bâtisseur')).statusCode).toBe(400);
    expect(await labels('fr')).toEqual([{ fr: 'Aventurier', en: 'Adventurer' }]);
  });

  it('buys a pack with a bonus code: credits only once the card succeeds, one PURCHASE and one PROMO_BONUS row, an invoice and its PDF', async () => {
    const packId = await pack(t.current);
    await t.current.as('boss', { ...staff, method: 'POST', url: '/v1/promocode', payload: { code: 'BONUS100', kind: 'BONUS_CREDITS', value: 100 } });
    const checkout = await t.current.as('alice', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId, promoCode: 'bonus100' } });
    expect(checkout.statusCode).toBe(201);
    expect(checkout.json()).toMatchObject({ provider: 'sandbox', amountCents: 499, currency: 'EUR', credits: 550, bonusCredits: 100, clientSecret: null, publishableKey: null });
    const paymentId = checkout.json().paymentId as string;
    expect((await me(t.current)).balance).toBe(0);

    const confirmed = await t.current.as('alice', { method: 'POST', url: `/v1/payment/sandbox/${paymentId}/confirm`, payload: { cardNumber: '4242 4242 4242 4242' } });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ status: 'SUCCEEDED', credits: 550, bonusCredits: 100, promoCode: 'BONUS100' });
    expect((await me(t.current)).balance).toBe(650);
    expect((await ledger(t.current)).map((e) => [e.kind, e.amount]).sort()).toEqual([
      ['PROMO_BONUS', 100],
      ['PURCHASE', 550],
    ]);
    // Confirming again changes nothing.
    expect((await t.current.as('alice', { method: 'POST', url: `/v1/payment/sandbox/${paymentId}/confirm`, payload: { cardNumber: GOOD } })).statusCode).toBe(409);
    expect((await me(t.current)).balance).toBe(650);

    const invoices = (await t.current.as('alice', { method: 'GET', url: '/v1/purchase/invoices', headers: { 'accept-language': 'en' } })).json();
    expect(invoices.totalElements).toBe(1);
    const invoice = invoices.data[0];
    expect(invoice).toMatchObject({
      kind: 'INVOICE',
      paymentId,
      totalCents: 499,
      currency: 'EUR',
      vatRate: 20,
      lines: [{ description: 'Pack of 550 credits (+ 100 free)', key: 'packBonus', params: { credits: 550, bonus: 100 }, totalCents: 499 }],
    });
    expect(invoice.number).toBe(`BH-${new Date().getUTCFullYear()}-000001`);
    expect(invoice.netCents + invoice.vatCents).toBe(499);
    expect(invoice.netCents).toBe(416);
    const french = (await t.current.as('alice', { method: 'GET', url: `/v1/purchase/invoice/${invoice.id}` })).json();
    expect(french.lines[0].description).toBe('Pack de 550 crédits (+ 100 offerts)');
    const pdf = await t.current.as('alice', { method: 'GET', url: `/v1/purchase/invoice/${invoice.id}`, headers: { accept: 'application/pdf' } });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // Nobody else sees it.
    expect((await t.current.as('bob', { method: 'GET', url: `/v1/purchase/invoice/${invoice.id}` })).statusCode).toBe(404);
    expect((await t.current.as('bob', { method: 'GET', url: `/v1/payment/${paymentId}` })).statusCode).toBe(404);
    expect((await t.current.as('bob', { method: 'POST', url: `/v1/payment/sandbox/${paymentId}/confirm`, payload: { cardNumber: GOOD } })).statusCode).toBe(404);

    // A pack that was paid for is archived, not deleted.
    expect((await t.current.as('boss', { ...staff, method: 'DELETE', url: `/v1/pricing/${packId}` })).statusCode).toBe(204);
    expect((await t.current.as('boss', { ...staff, method: 'GET', url: '/v1/pricing' })).json().data[0]).toMatchObject({ id: packId, archived: true });
  });

  it('says why a card failed, credits nothing, and lets the player try again', async () => {
    const packId = await pack(t.current);
    const paymentId = (await t.current.as('alice', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId } })).json().paymentId;
    const declined = await t.current.as('alice', { method: 'POST', url: `/v1/payment/sandbox/${paymentId}/confirm`, payload: { cardNumber: DECLINED } });
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toMatchObject({ code: 'payments.failure.declined', detail: 'Votre carte a été refusée' });
    const broke = await t.current.as('alice', { method: 'POST', url: `/v1/payment/sandbox/${paymentId}/confirm`, payload: { cardNumber: NO_FUNDS } });
    expect(broke.json().code).toBe('payments.failure.insufficient_funds');
    expect((await t.current.as('alice', { method: 'GET', url: `/v1/payment/${paymentId}` })).json()).toMatchObject({ status: 'FAILED', failureReason: 'insufficient_funds' });
    expect((await me(t.current)).balance).toBe(0);
    expect((await t.current.as('alice', { method: 'POST', url: `/v1/payment/sandbox/${paymentId}/confirm`, payload: { cardNumber: '1234123412341234' } })).statusCode).toBe(400);
    expect((await t.current.as('alice', { method: 'POST', url: `/v1/payment/sandbox/${paymentId}/confirm`, payload: { cardNumber: GOOD } })).statusCode).toBe(200);
    expect((await me(t.current)).balance).toBe(550);
  });

  it('applies a percentage off to the price, refuses unknown and used codes and unknown packs, and bad input changes nothing', async () => {
    const packId = await pack(t.current);
    await t.current.as('boss', { ...staff, method: 'POST', url: '/v1/promocode', payload: { code: 'HALF', kind: 'PERCENT_OFF', value: 50 } });
    const half = await t.current.as('alice', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId, promoCode: 'HALF' } });
    expect(half.json()).toMatchObject({ amountCents: 250, credits: 550, bonusCredits: 0 });
    expect((await t.current.as('alice', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId, promoCode: 'HALF' } })).statusCode).toBe(422);
    expect((await t.current.as('alice', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId, promoCode: 'NOPE' } })).statusCode).toBe(404);
    expect((await t.current.as('alice', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: '00000000-0000-4000-8000-000000000000' } })).statusCode).toBe(404);
    expect((await t.current.as('alice', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId, amount: 1 } })).statusCode).toBe(400);
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/purchase/payments' })).json().totalElements).toBe(1);
    expect((await t.current.app.inject({ method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId } })).statusCode).toBe(401);
    // The sandbox has no webhook: nothing is accepted there.
    const hook = await t.current.app.inject({
      method: 'POST',
      url: '/v1/payment/stripe/webhook',
      payload: { id: 'evt_1', type: 'payment_intent.succeeded' },
      headers: { 'stripe-signature': 't=1,v1=abc' },
    });
    expect(hook.statusCode).toBe(400);
  });

  it('gives a one-use promo code back when the card is declined: a new payment with it shows and credits the same, and the declined one cannot take it again', async () => {
    const packId = await pack(t.current);
    await t.current.as('boss', { ...staff, method: 'POST', url: '/v1/promocode', payload: { code: 'ONCE', kind: 'BONUS_CREDITS', value: 100, maxUses: 1 } });
    const first = await t.current.as('alice', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId, promoCode: 'ONCE' } });
    expect(first.json()).toMatchObject({ credits: 550, bonusCredits: 100 });
    // Held while the payment is PENDING: nobody else can count on the code's last use.
    expect(await promoUses(t.current, 'ONCE')).toBe(1);
    expect((await t.current.as('bob', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId, promoCode: 'ONCE' } })).statusCode).toBe(422);

    const declined = await t.current.as('alice', { method: 'POST', url: `/v1/payment/sandbox/${first.json().paymentId}/confirm`, payload: { cardNumber: DECLINED } });
    expect(declined.statusCode).toBe(402);
    expect(await promoUses(t.current, 'ONCE')).toBe(0);

    const retry = await t.current.as('alice', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId, promoCode: 'ONCE' } });
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toMatchObject({ amountCents: 499, credits: 550, bonusCredits: 100 });
    // The declined payment paid after all would use the code a second time: refused before any charge.
    const again = await t.current.as('alice', { method: 'POST', url: `/v1/payment/sandbox/${first.json().paymentId}/confirm`, payload: { cardNumber: GOOD } });
    expect(again.statusCode).toBe(422);
    expect((await t.current.as('alice', { method: 'GET', url: `/v1/payment/${first.json().paymentId}` })).json().status).toBe('FAILED');
    expect((await me(t.current)).balance).toBe(0);

    expect((await t.current.as('alice', { method: 'POST', url: `/v1/payment/sandbox/${retry.json().paymentId}/confirm`, payload: { cardNumber: GOOD } })).statusCode).toBe(200);
    expect((await me(t.current)).balance).toBe(650);
    expect(await promoUses(t.current, 'ONCE')).toBe(1);
  });

  it('lets a declined payment with a promo code be paid with another card when the code is still free, and keeps its last use for one payment only', async () => {
    const packId = await pack(t.current);
    await t.current.as('boss', { ...staff, method: 'POST', url: '/v1/promocode', payload: { code: 'LAST', kind: 'BONUS_CREDITS', value: 100, maxUses: 1 } });
    const alice = (await t.current.as('alice', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId, promoCode: 'LAST' } })).json().paymentId;
    expect((await t.current.as('alice', { method: 'POST', url: `/v1/payment/sandbox/${alice}/confirm`, payload: { cardNumber: DECLINED } })).statusCode).toBe(402);
    // The same payment, another card: it takes the code again and credits what it showed.
    expect((await t.current.as('alice', { method: 'POST', url: `/v1/payment/sandbox/${alice}/confirm`, payload: { cardNumber: GOOD } })).statusCode).toBe(200);
    expect((await me(t.current)).balance).toBe(650);
    expect(await promoUses(t.current, 'LAST')).toBe(1);
    expect((await t.current.as('bob', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId, promoCode: 'LAST' } })).statusCode).toBe(422);

    // Two players on a free code at once: one payment holds it, the other is refused.
    await t.current.as('boss', { ...staff, method: 'POST', url: '/v1/promocode', payload: { code: 'RACE', kind: 'BONUS_CREDITS', value: 100, maxUses: 1 } });
    const both = await Promise.all(['bob', 'carol'].map((user) => t.current.as(user, { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId, promoCode: 'RACE' } })));
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 422]);
    expect(await promoUses(t.current, 'RACE')).toBe(1);
  });

  it('runs a subscription: the first period paid by card grants its credits, a renewal grants them again, a cancellation ends it at period end', async () => {
    const plan = await t.current.as('boss', {
      ...staff,
      method: 'POST',
      url: '/v1/subscription',
      payload: { name: { fr: 'Mensuel', en: 'Monthly' }, priceCents: 999, currency: 'EUR', interval: 'MONTH', credits: 1000 },
    });
    expect(plan.statusCode).toBe(201);
    const planId = plan.json().id;
    expect((await t.current.app.inject({ url: '/v1/subscription' })).json().data[0]).toMatchObject({ id: planId, credits: 1000 });

    const started = await t.current.as('alice', { method: 'POST', url: '/v1/payment/stripe/subscription', payload: { subscriptionId: planId } });
    expect(started.statusCode).toBe(201);
    expect(started.json()).toMatchObject({ provider: 'sandbox', amountCents: 999, credits: 1000, subscription: { status: 'INCOMPLETE', plan: { id: planId } } });
    expect((await t.current.as('alice', { method: 'POST', url: '/v1/payment/stripe/subscription', payload: { subscriptionId: planId } })).statusCode).toBe(409);
    await t.current.as('alice', { method: 'POST', url: `/v1/payment/sandbox/${started.json().paymentId}/confirm`, payload: { cardNumber: GOOD } });
    const active = (await t.current.as('alice', { method: 'GET', url: '/v1/payment/stripe/subscription' })).json();
    expect(active).toMatchObject({ status: 'ACTIVE', cancelAtPeriodEnd: false });
    expect((await me(t.current)).balance).toBe(1000);

    const renewed = await t.current.as('alice', { method: 'POST', url: `/v1/payment/sandbox/subscription/${active.id}/renew` });
    expect(renewed.json().currentPeriodStart).toBe(active.currentPeriodEnd);
    expect((await me(t.current)).balance).toBe(2000);
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/purchase/invoices' })).json().totalElements).toBe(2);

    const cancelled = await t.current.as('alice', { method: 'POST', url: '/v1/payment/stripe/subscription/cancel' });
    expect(cancelled.json()).toMatchObject({ status: 'ACTIVE', cancelAtPeriodEnd: true, currentPeriodEnd: renewed.json().currentPeriodEnd });
    await t.current.as('alice', { method: 'POST', url: `/v1/payment/sandbox/subscription/${active.id}/renew` });
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/payment/stripe/subscription' })).json()).toBeNull();
    expect((await me(t.current)).balance).toBe(2000);
    // Plans with subscribers are archived: staff still see them with their count.
    expect((await t.current.as('boss', { ...staff, method: 'DELETE', url: `/v1/subscription/${planId}` })).statusCode).toBe(204);
    expect((await t.current.app.inject({ url: '/v1/subscription' })).json().totalElements).toBe(0);
    expect((await t.current.as('boss', { ...staff, method: 'GET', url: '/v1/subscription' })).json().data[0]).toMatchObject({ archived: true, subscriberCount: 0 });
  });
});

describe('Stripe payments through the webhook', () => {
  let stripe: FakeStripe;
  let t: TestApp;
  const webhookSecret = 'whsec_test_secret_for_blockhost';
  const signer = new Stripe('sk_test_signer');

  beforeEach(async () => {
    stripe = await startFakeStripe();
    t = await startTestApp({ STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_PUBLISHABLE_KEY: 'pk_test_blockhost', STRIPE_API_URL: stripe.url });
  });
  afterEach(async () => {
    await t.close();
    await stripe.close();
  });

  const deliver = (event: StripeEvent, secret = webhookSecret) => {
    const payload = JSON.stringify(event);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret });
    return t.app.inject({ method: 'POST', url: '/v1/payment/stripe/webhook', payload, headers: { 'content-type': 'application/json', 'stripe-signature': header } });
  };

  it('credits a pack once from payment_intent.succeeded, however often it arrives, and not for a bad signature', async () => {
    const packId = await pack(t);
    const checkout = await t.as('alice', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId }, headers: { 'idempotency-key': 'buy-1' } });
    expect(checkout.statusCode).toBe(201);
    expect(checkout.json()).toMatchObject({ provider: 'stripe', publishableKey: 'pk_test_blockhost', amountCents: 499 });
    expect(checkout.json().clientSecret).toMatch(/^pi_.+_secret_/);
    const intent = [...stripe.paymentIntents.values()][0]!;
    expect(intent).toMatchObject({ amount: 499, currency: 'eur' });
    expect(stripe.calls.filter((c) => c.method === 'POST').every((c) => c.idempotencyKey)).toBe(true);

    const event = stripe.succeedPaymentIntent(intent.id);
    const forged = await deliver(event, 'whsec_wrong');
    expect(forged.statusCode).toBe(400);
    expect((await me(t)).balance).toBe(0);

    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(event)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect((await deliver(event)).statusCode).toBe(200);
    expect((await me(t)).balance).toBe(550);
    expect(await ledger(t)).toHaveLength(1);
    expect((await t.as('alice', { method: 'GET', url: '/v1/purchase/invoices' })).json().totalElements).toBe(1);
  });

  it('records a declined card, and takes the credits back with a credit note on a refund, never below zero', async () => {
    const packId = await pack(t);
    const paymentId = (await t.as('alice', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId } })).json().paymentId;
    const intent = [...stripe.paymentIntents.values()][0]!;
    await deliver(stripe.declinePaymentIntent(intent.id, 'insufficient_funds'));
    expect((await t.as('alice', { method: 'GET', url: `/v1/payment/${paymentId}` })).json()).toMatchObject({ status: 'FAILED', failureReason: 'insufficient_funds' });
    await deliver(stripe.succeedPaymentIntent(intent.id));
    expect((await me(t)).balance).toBe(550);

    // The player spent 500 of the 550: the refund takes back only the 50 left.
    const alice = (await me(t)).id;
    await t.app.services.credits.apply(t.app.services.db, { userId: alice, amount: -500, kind: 'GAME_CHARGE', reason: { key: 'text', params: { text: 'Spent' } } });
    await t.app.services.payments.provider.refund({ providerPaymentId: intent.id, amountCents: 499, refundedBeforeCents: 0, currency: 'EUR', idempotencyKey: 'refund-1' });
    await deliver(stripe.lastEvent('charge.refunded'));
    expect((await me(t)).balance).toBe(0);
    expect((await t.as('alice', { method: 'GET', url: `/v1/payment/${paymentId}` })).json()).toMatchObject({ status: 'REFUNDED', refundedCents: 499 });
    const notes = (await t.as('alice', { method: 'GET', url: '/v1/purchase/invoices' })).json().data;
    expect(notes.map((n: { kind: string; totalCents: number }) => [n.kind, n.totalCents])).toEqual([
      ['CREDIT_NOTE', -499],
      ['INVOICE', 499],
    ]);
  });

  it('grants a plan’s credits for each paid period and follows a cancellation to its end', async () => {
    const planId = (
      await t.as('boss', { ...staff, method: 'POST', url: '/v1/subscription', payload: { name: { fr: 'Annuel', en: 'Yearly' }, priceCents: 9900, currency: 'EUR', interval: 'YEAR', credits: 12000 } })
    ).json().id;
    const started = await t.as('alice', { method: 'POST', url: '/v1/payment/stripe/subscription', payload: { subscriptionId: planId } });
    expect(started.statusCode).toBe(201);
    expect(started.json().clientSecret).toBeTruthy();
    const sub = [...stripe.subscriptions.values()][0]!;
    for (const event of stripe.payInvoice(sub.id)) await deliver(event);
    expect((await me(t)).balance).toBe(12000);
    expect((await t.as('alice', { method: 'GET', url: '/v1/payment/stripe/subscription' })).json()).toMatchObject({ status: 'ACTIVE' });
    // The period ends: Stripe opens the renewal's invoice, then charges the saved card.
    for (const event of stripe.endPeriod(sub.id)) await deliver(event);
    for (const event of stripe.payInvoice(sub.id)) await deliver(event);
    expect((await me(t)).balance).toBe(24000);
    expect((await t.as('alice', { method: 'GET', url: '/v1/purchase/invoices' })).json().totalElements).toBe(2);

    const cancelled = await t.as('alice', { method: 'POST', url: '/v1/payment/stripe/subscription/cancel' });
    expect(cancelled.json()).toMatchObject({ cancelAtPeriodEnd: true });
    for (const event of stripe.endPeriod(sub.id)) await deliver(event);
    expect((await t.as('alice', { method: 'GET', url: '/v1/payment/stripe/subscription' })).json()).toBeNull();
    expect((await me(t)).balance).toBe(24000);
  });

  it('sends Stripe idempotency keys of its own for cancel and resume: two players with the same Idempotency-Key both cancel, and a call without one never reuses a request id', async () => {
    const planId = (
      await t.as('boss', { ...staff, method: 'POST', url: '/v1/subscription', payload: { name: { fr: 'Mensuel', en: 'Monthly' }, priceCents: 999, currency: 'EUR', interval: 'MONTH', credits: 1000 } })
    ).json().id;
    for (const player of ['alice', 'bob']) {
      expect((await t.as(player, { method: 'POST', url: '/v1/payment/stripe/subscription', payload: { subscriptionId: planId } })).statusCode).toBe(201);
      const sub = [...stripe.subscriptions.values()].at(-1)!;
      for (const event of stripe.payInvoice(sub.id)) await deliver(event);
    }
    const updates = () => stripe.calls.filter((c) => c.method === 'POST' && c.path.startsWith('/v1/subscriptions/'));
    const before = updates().length;
    for (const player of ['alice', 'bob']) {
      const cancelled = await t.as(player, { method: 'POST', url: '/v1/payment/stripe/subscription/cancel', headers: { 'idempotency-key': 'same-key' } });
      expect(cancelled.json()).toMatchObject({ cancelAtPeriodEnd: true });
    }
    expect((await t.as('alice', { method: 'POST', url: '/v1/payment/stripe/subscription/resume' })).json()).toMatchObject({ cancelAtPeriodEnd: false });
    const sent = updates().slice(before);
    expect(sent.map((c) => [c.replayed, c.params.cancel_at_period_end])).toEqual([
      [false, 'true'],
      [false, 'true'],
      [false, 'false'],
    ]);
    const keys = sent.map((c) => c.idempotencyKey);
    expect(new Set(keys).size).toBe(3);
    for (const key of keys) expect(key).not.toMatch(/same-key|^(cancel|resume)-req-/);
    expect([...stripe.subscriptions.values()].map((s) => s.cancel_at_period_end)).toEqual([false, true]);
  });

  it('gives a promo code back on payment_intent.payment_failed, and flags for staff a declined intent paid after all once the code had gone to another payment', async () => {
    const packId = await pack(t);
    await t.as('boss', { ...staff, method: 'POST', url: '/v1/promocode', payload: { code: 'ONCE', kind: 'BONUS_CREDITS', value: 100, maxUses: 1 } });
    const first = (await t.as('alice', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId, promoCode: 'ONCE' } })).json().paymentId;
    const intent = [...stripe.paymentIntents.values()][0]!;
    expect((await deliver(stripe.declinePaymentIntent(intent.id))).statusCode).toBe(200);
    expect(await promoUses(t, 'ONCE')).toBe(0);
    const bob = await t.as('bob', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId, promoCode: 'ONCE' } });
    expect(bob.json()).toMatchObject({ credits: 550, bonusCredits: 100 });

    // Stripe.js retried Alice's intent with another card: the money is in, she gets what she was shown.
    expect((await deliver(stripe.succeedPaymentIntent(intent.id))).statusCode).toBe(200);
    expect((await me(t)).balance).toBe(650);
    expect(await staffPayment(t, first)).toMatchObject({ status: 'SUCCEEDED', flag: 'PROMO_OVER_LIMIT' });
    expect(await promoUses(t, 'ONCE')).toBe(2);
  });

  it('credits nothing for a payment event with another amount or currency, and flags the payment for staff', async () => {
    const packId = await pack(t);
    const paymentId = (await t.as('alice', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId } })).json().paymentId;
    const intent = [...stripe.paymentIntents.values()][0]!;
    const yen = stripe.makeEvent('payment_intent.succeeded', { ...intent, status: 'succeeded', amount: 1, amount_received: 1, currency: 'jpy' } as never);
    expect((await deliver(yen)).statusCode).toBe(200);
    expect((await deliver(yen)).statusCode).toBe(200);
    const cents = stripe.makeEvent('payment_intent.succeeded', { ...intent, status: 'succeeded', amount: 1, amount_received: 1 } as never);
    expect((await deliver(cents)).statusCode).toBe(200);
    expect((await me(t)).balance).toBe(0);
    expect(await ledger(t)).toHaveLength(0);
    expect((await t.as('alice', { method: 'GET', url: '/v1/purchase/invoices' })).json().totalElements).toBe(0);
    const flagged = { id: paymentId, status: 'FAILED', flag: 'AMOUNT_MISMATCH', reportedAmountCents: 1, reportedCurrency: 'JPY', amountCents: 499, currency: 'EUR' };
    expect(await staffPayment(t, paymentId)).toMatchObject(flagged);
    expect((await t.as('boss', { ...staff, method: 'GET', url: '/v1/staff/payments' })).json().data).toMatchObject([flagged]);
  });

  it('answers 400 to signed events it cannot read, records them, and applies nothing', async () => {
    const packId = await pack(t);
    await t.as('alice', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId } });
    const intent = [...stripe.paymentIntents.values()][0]!;
    const noCurrency = stripe.makeEvent('payment_intent.succeeded', { ...intent, status: 'succeeded', amount_received: 499, currency: null } as never);
    const answer = await deliver(noCurrency);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().detail).toMatch(/currency/);
    const textAmount = stripe.makeEvent('charge.refunded', { id: 'ch_x', object: 'charge', payment_intent: intent.id, amount_refunded: '499', currency: 'eur' } as never);
    expect((await deliver(textAmount)).statusCode).toBe(400);
    const notJson = 'not json';
    const signed = signer.webhooks.generateTestHeaderString({ payload: notJson, secret: webhookSecret });
    const raw = await t.app.inject({ method: 'POST', url: '/v1/payment/stripe/webhook', payload: notJson, headers: { 'content-type': 'application/json', 'stripe-signature': signed } });
    expect(raw.statusCode).toBe(400);
    expect((await me(t)).balance).toBe(0);
    const rejected = await t.app.services.db.select().from(rejectedProviderEvents).orderBy(rejectedProviderEvents.receivedAt);
    expect(rejected.map((r) => [r.eventId, r.type])).toEqual([
      [noCurrency.id, 'payment_intent.succeeded'],
      [textAmount.id, 'charge.refunded'],
      [null, null],
    ]);
    // The same event readable is applied as any other: the refusal did not mark it applied.
    expect((await deliver({ ...noCurrency, data: { object: { ...noCurrency.data.object, currency: 'eur' } as never } })).statusCode).toBe(200);
    expect((await me(t)).balance).toBe(550);
  });

  it('refuses a webhook signed more than 5 minutes from now, in the past or in the future', async () => {
    const packId = await pack(t);
    await t.as('alice', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId } });
    const event = stripe.succeedPaymentIntent([...stripe.paymentIntents.values()][0]!.id);
    const payload = JSON.stringify(event);
    const at = (seconds: number) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/payment/stripe/webhook',
        payload,
        headers: {
          'content-type': 'application/json',
          'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret, timestamp: Math.floor(Date.now() / 1000) + seconds }),
        },
      });
    for (const seconds of [3600, 400, -400, -3600]) expect((await at(seconds)).statusCode, `${seconds} s`).toBe(400);
    expect((await me(t)).balance).toBe(0);
    expect((await at(60)).statusCode).toBe(200);
    expect((await me(t)).balance).toBe(550);
  });

  it('cancels and resumes subscriptions with Stripe idempotency keys of their own: two players with the same key both reach Stripe, a replay does not', async () => {
    const planId = (
      await t.as('boss', { ...staff, method: 'POST', url: '/v1/subscription', payload: { name: { fr: 'Mensuel', en: 'Monthly' }, priceCents: 999, currency: 'EUR', interval: 'MONTH', credits: 1000 } })
    ).json().id;
    for (const user of ['alice', 'bob']) {
      await t.as(user, { method: 'POST', url: '/v1/payment/stripe/subscription', payload: { subscriptionId: planId } });
      const sub = [...stripe.subscriptions.values()].at(-1)!;
      for (const event of stripe.payInvoice(sub.id)) await deliver(event);
    }
    const updates = () => stripe.calls.filter((c) => c.method === 'POST' && /^\/v1\/subscriptions\/sub_/.test(c.path));
    for (const action of ['cancel', 'resume']) {
      const before = updates().length;
      const answers = [];
      for (const user of ['alice', 'bob', 'alice']) answers.push(await t.as(user, { method: 'POST', url: `/v1/payment/stripe/subscription/${action}`, headers: { 'idempotency-key': `${action}-1` } }));
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
      expect(answers[2]!.headers['idempotent-replayed']).toBe('true');
      expect(answers.map((a) => a.json().cancelAtPeriodEnd)).toEqual(action === 'cancel' ? [true, true, true] : [false, false, false]);
      const sent = updates().slice(before);
      expect(sent).toHaveLength(2);
      expect(sent.every((c) => c.status === 200 && !c.replayed)).toBe(true);
      expect(new Set(sent.map((c) => c.idempotencyKey)).size).toBe(2);
    }
    // Without a key, two calls are two requests to Stripe, each with its own key.
    await t.as('alice', { method: 'POST', url: '/v1/payment/stripe/subscription/cancel' });
    await t.as('alice', { method: 'POST', url: '/v1/payment/stripe/subscription/resume' });
    const keys = updates().map((c) => c.idempotencyKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('refunds a payment once when staff ask again before Stripe confirms: the second ask answers 409 and writes nothing', async () => {
    const packId = await pack(t);
    const paymentId = (await t.as('alice', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId } })).json().paymentId;
    await deliver(stripe.succeedPaymentIntent([...stripe.paymentIntents.values()][0]!.id));
    const refund = () => t.as('boss', { ...staff, method: 'POST', url: `/v1/staff/payments/${paymentId}/refund`, payload: { reason: 'Asked by the player' } });
    const at0nce = await Promise.all([refund(), refund()]);
    expect(at0nce.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const later = await refund();
    expect(later.statusCode).toBe(409);
    expect(later.json().code).toBe('payments.refundAsked');
    expect(await staffPayment(t, paymentId)).toMatchObject({ status: 'SUCCEEDED', refundable: false, refundRequestedAt: expect.any(String) });
    expect(stripe.calls.filter((c) => c.method === 'POST' && c.path === '/v1/refunds')).toHaveLength(1);
    const audit = (await t.as('boss', { ...staff, method: 'GET', url: `/v1/staff/audit?entityId=${paymentId}` })).json().data as Array<{ action: string }>;
    expect(audit.filter((a) => a.action === 'payment.refund')).toHaveLength(1);

    expect((await deliver(stripe.lastEvent('charge.refunded'))).statusCode).toBe(200);
    expect(await staffPayment(t, paymentId)).toMatchObject({ status: 'REFUNDED', refundRequestedAt: null, refundable: false });
    expect((await refund()).statusCode).toBe(409);
  });

  it('acknowledges and ignores events about objects it did not create', async () => {
    const stranger = stripe.makeEvent('payment_intent.succeeded', { id: 'pi_not_ours', object: 'payment_intent', amount: 100, currency: 'eur', metadata: {} } as never);
    expect((await deliver(stranger)).statusCode).toBe(200);
    const unknownType = stripe.makeEvent('customer.created', { id: 'cus_x', object: 'customer' } as never);
    expect((await deliver(unknownType)).statusCode).toBe(200);
  });
});
