import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import {
  MalformedEventError,
  PaymentProviderError,
  WebhookSignatureError,
  type PaymentFailure,
  type PaymentIntentCreated,
  type PaymentIntentInput,
  type PaymentProvider,
  type ProviderEvent,
  type RefundInput,
  type SubscriptionCreated,
  type SubscriptionInput,
  type SubscriptionStatus,
} from './provider.ts';
import { unstorable } from '../../../lib/text.ts';

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  publishableKey: string | null;
  /** Where the API is, e.g. `http://127.0.0.1:12111` for stripe-mock; Stripe's own when unset. */
  apiUrl?: string;
}

/**
 * The SDK, loaded when a provider is made, not at the module's top: it is some 200 modules, which
 * an API on the sandbox (no STRIPE_SECRET_KEY) would load at every start for nothing.
 */
const stripeSdk = () => createRequire(import.meta.url)('stripe') as typeof Stripe;

/**
 * Card payments through Stripe: PaymentIntents for credit packs, Subscriptions for plans, and the
 * signed webhook that reports what happened to them. Written for the API version the SDK pins
 * (periods on subscription items, an invoice's subscription under `parent`), reading the older
 * places too where an endpoint may still render events in a legacy version.
 */
export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly publishableKey: string | null;
  private readonly stripe: Stripe;
  private readonly webhookSecret: string;

  constructor(options: StripeProviderOptions) {
    this.publishableKey = options.publishableKey;
    this.webhookSecret = options.webhookSecret;
    const StripeSdk = stripeSdk();
    this.stripe = new StripeSdk(options.secretKey, { ...apiAddress(options.apiUrl), appInfo: { name: 'blockhost' } });
  }

  async createPaymentIntent(input: PaymentIntentInput): Promise<PaymentIntentCreated> {
    return call(async () => {
      const customerId = input.customerId ?? (await this.createCustomer(input.userId, input.email, input.idempotencyKey));
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: input.currency.toLowerCase(),
          customer: customerId,
          description: input.description,
          automatic_payment_methods: { enabled: true },
          metadata: { paymentId: input.paymentId, userId: input.userId },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return { providerPaymentId: intent.id, clientSecret: intent.client_secret, customerId };
    });
  }

  async createSubscription(input: SubscriptionInput): Promise<SubscriptionCreated> {
    return call(async () => {
      const customerId = input.customerId ?? (await this.createCustomer(input.userId, input.email, input.idempotencyKey));
      const priceId = input.plan.providerPriceId ?? (await this.createPrice(input));
      const subscription = await this.stripe.subscriptions.create(
        {
          customer: customerId,
          items: [{ price: priceId }],
          // The first invoice waits for the card collected by Stripe.js with the client secret below,
          // and that card is kept to pay the renewals.
          payment_behavior: 'default_incomplete',
          payment_settings: { save_default_payment_method: 'on_subscription' },
          expand: ['latest_invoice.confirmation_secret'],
          metadata: { subscriptionId: input.subscriptionId, userId: input.userId },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      const invoice = subscription.latest_invoice;
      const clientSecret = invoice && typeof invoice === 'object' ? (invoice.confirmation_secret?.client_secret ?? null) : null;
      return { providerSubscriptionId: subscription.id, clientSecret, customerId, providerPriceId: priceId };
    });
  }

  async cancelSubscription(providerSubscriptionId: string, idempotencyKey: string): Promise<{ currentPeriodEnd: Date | null }> {
    return call(async () => {
      const subscription = await this.stripe.subscriptions.update(providerSubscriptionId, { cancel_at_period_end: true }, { idempotencyKey });
      return { currentPeriodEnd: periodEnd(subscription) };
    });
  }

  async resumeSubscription(providerSubscriptionId: string, idempotencyKey: string): Promise<void> {
    await call(() => this.stripe.subscriptions.update(providerSubscriptionId, { cancel_at_period_end: false }, { idempotencyKey }));
  }

  /** Stripe reports the refund by webhook (charge.refunded): nothing to apply at once. */
  async refund(input: RefundInput): Promise<ProviderEvent[]> {
    await call(() => this.stripe.refunds.create({ payment_intent: input.providerPaymentId, amount: input.amountCents }, { idempotencyKey: input.idempotencyKey }));
    return [];
  }

  /** Cards are collected by Stripe.js in the browser. */
  readonly cardStep = null;

  parseWebhook(rawBody: Buffer, signature: string | undefined): ProviderEvent {
    if (!signature) throw new WebhookSignatureError('The Stripe-Signature header is missing');
    const tolerance = this.stripe.webhooks.DEFAULT_TOLERANCE;
    // The SDK's verifier is made with its webhooks helper; typed as possibly absent.
    const verifier = this.stripe.webhooks.signature;
    if (!verifier) throw new Error('The Stripe SDK has no webhook signature verifier');
    try {
      // The SDK checks the signature and that the event is not older than the tolerance...
      verifier.verifyHeader(rawBody, signature, this.webhookSecret, tolerance);
    } catch (error) {
      throw new WebhookSignatureError(error instanceof Error ? error.message : 'The Stripe-Signature header does not match the body');
    }
    // ...but not that it is not from the future: a header signed ahead of time would stay good for ever.
    const signedAt = Number(/(?:^|,)\s*t=(\d+)/.exec(signature)?.[1]);
    if (signedAt - Math.floor(Date.now() / 1000) > tolerance) throw new WebhookSignatureError('Timestamp outside the tolerance zone');
    let event: unknown;
    try {
      event = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw new MalformedEventError('The event is not JSON', null);
    }
    if (!isObject(event) || !isId(event.id) || !isId(event.type) || !isObject(event.data) || !isObject(event.data.object)) {
      throw new MalformedEventError('The event has no id, type or data.object', isObject(event) ? event : null);
    }
    try {
      return toProviderEvent(event as unknown as Stripe.Event);
    } catch (error) {
      throw new MalformedEventError(error instanceof Error ? error.message : String(error), event);
    }
  }

  /** The user's customer, so their cards and invoices gather in one place at Stripe. */
  private async createCustomer(userId: string, email: string | null, idempotencyKey: string): Promise<string> {
    const customer = await this.stripe.customers.create(
      { ...(email ? { email } : {}), metadata: { userId } },
      // Derived from the caller's key: a retried creation finds the same customer again.
      { idempotencyKey: `${idempotencyKey}:customer` },
    );
    return customer.id;
  }

  /** The plan's first subscriber makes its product and price; the caller keeps the price for the next. */
  private async createPrice({ plan, idempotencyKey }: SubscriptionInput): Promise<string> {
    const product = await this.stripe.products.create({ name: plan.name, metadata: { planId: plan.planId } }, { idempotencyKey: `${idempotencyKey}:product` });
    const price = await this.stripe.prices.create(
      {
        product: product.id,
        unit_amount: plan.priceCents,
        currency: plan.currency.toLowerCase(),
        recurring: { interval: plan.interval === 'YEAR' ? 'year' : 'month' },
        metadata: { planId: plan.planId },
      },
      { idempotencyKey: `${idempotencyKey}:price` },
    );
    return price.id;
  }
}

/** The SDK takes the API's address in parts. */
function apiAddress(apiUrl: string | undefined): { host?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol.slice(0, -1);
  if (protocol !== 'http' && protocol !== 'https') throw new Error(`STRIPE_API_URL must be an http or https URL, not ${apiUrl}`);
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port ? Number(url.port) : protocol === 'https' ? 443 : 80, protocol };
}

/** Runs an API call, turning Stripe's refusals into what the payments module answers with. */
async function call<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw providerError(error);
  }
}

/** Resource states a request cannot move from, which answer 409 rather than 400. */
const conflictCodes = new Set(['charge_already_refunded', 'charge_disputed', 'intent_invalid_state', 'payment_intent_unexpected_state', 'resource_already_exists', 'status_transition_invalid']);

function providerError(error: unknown): unknown {
  const errors = stripeSdk().errors;
  if (!(error instanceof errors.StripeError)) return error;
  let failure: PaymentProviderError;
  if (error instanceof errors.StripeCardError) failure = new PaymentProviderError(402, error.message);
  else if (error instanceof errors.StripeIdempotencyError) failure = new PaymentProviderError(409, error.message);
  else if (error instanceof errors.StripeRateLimitError) failure = new PaymentProviderError(503, error.message);
  else if (error instanceof errors.StripeInvalidRequestError) failure = new PaymentProviderError(error.code && conflictCodes.has(error.code) ? 409 : 400, error.message);
  // A wrong or unauthorised key is our configuration, not the player's business: Stripe's message
  // (which names the key) stays in `cause` for the logs.
  else if (error instanceof errors.StripeAuthenticationError || error instanceof errors.StripePermissionError) failure = new PaymentProviderError(503, 'The payment provider refused our credentials');
  else failure = new PaymentProviderError(503, error.message || 'The payment provider is unavailable');
  failure.cause = error;
  return failure;
}

/** Stripe's events, in our words; anything we did not create, or do not act on, is `ignored`. */
function toProviderEvent(event: Stripe.Event): ProviderEvent {
  const ignored: ProviderEvent = { id: event.id, type: 'ignored', providerType: event.type };
  switch (event.type) {
    case 'payment_intent.succeeded': {
      const intent = event.data.object;
      // An invoice's own intent also succeeds here; only the packs we sold carry our paymentId.
      if (!intent.metadata?.paymentId) return ignored;
      return {
        id: event.id,
        type: 'payment.succeeded',
        providerPaymentId: text(intent.id, 'data.object.id'),
        amountCents: cents(intent.amount_received || intent.amount, 'data.object.amount'),
        currency: currency(intent.currency, 'data.object.currency'),
      };
    }
    case 'payment_intent.payment_failed': {
      const intent = event.data.object;
      if (!intent.metadata?.paymentId) return ignored;
      const error = intent.last_payment_error;
      return {
        id: event.id,
        type: 'payment.failed',
        providerPaymentId: text(intent.id, 'data.object.id'),
        reason: failureReason(optionalText(error?.decline_code), optionalText(error?.code)),
        message: optionalText(error?.message) ?? 'The payment failed',
      };
    }
    case 'invoice.paid': {
      const invoice = event.data.object;
      const subscriptionId = invoiceSubscription(invoice);
      if (!subscriptionId) return ignored;
      const period = invoicePeriod(invoice);
      return {
        id: event.id,
        type: 'invoice.paid',
        providerSubscriptionId: subscriptionId,
        providerInvoiceId: text(invoice.id, 'data.object.id'),
        amountCents: cents(invoice.amount_paid, 'data.object.amount_paid'),
        currency: currency(invoice.currency, 'data.object.currency'),
        periodStart: unix(period.start, 'the period start'),
        periodEnd: unix(period.end, 'the period end'),
      };
    }
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      const subscriptionId = invoiceSubscription(invoice);
      if (!subscriptionId) return ignored;
      // The card's refusal is on the invoice's payment, which the event does not carry.
      return {
        id: event.id,
        type: 'invoice.failed',
        providerSubscriptionId: subscriptionId,
        providerInvoiceId: text(invoice.id, 'data.object.id'),
        reason: 'other',
        message: 'The subscription payment failed',
      };
    }
    case 'customer.subscription.updated': {
      const subscription = event.data.object;
      if (!subscription.metadata?.subscriptionId) return ignored;
      return {
        id: event.id,
        type: 'subscription.updated',
        providerSubscriptionId: text(subscription.id, 'data.object.id'),
        status: subscriptionStatus(subscription.status),
        currentPeriodEnd: periodEnd(subscription),
        cancelAtPeriodEnd: flag(subscription.cancel_at_period_end, 'data.object.cancel_at_period_end'),
      };
    }
    case 'customer.subscription.deleted': {
      const subscription = event.data.object;
      if (!subscription.metadata?.subscriptionId) return ignored;
      return { id: event.id, type: 'subscription.deleted', providerSubscriptionId: text(subscription.id, 'data.object.id') };
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      const intent = charge.payment_intent;
      if (!intent) return ignored;
      return {
        id: event.id,
        type: 'charge.refunded',
        providerPaymentId: text(typeof intent === 'string' ? intent : intent.id, 'data.object.payment_intent'),
        // The total refunded so far on this charge, as Stripe counts it.
        amountRefundedCents: cents(charge.amount_refunded, 'data.object.amount_refunded'),
        currency: currency(charge.currency, 'data.object.currency'),
      };
    }
    default:
      return ignored;
  }
}

/** Stripe's `decline_code` is the most precise; `code` covers errors that are not declines. */
export function failureReason(declineCode: string | undefined, code: string | undefined): PaymentFailure {
  const codes = [declineCode, code];
  if (codes.includes('insufficient_funds')) return 'insufficient_funds';
  if (codes.includes('expired_card')) return 'expired_card';
  if (codes.includes('processing_error')) return 'processing_error';
  if (declineCode || code === 'card_declined') return 'declined';
  return 'other';
}

function subscriptionStatus(status: Stripe.Subscription.Status): SubscriptionStatus {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'ACTIVE';
    case 'past_due':
    case 'unpaid':
    case 'paused':
      return 'PAST_DUE';
    case 'canceled':
    case 'incomplete_expired':
      return 'CANCELED';
    default:
      return 'INCOMPLETE';
  }
}

/** API versions before 2025-03-31 kept these on the object itself. */
type LegacySubscription = Stripe.Subscription & { current_period_end?: number };
type LegacyInvoice = Stripe.Invoice & { subscription?: string | Stripe.Subscription | null };

/** The end of the period paid for: the earliest among the items (all share it for one plan). */
function periodEnd(subscription: LegacySubscription): Date | null {
  const ends = (subscription.items?.data ?? []).map((item) => item.current_period_end).filter((end) => typeof end === 'number');
  if (ends.length > 0) return unix(Math.min(...ends), 'the period end');
  return typeof subscription.current_period_end === 'number' ? unix(subscription.current_period_end, 'the period end') : null;
}

/** The subscription an invoice bills, when it is one of ours (or too old to tell). */
function invoiceSubscription(invoice: LegacyInvoice): string | null {
  const details = invoice.parent?.subscription_details;
  // Recent invoices carry a snapshot of the subscription's metadata, where ours has its id.
  if (details?.metadata && !details.metadata.subscriptionId) return null;
  const subscription = invoice.parent?.subscription_details?.subscription ?? invoice.subscription;
  if (!subscription) return null;
  return text(typeof subscription === 'string' ? subscription : subscription.id, 'the invoice’s subscription');
}

/**
 * The period an invoice pays for is on its subscription line: the invoice's own `period_start` and
 * `period_end` cover the period before it (the usage it could have billed), not the one paid.
 */
function invoicePeriod(invoice: Stripe.Invoice): { start: number; end: number } {
  const lines = invoice.lines?.data ?? [];
  const line = lines.find((l) => l.parent?.type === 'subscription_item_details') ?? lines[0];
  return line ? line.period : { start: invoice.period_start, end: invoice.period_end };
}

/*
 * Readers of the event's fields we act on: a signed event is still data from outside, and a field
 * missing or of the wrong type must be refused as malformed (400), not fail in our hands (500).
 */

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value.length <= 255 && !unstorable(value);
}

function text(value: unknown, field: string): string {
  if (!isId(value)) throw new Error(`${field} is not an id`);
  return value;
}

function optionalText(value: unknown): string | undefined {
  return typeof value === 'string' && !unstorable(value) ? value : undefined;
}

function cents(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > 2 ** 31 - 1) throw new Error(`${field} is not an amount in minor units`);
  return value;
}

function currency(value: unknown, field: string): string {
  if (typeof value !== 'string' || !/^[a-z]{3}$/i.test(value)) throw new Error(`${field} is not a currency code`);
  return value.toUpperCase();
}

function flag(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw new Error(`${field} is not a boolean`);
  return value;
}

function unix(value: unknown, field: string): Date {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > 253_402_300_799) throw new Error(`${field} is not a time`);
  return new Date(value * 1000);
}
