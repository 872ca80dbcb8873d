import crypto from 'node:crypto';
import {
  PaymentProviderError,
  WebhookSignatureError,
  type PaymentFailure,
  type PaymentIntentCreated,
  type PaymentIntentInput,
  type PaymentProvider,
  type ProviderEvent,
  type RefundInput,
  type ServerCardStep,
  type SubscriptionCreated,
  type SubscriptionInput,
} from './provider.ts';

/** The card numbers the sandbox knows, as Stripe's test cards behave. */
export const sandboxCards = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

type CardOutcome = { ok: true } | { ok: false; reason: PaymentFailure; message: string };

function cardOutcome(cardNumber: string): CardOutcome {
  switch (cardNumber.replace(/[\s-]/g, '')) {
    case sandboxCards.success:
      return { ok: true };
    case sandboxCards.declined:
      return { ok: false, reason: 'declined', message: 'Your card was declined.' };
    case sandboxCards.insufficientFunds:
      return { ok: false, reason: 'insufficient_funds', message: 'Your card has insufficient funds.' };
    default:
      throw new PaymentProviderError(400, 'The sandbox takes only its test cards', 'payments.sandboxCards', { ...sandboxCards });
  }
}

/**
 * A UUID named by `name` (RFC 9562 version 8, from SHA-256): the same name always gives the same id.
 * Ids and events are derived from what they stand for, so the sandbox keeps no state, a retried
 * creation gets the same object, and a replayed confirmation gives the same event id, which the
 * payments module applies once.
 */
function namedUuid(name: string): string {
  const bytes = crypto.createHash('sha256').update(name).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const eventId = (name: string) => `sbx_evt_${namedUuid(name)}`;

/**
 * The provider when Stripe is not configured: the same objects, states and events, no network and
 * no money. What a card does is played through `confirm`, `confirmSubscription`, `renew` and
 * `refund`, which answer the events Stripe's webhook would have sent.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;
  readonly publishableKey = null;

  async createPaymentIntent(input: PaymentIntentInput): Promise<PaymentIntentCreated> {
    return { providerPaymentId: `sbx_pi_${namedUuid(`payment:${input.idempotencyKey}`)}`, clientSecret: null, customerId: input.customerId };
  }

  async createSubscription(input: SubscriptionInput): Promise<SubscriptionCreated> {
    return {
      providerSubscriptionId: `sbx_sub_${namedUuid(`subscription:${input.idempotencyKey}`)}`,
      clientSecret: null,
      customerId: input.customerId,
      providerPriceId: input.plan.providerPriceId,
    };
  }

  /** The sandbox does not track periods: the payments module knows when the paid one ends. */
  async cancelSubscription(): Promise<{ currentPeriodEnd: Date | null }> {
    return { currentPeriodEnd: null };
  }

  async resumeSubscription(): Promise<void> {}

  /** Nothing to call: the refund is done at once, and its charge.refunded event answered. */
  async refund(input: RefundInput): Promise<ProviderEvent[]> {
    return [this.refundEvent(input.providerPaymentId, input.refundedBeforeCents + input.amountCents, input.currency)];
  }

  /** The card step is ours: the test cards are typed on the platform's page. */
  readonly cardStep: ServerCardStep = this;

  parseWebhook(): ProviderEvent {
    throw new WebhookSignatureError('The sandbox has no webhook');
  }

  /** A credit pack's payment with one of the test cards. */
  confirm(providerPaymentId: string, cardNumber: string, amountCents: number, currency: string): ProviderEvent[] {
    const outcome = cardOutcome(cardNumber);
    if (outcome.ok) {
      return [{ id: eventId(`${providerPaymentId}:succeeded`), type: 'payment.succeeded', providerPaymentId, amountCents, currency }];
    }
    return [{ id: eventId(`${providerPaymentId}:failed:${outcome.reason}`), type: 'payment.failed', providerPaymentId, reason: outcome.reason, message: outcome.message }];
  }

  /** A subscription's first period, paid with one of the test cards. */
  confirmSubscription(providerSubscriptionId: string, cardNumber: string, amountCents: number, currency: string, periodStart: Date, periodEnd: Date): ProviderEvent[] {
    return this.invoice(providerSubscriptionId, cardNumber, amountCents, currency, periodStart, periodEnd, false);
  }

  /**
   * The next period's invoice, paid with `cardNumber` (the one kept for the subscription). As at
   * Stripe, a refused renewal leaves the subscription past due.
   */
  renew(providerSubscriptionId: string, cardNumber: string, amountCents: number, currency: string, periodStart: Date, periodEnd: Date): ProviderEvent[] {
    return this.invoice(providerSubscriptionId, cardNumber, amountCents, currency, periodStart, periodEnd, true);
  }

  /** `amountRefundedCents` is the payment's total refunded so far, as Stripe's charge reports it. */
  private refundEvent(providerPaymentId: string, amountRefundedCents: number, currency: string): ProviderEvent {
    return { id: eventId(`${providerPaymentId}:refunded:${amountRefundedCents}`), type: 'charge.refunded', providerPaymentId, amountRefundedCents, currency };
  }

  private invoice(providerSubscriptionId: string, cardNumber: string, amountCents: number, currency: string, periodStart: Date, periodEnd: Date, renewal: boolean): ProviderEvent[] {
    const outcome = cardOutcome(cardNumber);
    // One invoice per period, whatever the attempts to pay it.
    const providerInvoiceId = `sbx_in_${namedUuid(`invoice:${providerSubscriptionId}:${periodStart.toISOString()}`)}`;
    if (outcome.ok) {
      return [
        { id: eventId(`${providerInvoiceId}:paid`), type: 'invoice.paid', providerSubscriptionId, providerInvoiceId, amountCents, currency, periodStart, periodEnd },
        { id: eventId(`${providerInvoiceId}:active`), type: 'subscription.updated', providerSubscriptionId, status: 'ACTIVE', currentPeriodEnd: periodEnd, cancelAtPeriodEnd: false },
      ];
    }
    const failed: ProviderEvent = {
      id: eventId(`${providerInvoiceId}:failed:${outcome.reason}`),
      type: 'invoice.failed',
      providerSubscriptionId,
      providerInvoiceId,
      reason: outcome.reason,
      message: outcome.message,
    };
    if (!renewal) return [failed];
    return [failed, { id: eventId(`${providerInvoiceId}:past_due`), type: 'subscription.updated', providerSubscriptionId, status: 'PAST_DUE', currentPeriodEnd: periodEnd, cancelAtPeriodEnd: false }];
  }
}
