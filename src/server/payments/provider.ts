/**
 * Card payments, seen from the platform: one interface, two implementations chosen by
 * configuration (DESIGN.md §1). `stripe` when STRIPE_SECRET_KEY is set (PaymentIntents for credit
 * packs, Subscriptions for plans, signed webhooks); `sandbox` otherwise: the same objects, states
 * and code path, no money. Both turn what happened into `ProviderEvent`s, which the payments module
 * applies once each (by `id`), whether they came from Stripe's webhook or the sandbox's confirm.
 */

type ProviderName = 'stripe' | 'sandbox';

/** A one-off card payment of a credit pack. */
export interface PaymentIntentInput {
  /** Our payment's id: sent as metadata, so a webhook finds it. */
  paymentId: string;
  userId: string;
  email: string | null;
  /** The provider's customer of this user, when one was made before. */
  customerId: string | null;
  amountCents: number;
  /** ISO 4217, upper case. */
  currency: string;
  description: string;
  /** The same key gives the same intent: a retried creation never makes a second one. */
  idempotencyKey: string;
}

export interface PaymentIntentCreated {
  /** pi_... (Stripe) or sbx_pi_... (sandbox). */
  providerPaymentId: string;
  /** What Stripe.js needs to collect the card; null in the sandbox. */
  clientSecret: string | null;
  /** The customer the intent was made for, to keep for the user. */
  customerId: string | null;
}

/** A plan as the provider bills it. */
interface PlanInput {
  planId: string;
  name: string;
  priceCents: number;
  currency: string;
  interval: 'MONTH' | 'YEAR';
  /** The provider's price made for this plan before, if any. */
  providerPriceId: string | null;
}

export interface SubscriptionInput {
  /** Our subscription's id, as metadata. */
  subscriptionId: string;
  userId: string;
  email: string | null;
  customerId: string | null;
  plan: PlanInput;
  idempotencyKey: string;
}

export interface SubscriptionCreated {
  /** sub_... or sbx_sub_... */
  providerSubscriptionId: string;
  /** The first period's payment to confirm with the card (Stripe); null in the sandbox. */
  clientSecret: string | null;
  customerId: string | null;
  /** The provider's price for the plan, to keep on the plan. */
  providerPriceId: string | null;
}

/**
 * What happened at the provider, in our words. `id` is the provider's event id (evt_... or
 * sbx_evt_...): an event is applied once, however often it arrives.
 */
export type ProviderEvent =
  | { id: string; type: 'payment.succeeded'; providerPaymentId: string; amountCents: number; currency: string }
  | { id: string; type: 'payment.failed'; providerPaymentId: string; reason: PaymentFailure; message: string }
  | {
      id: string;
      type: 'invoice.paid';
      providerSubscriptionId: string;
      providerInvoiceId: string;
      amountCents: number;
      currency: string;
      periodStart: Date;
      periodEnd: Date;
    }
  | { id: string; type: 'invoice.failed'; providerSubscriptionId: string; providerInvoiceId: string; reason: PaymentFailure; message: string }
  | { id: string; type: 'subscription.updated'; providerSubscriptionId: string; status: SubscriptionStatus; currentPeriodEnd: Date | null; cancelAtPeriodEnd: boolean }
  | { id: string; type: 'subscription.deleted'; providerSubscriptionId: string }
  | { id: string; type: 'charge.refunded'; providerPaymentId: string; amountRefundedCents: number; currency: string }
  /** An event of a kind we do not act on: acknowledged and recorded, nothing else. */
  | { id: string; type: 'ignored'; providerType: string };

export type PaymentFailure = 'declined' | 'insufficient_funds' | 'expired_card' | 'processing_error' | 'other';
export type SubscriptionStatus = 'INCOMPLETE' | 'ACTIVE' | 'PAST_DUE' | 'CANCELED';

export interface PaymentProvider {
  readonly name: ProviderName;
  /** The key Stripe.js is loaded with in the browser; null in the sandbox. */
  readonly publishableKey: string | null;
  createPaymentIntent(input: PaymentIntentInput): Promise<PaymentIntentCreated>;
  createSubscription(input: SubscriptionInput): Promise<SubscriptionCreated>;
  /** Cancels at the end of the paid period; answers when that is. */
  cancelSubscription(providerSubscriptionId: string, idempotencyKey: string): Promise<{ currentPeriodEnd: Date | null }>;
  /** Takes back a cancellation that has not taken effect yet. */
  resumeSubscription(providerSubscriptionId: string, idempotencyKey: string): Promise<void>;
  /** Refunds a payment, whole or `amountCents` of it; the credits come back through the `charge.refunded` event. */
  refund(providerPaymentId: string, amountCents: number | null, idempotencyKey: string): Promise<void>;
  /**
   * A webhook's events, after checking its signature header; throws `WebhookSignatureError` when the
   * signature is wrong, old or missing. The sandbox has no webhook and always throws.
   */
  parseWebhook(rawBody: Buffer, signature: string | undefined): ProviderEvent;
}

export class WebhookSignatureError extends Error {}

/** A provider's refusal (a declined card, an invalid request), with what to tell the player. */
export class PaymentProviderError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}
