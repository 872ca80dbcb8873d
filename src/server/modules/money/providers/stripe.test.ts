import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe, type StripeEvent } from '../../../../../tests/fixtures/stripe.ts';
import { PaymentProviderError, WebhookSignatureError, type PaymentIntentInput, type ProviderEvent, type SubscriptionInput } from './provider.ts';
import { failureReason, StripeProvider } from './stripe.ts';

/**
 * The stripe provider against a fake Stripe API (its wire format, in memory), with webhooks signed
 * by the SDK's own test signer, as Stripe signs them.
 */
describe('StripeProvider', () => {
  const webhookSecret = 'whsec_test_secret';
  let fake: FakeStripe;
  let provider: StripeProvider;

  beforeEach(async () => {
    fake = await startFakeStripe();
    provider = new StripeProvider({ secretKey: fake.secretKey, webhookSecret, publishableKey: 'pk_test_blockhost', apiUrl: fake.url });
  });

  afterEach(async () => {
    await fake.close();
  });

  /** Stripe posting an event to the webhook. */
  function deliver(event: StripeEvent | Record<string, unknown>, secret = webhookSecret): ProviderEvent {
    const payload = JSON.stringify(event);
    return provider.parseWebhook(Buffer.from(payload), Stripe.webhooks.generateTestHeaderString({ payload, secret }));
  }

  const pack = (overrides: Partial<PaymentIntentInput> = {}): PaymentIntentInput => ({
    paymentId: 'pay-1',
    userId: 'user-1',
    email: 'steve@example.com',
    customerId: null,
    amountCents: 1000,
    currency: 'EUR',
    description: '1000 credits',
    idempotencyKey: 'payment-pay-1',
    ...overrides,
  });

  const subscriber = (overrides: Partial<SubscriptionInput> = {}): SubscriptionInput => ({
    subscriptionId: 'subscription-1',
    userId: 'user-1',
    email: 'steve@example.com',
    customerId: null,
    plan: { planId: 'plan-1', name: 'Gold', priceCents: 999, currency: 'EUR', interval: 'MONTH', providerPriceId: null },
    idempotencyKey: 'subscription-subscription-1',
    ...overrides,
  });

  const posts = () => fake.calls.filter((c) => c.method === 'POST').map((c) => `${c.path} ${c.idempotencyKey}${c.replayed ? ' (replayed)' : ''}`);

  describe('credit packs', () => {
    it('creates the intent with the Idempotency-Key, and the same key gives the same intent', async () => {
      const created = await provider.createPaymentIntent(pack());
      expect(created.providerPaymentId).toMatch(/^pi_/);
      expect(created.customerId).toMatch(/^cus_/);
      expect(created.clientSecret).toBe(fake.paymentIntents.get(created.providerPaymentId)!.client_secret);

      const call = fake.calls.find((c) => c.path === '/v1/payment_intents')!;
      expect(call.idempotencyKey).toBe('payment-pay-1');
      expect(call.stripeVersion).toBe(Stripe.API_VERSION);
      expect(call.params).toEqual({
        amount: '1000',
        currency: 'eur',
        customer: created.customerId,
        description: '1000 credits',
        automatic_payment_methods: { enabled: 'true' },
        metadata: { paymentId: 'pay-1', userId: 'user-1' },
      });
      expect(fake.customers.get(created.customerId!)).toMatchObject({ email: 'steve@example.com', metadata: { userId: 'user-1' } });

      // A retried creation (a lost answer, a double click) is answered by Stripe from its key.
      expect(await provider.createPaymentIntent(pack())).toEqual(created);
      expect(fake.paymentIntents.size).toBe(1);
      expect(fake.customers.size).toBe(1);
      expect(posts()).toEqual([
        '/v1/customers payment-pay-1:customer',
        '/v1/payment_intents payment-pay-1',
        '/v1/customers payment-pay-1:customer (replayed)',
        '/v1/payment_intents payment-pay-1 (replayed)',
      ]);
    });

    it("reuses the user's customer", async () => {
      const first = await provider.createPaymentIntent(pack());
      const second = await provider.createPaymentIntent(pack({ paymentId: 'pay-2', idempotencyKey: 'payment-pay-2', customerId: first.customerId }));
      expect(second.customerId).toBe(first.customerId);
      expect(second.providerPaymentId).not.toBe(first.providerPaymentId);
      expect(fake.customers.size).toBe(1);
    });

    it('maps a bought pack and declined cards from signed webhooks', async () => {
      const { providerPaymentId } = await provider.createPaymentIntent(pack());
      const succeeded = fake.succeedPaymentIntent(providerPaymentId);
      expect(deliver(succeeded)).toEqual({ id: succeeded.id, type: 'payment.succeeded', providerPaymentId, amountCents: 1000, currency: 'EUR' });

      const cases: Array<[string, string, string]> = [
        ['generic_decline', 'declined', 'Your card was declined.'],
        ['insufficient_funds', 'insufficient_funds', 'Your card has insufficient funds.'],
        ['expired_card', 'expired_card', 'Your card has expired.'],
        ['processing_error', 'processing_error', 'An error occurred while processing your card. Try again in a little bit.'],
      ];
      for (const [declineCode, reason, message] of cases) {
        const other = await provider.createPaymentIntent(pack({ paymentId: `pay-${declineCode}`, idempotencyKey: `payment-${declineCode}` }));
        const failed = fake.declinePaymentIntent(other.providerPaymentId, declineCode);
        expect(deliver(failed)).toEqual({ id: failed.id, type: 'payment.failed', providerPaymentId: other.providerPaymentId, reason, message });
      }
    });

    it('answers a replayed event with the same id, for the payments module to apply it once', async () => {
      const { providerPaymentId } = await provider.createPaymentIntent(pack());
      const succeeded = fake.succeedPaymentIntent(providerPaymentId);
      expect(deliver(succeeded)).toEqual(deliver(succeeded));
      expect(deliver(succeeded).id).toBe(succeeded.id);
    });
  });

  describe('subscriptions', () => {
    it("makes the plan's product and price once, then subscribes with the first invoice's secret", async () => {
      const created = await provider.createSubscription(subscriber());
      expect(created.providerSubscriptionId).toMatch(/^sub_/);
      expect(created.providerPriceId).toMatch(/^price_/);
      const subscription = fake.subscriptions.get(created.providerSubscriptionId)!;
      const invoice = fake.invoices.get(subscription.latest_invoice as string)!;
      expect(invoice.billing_reason).toBe('subscription_create');
      expect(created.clientSecret).toMatch(/^pi_\w+_secret_/);
      expect(subscription.status).toBe('incomplete');

      expect(fake.calls.find((c) => c.path === '/v1/prices')!.params).toEqual({
        product: [...fake.products.keys()][0],
        unit_amount: '999',
        currency: 'eur',
        recurring: { interval: 'month' },
        metadata: { planId: 'plan-1' },
      });
      expect(fake.calls.find((c) => c.path === '/v1/subscriptions')!.params).toEqual({
        customer: created.customerId,
        items: [{ price: created.providerPriceId }],
        payment_behavior: 'default_incomplete',
        payment_settings: { save_default_payment_method: 'on_subscription' },
        expand: ['latest_invoice.confirmation_secret'],
        metadata: { subscriptionId: 'subscription-1', userId: 'user-1' },
      });

      // The second subscriber comes with the price kept on the plan.
      const plan = { ...subscriber().plan, providerPriceId: created.providerPriceId };
      const second = await provider.createSubscription(subscriber({ subscriptionId: 'subscription-2', userId: 'user-2', idempotencyKey: 'subscription-subscription-2', plan }));
      expect(second.providerPriceId).toBe(created.providerPriceId);
      expect(fake.products.size).toBe(1);
      expect(fake.prices.size).toBe(1);
      expect(posts()).toEqual([
        '/v1/customers subscription-subscription-1:customer',
        '/v1/products subscription-subscription-1:product',
        '/v1/prices subscription-subscription-1:price',
        '/v1/subscriptions subscription-subscription-1',
        '/v1/customers subscription-subscription-2:customer',
        '/v1/subscriptions subscription-subscription-2',
      ]);
    });

    it('bills a yearly plan every year', async () => {
      await provider.createSubscription(subscriber({ plan: { ...subscriber().plan, interval: 'YEAR' } }));
      expect([...fake.prices.values()][0]!.recurring.interval).toBe('year');
    });

    it('maps two paid periods from invoice.paid, with the periods of their lines', async () => {
      const { providerSubscriptionId } = await provider.createSubscription(subscriber());
      const item = () => fake.subscriptions.get(providerSubscriptionId)!.items.data[0]!;
      const first = { start: item().current_period_start, end: item().current_period_end };

      const paid = fake.payInvoice(providerSubscriptionId).map((event) => deliver(event));
      const invoiceId = [...fake.invoices.keys()][0]!;
      expect(paid).toEqual([
        // The invoice's own payment carries no paymentId of ours: the invoice says it all.
        expect.objectContaining({ type: 'ignored', providerType: 'payment_intent.succeeded' }),
        expect.objectContaining({
          type: 'invoice.paid',
          providerSubscriptionId,
          providerInvoiceId: invoiceId,
          amountCents: 999,
          currency: 'EUR',
          periodStart: new Date(first.start * 1000),
          periodEnd: new Date(first.end * 1000),
        }),
        expect.objectContaining({ type: 'ignored', providerType: 'invoice.payment_succeeded' }),
        expect.objectContaining({ type: 'subscription.updated', providerSubscriptionId, status: 'ACTIVE', currentPeriodEnd: new Date(first.end * 1000), cancelAtPeriodEnd: false }),
      ]);
      expect(first.end - first.start).toBeGreaterThanOrEqual(28 * 86400);

      const renewal = fake.endPeriod(providerSubscriptionId).map((event) => deliver(event));
      const second = { start: item().current_period_start, end: item().current_period_end };
      expect(second.start).toBe(first.end);
      expect(renewal[0]).toEqual(expect.objectContaining({ type: 'subscription.updated', status: 'ACTIVE', currentPeriodEnd: new Date(second.end * 1000) }));

      const renewed = fake.payInvoice(providerSubscriptionId).map((event) => deliver(event));
      const renewalInvoice = [...fake.invoices.values()][1]!;
      // The renewal invoice's own period is the one before: the line is what it pays for.
      expect(renewalInvoice.period_end).toBe(first.end);
      expect(renewed.filter((e) => e.type === 'invoice.paid')).toEqual([
        expect.objectContaining({
          providerInvoiceId: renewalInvoice.id,
          amountCents: 999,
          periodStart: new Date(second.start * 1000),
          periodEnd: new Date(second.end * 1000),
        }),
      ]);
    });

    it('maps a refused renewal: the invoice failed, the subscription past due', async () => {
      const { providerSubscriptionId } = await provider.createSubscription(subscriber());
      fake.payInvoice(providerSubscriptionId);
      fake.endPeriod(providerSubscriptionId);
      const events = fake.failInvoice(providerSubscriptionId, 'insufficient_funds').map((event) => deliver(event));
      expect(events).toEqual([
        expect.objectContaining({ type: 'ignored', providerType: 'payment_intent.payment_failed' }),
        expect.objectContaining({ type: 'invoice.failed', providerSubscriptionId, providerInvoiceId: [...fake.invoices.keys()][1], reason: 'other' }),
        expect.objectContaining({ type: 'subscription.updated', providerSubscriptionId, status: 'PAST_DUE' }),
      ]);
    });

    it('cancels at the end of the period, can take it back, and ends', async () => {
      const { providerSubscriptionId } = await provider.createSubscription(subscriber());
      fake.payInvoice(providerSubscriptionId);
      const periodEnd = new Date(fake.subscriptions.get(providerSubscriptionId)!.items.data[0]!.current_period_end * 1000);

      expect(await provider.cancelSubscription(providerSubscriptionId, 'cancel-1')).toEqual({ currentPeriodEnd: periodEnd });
      expect(fake.calls.at(-1)).toMatchObject({ method: 'POST', path: `/v1/subscriptions/${providerSubscriptionId}`, idempotencyKey: 'cancel-1', params: { cancel_at_period_end: 'true' } });
      expect(deliver(fake.lastEvent('customer.subscription.updated'))).toEqual(
        expect.objectContaining({ type: 'subscription.updated', status: 'ACTIVE', cancelAtPeriodEnd: true, currentPeriodEnd: periodEnd }),
      );

      await provider.resumeSubscription(providerSubscriptionId, 'resume-1');
      expect(fake.calls.at(-1)).toMatchObject({ idempotencyKey: 'resume-1', params: { cancel_at_period_end: 'false' } });
      expect(deliver(fake.lastEvent('customer.subscription.updated'))).toEqual(expect.objectContaining({ type: 'subscription.updated', cancelAtPeriodEnd: false }));

      await provider.cancelSubscription(providerSubscriptionId, 'cancel-2');
      const [deleted] = fake.endPeriod(providerSubscriptionId);
      expect(deliver(deleted!)).toEqual({ id: deleted!.id, type: 'subscription.deleted', providerSubscriptionId });
      expect(fake.invoices.size).toBe(1);
    });

    it('reads the places of API versions before 2025-03-31', () => {
      const event = (type: string, object: Record<string, unknown>) => ({
        id: `evt_${type}`,
        object: 'event',
        api_version: '2024-06-20',
        created: 1,
        livemode: false,
        pending_webhooks: 1,
        request: null,
        type,
        data: { object },
      });
      const invoice = {
        id: 'in_legacy',
        object: 'invoice',
        subscription: 'sub_legacy',
        amount_paid: 500,
        currency: 'usd',
        period_start: 1000,
        period_end: 1000,
        lines: { object: 'list', data: [{ id: 'il_1', object: 'line_item', period: { start: 1000, end: 2000 }, type: 'subscription' }] },
      };
      expect(deliver(event('invoice.paid', invoice))).toEqual({
        id: 'evt_invoice.paid',
        type: 'invoice.paid',
        providerSubscriptionId: 'sub_legacy',
        providerInvoiceId: 'in_legacy',
        amountCents: 500,
        currency: 'USD',
        periodStart: new Date(1_000_000),
        periodEnd: new Date(2_000_000),
      });
      const subscription = {
        id: 'sub_legacy',
        object: 'subscription',
        status: 'past_due',
        cancel_at_period_end: false,
        current_period_end: 2000,
        metadata: { subscriptionId: 's' },
        items: { object: 'list', data: [] },
      };
      expect(deliver(event('customer.subscription.updated', subscription))).toEqual(expect.objectContaining({ status: 'PAST_DUE', currentPeriodEnd: new Date(2_000_000) }));
    });
  });

  describe('refunds', () => {
    const refund = (providerPaymentId: string, amountCents: number, refundedBeforeCents: number, idempotencyKey: string) => ({
      providerPaymentId,
      amountCents,
      refundedBeforeCents,
      currency: 'EUR',
      idempotencyKey,
    });
    it('refunds a pack in part then whole, each answered by charge.refunded with the total refunded', async () => {
      const { providerPaymentId } = await provider.createPaymentIntent(pack());
      fake.succeedPaymentIntent(providerPaymentId);

      await provider.refund(refund(providerPaymentId, 300, 0, 'refund-1'));
      expect(fake.calls.at(-1)).toMatchObject({ path: '/v1/refunds', idempotencyKey: 'refund-1', params: { payment_intent: providerPaymentId, amount: '300' } });
      const partial = fake.lastEvent('charge.refunded');
      expect(deliver(partial)).toEqual({ id: partial.id, type: 'charge.refunded', providerPaymentId, amountRefundedCents: 300, currency: 'EUR' });

      // Asking again with the same key refunds nothing more.
      await provider.refund(refund(providerPaymentId, 300, 0, 'refund-1'));
      expect(fake.calls.at(-1)!.replayed).toBe(true);

      await expect(provider.refund(refund(providerPaymentId, 700, 300, 'refund-2'))).resolves.toEqual([]);
      expect(fake.calls.at(-1)!.params).toEqual({ payment_intent: providerPaymentId, amount: '700' });
      expect(deliver(fake.lastEvent('charge.refunded'))).toEqual(expect.objectContaining({ amountRefundedCents: 1000 }));

      const again = provider.refund(refund(providerPaymentId, 1000, 0, 'refund-3'));
      await expect(again).rejects.toBeInstanceOf(PaymentProviderError);
      await expect(again).rejects.toMatchObject({ status: 409, message: expect.stringContaining('has already been refunded') });
    });
  });

  describe('webhooks', () => {
    it('ignores kinds it does not act on, and objects it did not create', async () => {
      const { customerId, providerPaymentId } = await provider.createPaymentIntent(pack());
      const customerCreated = fake.makeEvent('customer.created', fake.customers.get(customerId!)!);
      expect(deliver(customerCreated)).toEqual({ id: customerCreated.id, type: 'ignored', providerType: 'customer.created' });

      // An intent made elsewhere on the same account (a dashboard payment, another app).
      const foreign = { ...fake.paymentIntents.get(providerPaymentId)!, id: 'pi_foreign', metadata: {} };
      expect(deliver(fake.makeEvent('payment_intent.succeeded', foreign))).toEqual(expect.objectContaining({ type: 'ignored', providerType: 'payment_intent.succeeded' }));

      const { providerSubscriptionId } = await provider.createSubscription(subscriber());
      const ours = fake.subscriptions.get(providerSubscriptionId)!;
      const theirs = { ...ours, id: 'sub_foreign', metadata: {} };
      expect(deliver(fake.makeEvent('customer.subscription.updated', theirs))).toEqual(expect.objectContaining({ type: 'ignored' }));
      expect(deliver(fake.makeEvent('customer.subscription.deleted', theirs))).toEqual(expect.objectContaining({ type: 'ignored' }));
      const invoice = fake.invoices.get(ours.latest_invoice as string)!;
      const foreignInvoice = { ...invoice, parent: { ...invoice.parent, subscription_details: { metadata: {}, subscription: 'sub_foreign' } } };
      expect(deliver(fake.makeEvent('invoice.paid', foreignInvoice))).toEqual(expect.objectContaining({ type: 'ignored', providerType: 'invoice.paid' }));
      expect(deliver(fake.makeEvent('invoice.paid', invoice))).toEqual(expect.objectContaining({ type: 'invoice.paid', providerSubscriptionId }));
    });

    it('refuses a bad, stale or missing signature', async () => {
      const { providerPaymentId } = await provider.createPaymentIntent(pack());
      const event = fake.succeedPaymentIntent(providerPaymentId);
      const payload = JSON.stringify(event);
      const signed = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });

      expect(() => deliver(event, 'whsec_someone_else')).toThrow(WebhookSignatureError);
      expect(() => provider.parseWebhook(Buffer.from(payload), undefined)).toThrow(WebhookSignatureError);
      expect(() => provider.parseWebhook(Buffer.from(payload), '')).toThrow(WebhookSignatureError);
      expect(() => provider.parseWebhook(Buffer.from(payload.replace('"amount":1000', '"amount":9000')), signed)).toThrow(WebhookSignatureError);
      const stale = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret, timestamp: Math.floor(Date.now() / 1000) - 3600 });
      expect(() => provider.parseWebhook(Buffer.from(payload), stale)).toThrow(WebhookSignatureError);
      expect(provider.parseWebhook(Buffer.from(payload), signed)).toEqual(expect.objectContaining({ type: 'payment.succeeded' }));
    });
  });

  describe('errors', () => {
    it("answers a card error with 402 and Stripe's message", async () => {
      fake.failNext(402, { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' });
      const attempt = provider.createPaymentIntent(pack({ customerId: 'cus_known' }));
      await expect(attempt).rejects.toBeInstanceOf(PaymentProviderError);
      await expect(attempt).rejects.toMatchObject({ status: 402, message: 'Your card was declined.' });
    });

    it("answers an invalid request with 400 and Stripe's message", async () => {
      const attempt = provider.createPaymentIntent(pack({ customerId: 'cus_missing' }));
      await expect(attempt).rejects.toMatchObject({ status: 400, message: "No such customer: 'cus_missing'" });
      await expect(provider.cancelSubscription('sub_missing', 'cancel-x')).rejects.toMatchObject({ status: 400 });
    });

    it('answers 503 when Stripe fails or refuses our key, without naming the key', async () => {
      fake.failNext(500, { type: 'api_error', message: 'An unknown error occurred' });
      await expect(provider.createPaymentIntent(pack())).rejects.toMatchObject({ status: 503, message: 'An unknown error occurred' });

      const wrongKey = new StripeProvider({ secretKey: 'sk_test_wrong_key_1234', webhookSecret, publishableKey: null, apiUrl: fake.url });
      const attempt = wrongKey.createPaymentIntent(pack());
      await expect(attempt).rejects.toMatchObject({ status: 503, message: 'The payment provider refused our credentials' });
      await expect(attempt).rejects.not.toMatchObject({ message: expect.stringContaining('1234') });
    });
  });

  it('maps the codes of a refused payment', () => {
    expect(failureReason('insufficient_funds', 'card_declined')).toBe('insufficient_funds');
    expect(failureReason('do_not_honor', 'card_declined')).toBe('declined');
    expect(failureReason(undefined, 'card_declined')).toBe('declined');
    expect(failureReason(undefined, 'expired_card')).toBe('expired_card');
    expect(failureReason(undefined, 'processing_error')).toBe('processing_error');
    expect(failureReason(undefined, 'payment_intent_authentication_failure')).toBe('other');
    expect(failureReason(undefined, undefined)).toBe('other');
  });

  it('publishes its publishable key', () => {
    expect(provider.name).toBe('stripe');
    expect(provider.publishableKey).toBe('pk_test_blockhost');
  });
});
