/**
 * Card payments, seen from the platform: one interface, two implementations chosen by
 * configuration (docs/architecture.md, Parts and engines). `stripe` when STRIPE_SECRET_KEY is set (PaymentIntents for credit
 * packs, Subscriptions for plans, signed webhooks); `sandbox` otherwise: the same objects, states
 * and code path, no money. Both turn what happened into `ProviderEvent`s, which the payments module
 * applies once each (by `id`), whether they came from Stripe's webhook or the sandbox's confirm.
 */

import type { MessageParams } from '../../../../contract/messages.ts';
import type { ErrorKey } from '../../../lib/problems.ts';
import { unstorable } from '../../../lib/text.ts';

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
  /**
   * Refunds `amountCents` of a payment. The credits come back through the `charge.refunded` event:
   * answered here when the provider reports it at once (the sandbox), else sent to the webhook (Stripe).
   */
  refund(input: RefundInput): Promise<ProviderEvent[]>;
  /**
   * A webhook's events, after checking its signature header; throws `WebhookSignatureError` when the
   * signature is wrong, missing, or its time more than 5 minutes away from ours (either way), and
   * `MalformedEventError` when a signed event cannot be read. The sandbox has no webhook and always throws.
   */
  parseWebhook(rawBody: Buffer, signature: string | undefined): ProviderEvent;
  /**
   * The card step played on our own server with test cards (the sandbox), or null where the
   * provider collects cards in the browser (Stripe.js) and reports through its webhook.
   */
  readonly cardStep: ServerCardStep | null;
}

export interface RefundInput {
  providerPaymentId: string;
  amountCents: number;
  /** What was refunded of the payment before this refund: the provider's event reports the total. */
  refundedBeforeCents: number;
  currency: string;
  /** The same key refunds once, however often it is asked. */
  idempotencyKey: string;
}

/** A card typed on our page, played on the server: each call answers the events it caused. */
export interface ServerCardStep {
  /** A credit pack's payment. */
  confirm(providerPaymentId: string, cardNumber: string, amountCents: number, currency: string): ProviderEvent[];
  /** A subscription's first period. */
  confirmSubscription(providerSubscriptionId: string, cardNumber: string, amountCents: number, currency: string, periodStart: Date, periodEnd: Date): ProviderEvent[];
  /** The subscription's next period, billed on demand. */
  renew(providerSubscriptionId: string, cardNumber: string, amountCents: number, currency: string, periodStart: Date, periodEnd: Date): ProviderEvent[];
}

export class WebhookSignatureError extends Error {}

const storable = (value: unknown): string | null => (typeof value === 'string' && !unstorable(value) ? value.slice(0, 255) : null);

/**
 * A correctly signed event we cannot read (not JSON, or a field we act on missing or of the wrong
 * type): refused with 400 and kept for staff, never a 500 the provider would retry forever.
 */
export class MalformedEventError extends Error {
  readonly eventId: string | null;
  readonly eventType: string | null;
  constructor(message: string, event: { id?: unknown; type?: unknown } | null) {
    super(message);
    this.eventId = storable(event?.id);
    this.eventType = storable(event?.type);
  }
}

/**
 * A provider's refusal (a declined card, an invalid request). `message` is the provider's own
 * English text, for the logs; what the player reads is `key` in the errors catalogue (with
 * `params`), or else a text chosen by `status`.
 */
export class PaymentProviderError extends Error {
  readonly status: number;
  readonly key: ErrorKey | undefined;
  readonly params: MessageParams;
  constructor(status: number, message: string, key?: ErrorKey, params: MessageParams = {}) {
    super(message);
    this.status = status;
    this.key = key;
    this.params = params;
  }
}
