import { Type, type Static } from 'typebox';
import { DateTime, Id, Nullable } from './common.ts';

// Card payments: a pack's or a subscription's checkout, and the payments it records.

export const stripePaymentCreate = Type.Object(
  { pricingId: Id, promoCode: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{3,32}$' })) },
  { $id: 'stripePaymentCreate', additionalProperties: false },
);

export const stripeSubscriptionRequest = Type.Object({ subscriptionId: Id }, { $id: 'stripeSubscriptionRequest', additionalProperties: false });

/** What the web needs to collect the card: Stripe's client secret and key, or the sandbox's payment. */
export const PaymentCheckout = Type.Object({
  paymentId: Id,
  provider: Type.Enum(['stripe', 'sandbox'] as const),
  amountCents: Type.Integer(),
  currency: Type.String(),
  credits: Type.Integer(),
  bonusCredits: Type.Integer(),
  clientSecret: Nullable(Type.String()),
  publishableKey: Nullable(Type.String()),
});

export type PaymentCheckout = Static<typeof PaymentCheckout>;

export const paymentStatuses = ['PENDING', 'SUCCEEDED', 'FAILED', 'REFUNDED'] as const;

export const paymentFlags = ['AMOUNT_MISMATCH', 'PROMO_OVER_LIMIT'] as const;

export const Payment = Type.Object({
  id: Id,
  kind: Type.Enum(['PACK', 'SUBSCRIPTION'] as const),
  status: Type.Enum(paymentStatuses),
  provider: Type.String(),
  amountCents: Type.Integer(),
  currency: Type.String(),
  credits: Type.Integer(),
  bonusCredits: Type.Integer(),
  promoCode: Nullable(Type.String()),
  failureReason: Nullable(Type.String()),
  refundedCents: Type.Integer(),
  createdAt: DateTime,
  settledAt: Nullable(DateTime),
});

export type Payment = Static<typeof Payment>;

export const sandboxConfirmRequest = Type.Object({ cardNumber: Type.String({ pattern: '^[0-9 ]{12,23}$', maxLength: 23 }) }, { $id: 'sandboxConfirmRequest', additionalProperties: false });
