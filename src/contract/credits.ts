import { Type, type Static } from 'typebox';
import { DateTime, Id, Localized, Nullable } from './common.ts';
import { MessageParams } from './notifications.ts';

/** What moved a balance: one ledger row each. */
export const ledgerKinds = ['ADMIN_ADJUSTMENT', 'PURCHASE', 'SUBSCRIPTION', 'PROMO_BONUS', 'GAME_CHARGE', 'GAME_RENEWAL', 'REFUND'] as const;
export type LedgerKind = (typeof ledgerKinds)[number];

export const LedgerEntry = Type.Object({
  id: Id,
  amount: Type.Integer(),
  balanceAfter: Type.Integer(),
  kind: Type.String(),
  /** In the user's saved locale; `reasonKey` (under `ledger` in locales/{fr,en}/messages.json) and `reasonParams` render it in another. */
  reason: Type.String(),
  reasonKey: Type.String(),
  reasonParams: MessageParams,
  refType: Type.Union([Type.String(), Type.Null()]),
  refId: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});
export type LedgerEntry = Static<typeof LedgerEntry>;

const Currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code' });

/** A credit pack on sale. */
export const pricingRequest = Type.Object(
  {
    credits: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    bonusCredits: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    priceCents: Type.Integer({ minimum: 50, maximum: 100_000_000 }),
    currency: Currency,
    /** Shown above the credits, in each page's language; absent when the figures say enough. */
    label: Type.Optional(Localized(80)),
  },
  { $id: 'pricingRequest', additionalProperties: false },
);

/** What a promo code gives, and when and how often. */
const promoCodeTerms = {
  kind: Type.Union([Type.Literal('PERCENT_OFF'), Type.Literal('BONUS_CREDITS')]),
  value: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  maxUses: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000 })),
  validFrom: Type.Optional(Type.String({ format: 'date-time' })),
  validUntil: Type.Optional(Type.String({ format: 'date-time' })),
};

export const promoCodeCreateRequest = Type.Object(
  { code: Type.String({ pattern: '^[A-Za-z0-9_-]{3,32}$', maxLength: 32, description: 'Stored in upper case' }), ...promoCodeTerms },
  { $id: 'promoCodeCreateRequest', additionalProperties: false },
);

/** A code's new terms (its name stays): an absent maxUses or date removes that limit. */
export const PromoCodeUpdateRequest = Type.Object(promoCodeTerms, { additionalProperties: false });
export type PromoCodeUpdateRequest = Static<typeof PromoCodeUpdateRequest>;

export const subscriptionCreateRequest = Type.Object(
  {
    name: Localized(80),
    priceCents: Type.Integer({ minimum: 50, maximum: 100_000_000 }),
    currency: Currency,
    interval: Type.Union([Type.Literal('MONTH'), Type.Literal('YEAR')]),
    credits: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  },
  { $id: 'subscriptionCreateRequest', additionalProperties: false },
);

export const stripePaymentCreate = Type.Object(
  { pricingId: Id, promoCode: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{3,32}$' })) },
  { $id: 'stripePaymentCreate', additionalProperties: false },
);

export const stripeSubscriptionRequest = Type.Object({ subscriptionId: Id }, { $id: 'stripeSubscriptionRequest', additionalProperties: false });

export const gamePaymentRequestUpdate = Type.Object(
  { paymentId: Id, action: Type.Union([Type.Literal('PAY'), Type.Literal('CANCEL')]) },
  { $id: 'gamePaymentRequestUpdate', additionalProperties: false },
);

/** A credit pack as sold (the `/v1/pricing` calls). */
export const CreditPack = Type.Object({
  id: Id,
  credits: Type.Integer(),
  bonusCredits: Type.Integer(),
  priceCents: Type.Integer(),
  currency: Type.String(),
  /** Both languages: each page shows its own, the back office edits both. */
  label: Nullable(Localized(80)),
  archived: Type.Boolean(),
  createdAt: DateTime,
  updatedAt: DateTime,
});
export type CreditPack = Static<typeof CreditPack>;
export type PricingRequest = Static<typeof pricingRequest>;

export const promoKinds = ['PERCENT_OFF', 'BONUS_CREDITS'] as const;
export const PromoCode = Type.Object({
  code: Type.String(),
  kind: Type.Enum(promoKinds),
  value: Type.Integer(),
  maxUses: Nullable(Type.Integer()),
  uses: Type.Integer(),
  validFrom: Nullable(DateTime),
  validUntil: Nullable(DateTime),
  archived: Type.Boolean(),
  createdAt: DateTime,
});
export type PromoCode = Static<typeof PromoCode>;
export type PromoCodeCreateRequest = Static<typeof promoCodeCreateRequest>;

/** What a code gives a player, checked before paying. */
export const PromoCodeCheck = Type.Object({
  code: Type.String(),
  kind: Type.Enum(promoKinds),
  value: Type.Integer(),
  validUntil: Nullable(DateTime),
});
export type PromoCodeCheck = Static<typeof PromoCodeCheck>;
export const PromoCodeParams = Type.Object({ code: Type.String({ pattern: '^[A-Za-z0-9_-]{3,32}$', maxLength: 32 }) }, { additionalProperties: false });

export const planIntervals = ['MONTH', 'YEAR'] as const;
export const SubscriptionPlan = Type.Object({
  id: Id,
  name: Localized(80),
  priceCents: Type.Integer(),
  currency: Type.String(),
  interval: Type.Enum(planIntervals),
  credits: Type.Integer(),
  archived: Type.Boolean(),
  createdAt: DateTime,
});
export type SubscriptionPlan = Static<typeof SubscriptionPlan>;
export type SubscriptionCreateRequest = Static<typeof subscriptionCreateRequest>;

export const subscriptionStatuses = ['INCOMPLETE', 'ACTIVE', 'PAST_DUE', 'CANCELED'] as const;
/** A player's subscription. */
export const Subscription = Type.Object({
  id: Id,
  plan: SubscriptionPlan,
  status: Type.Enum(subscriptionStatuses),
  currentPeriodStart: Nullable(DateTime),
  currentPeriodEnd: Nullable(DateTime),
  cancelAtPeriodEnd: Type.Boolean(),
  createdAt: DateTime,
});
export type Subscription = Static<typeof Subscription>;

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

const InvoiceParty = Type.Object({
  name: Type.String(),
  address: Type.Optional(Nullable(Type.String())),
  email: Type.Optional(Nullable(Type.String())),
  vatId: Type.Optional(Nullable(Type.String())),
});
export const Invoice = Type.Object({
  id: Id,
  number: Type.String(),
  kind: Type.Enum(['INVOICE', 'CREDIT_NOTE'] as const),
  paymentId: Id,
  creditedInvoiceId: Nullable(Id),
  seller: InvoiceParty,
  buyer: InvoiceParty,
  lines: Type.Array(
    Type.Object({
      description: Type.String({ description: "The line in the reader's language (the locale cookie, else Accept-Language)" }),
      key: Type.String({ description: 'Its text, a key of locales/{fr,en}/invoices.json `lines`: a client words it in the language on screen' }),
      params: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()])),
      quantity: Type.Integer(),
      unitCents: Type.Integer(),
      totalCents: Type.Integer(),
    }),
  ),
  vatRate: Type.Number({ description: 'Percent, e.g. 20' }),
  netCents: Type.Integer(),
  vatCents: Type.Integer(),
  totalCents: Type.Integer(),
  currency: Type.String(),
  issuedAt: DateTime,
});
export type Invoice = Static<typeof Invoice>;
