import { describe, expect, it } from 'vitest';
import { createPaymentProvider } from './index.ts';
import { PaymentProviderError, WebhookSignatureError, type PaymentIntentInput, type SubscriptionInput } from './provider.ts';
import { SandboxProvider, sandboxCards } from './sandbox.ts';
import { StripeProvider } from './stripe.ts';

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';

describe('SandboxProvider', () => {
  const sandbox = new SandboxProvider();
  const pack: PaymentIntentInput = {
    paymentId: 'pay-1',
    userId: 'user-1',
    email: null,
    customerId: null,
    amountCents: 1000,
    currency: 'EUR',
    description: '1000 credits',
    idempotencyKey: 'payment-pay-1',
  };
  const subscriber: SubscriptionInput = {
    subscriptionId: 'subscription-1',
    userId: 'user-1',
    email: null,
    customerId: null,
    plan: { planId: 'plan-1', name: 'Gold', priceCents: 999, currency: 'EUR', interval: 'MONTH', providerPriceId: null },
    idempotencyKey: 'subscription-subscription-1',
  };
  const may1 = new Date('2026-05-01T00:00:00Z');
  const june1 = new Date('2026-06-01T00:00:00Z');
  const july1 = new Date('2026-07-01T00:00:00Z');

  it('makes sandbox objects, the same for the same key, with nothing for Stripe.js', async () => {
    expect(sandbox.name).toBe('sandbox');
    expect(sandbox.publishableKey).toBeNull();
    const intent = await sandbox.createPaymentIntent(pack);
    expect(intent).toEqual({ providerPaymentId: expect.stringMatching(new RegExp(`^sbx_pi_${uuid}$`)), clientSecret: null, customerId: null });
    expect(await sandbox.createPaymentIntent(pack)).toEqual(intent);
    expect((await sandbox.createPaymentIntent({ ...pack, idempotencyKey: 'payment-pay-2' })).providerPaymentId).not.toBe(intent.providerPaymentId);

    const subscription = await sandbox.createSubscription(subscriber);
    expect(subscription).toEqual({ providerSubscriptionId: expect.stringMatching(new RegExp(`^sbx_sub_${uuid}$`)), clientSecret: null, customerId: null, providerPriceId: null });
    expect(await sandbox.createSubscription(subscriber)).toEqual(subscription);
    expect(await sandbox.cancelSubscription()).toEqual({ currentPeriodEnd: null });
  });

  it('settles a pack with the three test cards', () => {
    const [succeeded] = sandbox.confirm('sbx_pi_1', sandboxCards.success, 1000, 'EUR');
    expect(succeeded).toEqual({ id: expect.stringMatching(new RegExp(`^sbx_evt_${uuid}$`)), type: 'payment.succeeded', providerPaymentId: 'sbx_pi_1', amountCents: 1000, currency: 'EUR' });
    expect(sandbox.confirm('sbx_pi_2', '4000 0000 0000 0002', 1000, 'EUR')).toEqual([
      { id: expect.any(String), type: 'payment.failed', providerPaymentId: 'sbx_pi_2', reason: 'declined', message: 'Your card was declined.' },
    ]);
    expect(sandbox.confirm('sbx_pi_3', '4000000000009995', 1000, 'EUR')).toEqual([
      { id: expect.any(String), type: 'payment.failed', providerPaymentId: 'sbx_pi_3', reason: 'insufficient_funds', message: 'Your card has insufficient funds.' },
    ]);
  });

  it('refuses any other card number, naming the test cards', () => {
    const refuse = () => sandbox.confirm('sbx_pi_1', '5555555555554444', 1000, 'EUR');
    expect(refuse).toThrow(PaymentProviderError);
    expect(refuse).toThrow(expect.objectContaining({ key: 'payments.sandboxCards', params: { success: '4242424242424242', declined: '4000000000000002', insufficientFunds: '4000000000009995' } }));
    expect(() => sandbox.renew('sbx_sub_1', '1234', 999, 'EUR', june1, july1)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('gives a replayed confirmation the same event id, and a new outcome a new one', () => {
    const [first] = sandbox.confirm('sbx_pi_1', sandboxCards.success, 1000, 'EUR');
    const [again] = sandbox.confirm('sbx_pi_1', sandboxCards.success, 1000, 'EUR');
    const [declined] = sandbox.confirm('sbx_pi_1', sandboxCards.declined, 1000, 'EUR');
    const [otherPayment] = sandbox.confirm('sbx_pi_2', sandboxCards.success, 1000, 'EUR');
    expect(again!.id).toBe(first!.id);
    expect(new Set([first!.id, declined!.id, otherPayment!.id]).size).toBe(3);
  });

  it("pays a subscription's first period and the next on renewal", () => {
    const first = sandbox.confirmSubscription('sbx_sub_1', sandboxCards.success, 999, 'EUR', may1, june1);
    expect(first).toEqual([
      {
        id: expect.any(String),
        type: 'invoice.paid',
        providerSubscriptionId: 'sbx_sub_1',
        providerInvoiceId: expect.stringMatching(new RegExp(`^sbx_in_${uuid}$`)),
        amountCents: 999,
        currency: 'EUR',
        periodStart: may1,
        periodEnd: june1,
      },
      { id: expect.any(String), type: 'subscription.updated', providerSubscriptionId: 'sbx_sub_1', status: 'ACTIVE', currentPeriodEnd: june1, cancelAtPeriodEnd: false },
    ]);
    const second = sandbox.renew('sbx_sub_1', sandboxCards.success, 999, 'EUR', june1, july1);
    expect(second[0]).toMatchObject({ type: 'invoice.paid', periodStart: june1, periodEnd: july1 });
    expect(second[1]).toMatchObject({ type: 'subscription.updated', status: 'ACTIVE', currentPeriodEnd: july1 });
    const ids = [...first, ...second].map((e) => e.id);
    expect(new Set(ids).size).toBe(4);
    expect(second[0]).not.toMatchObject({ providerInvoiceId: (first[0] as { providerInvoiceId: string }).providerInvoiceId });
    // Renewing the same period twice is the same invoice and the same events.
    expect(sandbox.renew('sbx_sub_1', sandboxCards.success, 999, 'EUR', june1, july1)).toEqual(second);
  });

  it('fails a first payment with the invoice alone, and a renewal past due', () => {
    expect(sandbox.confirmSubscription('sbx_sub_1', sandboxCards.declined, 999, 'EUR', may1, june1)).toEqual([
      { id: expect.any(String), type: 'invoice.failed', providerSubscriptionId: 'sbx_sub_1', providerInvoiceId: expect.any(String), reason: 'declined', message: 'Your card was declined.' },
    ]);
    const renewal = sandbox.renew('sbx_sub_1', sandboxCards.insufficientFunds, 999, 'EUR', june1, july1);
    expect(renewal).toEqual([
      expect.objectContaining({ type: 'invoice.failed', reason: 'insufficient_funds' }),
      expect.objectContaining({ type: 'subscription.updated', status: 'PAST_DUE', currentPeriodEnd: july1 }),
    ]);
    // Paying the same invoice afterwards is a new event for the same invoice.
    const paid = sandbox.renew('sbx_sub_1', sandboxCards.success, 999, 'EUR', june1, july1);
    expect(paid[0]).toMatchObject({ type: 'invoice.paid', providerInvoiceId: (renewal[0] as { providerInvoiceId: string }).providerInvoiceId });
    expect(paid[0]!.id).not.toBe(renewal[0]!.id);
  });

  it('answers a refund with charge.refunded, once per total refunded', async () => {
    const refund = (amountCents: number, refundedBeforeCents: number) => sandbox.refund({ providerPaymentId: 'sbx_pi_1', amountCents, refundedBeforeCents, currency: 'EUR', idempotencyKey: 'k' });
    const [partial] = await refund(300, 0);
    expect(partial).toEqual({ id: expect.stringMatching(/^sbx_evt_/), type: 'charge.refunded', providerPaymentId: 'sbx_pi_1', amountRefundedCents: 300, currency: 'EUR' });
    expect((await refund(300, 0))[0]!.id).toBe(partial!.id);
    const [rest] = await refund(700, 300);
    expect(rest).toMatchObject({ amountRefundedCents: 1000 });
    expect(rest!.id).not.toBe(partial!.id);
  });

  it('has no webhook', () => {
    expect(() => sandbox.parseWebhook()).toThrow(WebhookSignatureError);
  });
});

describe('createPaymentProvider', () => {
  it('is the sandbox without a Stripe key', () => {
    expect(createPaymentProvider({})).toBeInstanceOf(SandboxProvider);
    expect(createPaymentProvider({ secretKey: undefined, webhookSecret: 'whsec_x' })).toBeInstanceOf(SandboxProvider);
  });

  it('is Stripe with a key, which needs the webhook secret', () => {
    expect(() => createPaymentProvider({ secretKey: 'sk_test_x' })).toThrow(/STRIPE_WEBHOOK_SECRET is required/);
    const stripe = createPaymentProvider({ secretKey: 'sk_test_x', webhookSecret: 'whsec_x', publishableKey: 'pk_test_x', apiUrl: 'http://127.0.0.1:12111' });
    expect(stripe).toBeInstanceOf(StripeProvider);
    expect(stripe.publishableKey).toBe('pk_test_x');
    expect(createPaymentProvider({ secretKey: 'sk_test_x', webhookSecret: 'whsec_x' }).publishableKey).toBeNull();
  });

  it('refuses an API address that is not http(s)', () => {
    expect(() => createPaymentProvider({ secretKey: 'sk_test_x', webhookSecret: 'whsec_x', apiUrl: 'ftp://127.0.0.1' })).toThrow(/STRIPE_API_URL/);
  });
});
