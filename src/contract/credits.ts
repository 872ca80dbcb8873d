import { Type, type Static } from 'typebox';
import { Id, Localized } from './common.ts';

export const LedgerEntry = Type.Object({
  id: Id,
  amount: Type.Integer(),
  balanceAfter: Type.Integer(),
  kind: Type.String(),
  reason: Type.String(),
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
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
  },
  { $id: 'pricingRequest', additionalProperties: false },
);

export const promoCodeCreateRequest = Type.Object(
  {
    code: Type.String({ pattern: '^[A-Z0-9_-]{3,32}$' }),
    kind: Type.Union([Type.Literal('PERCENT_OFF'), Type.Literal('BONUS_CREDITS')]),
    value: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    maxUses: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000 })),
    validFrom: Type.Optional(Type.String({ format: 'date-time' })),
    validUntil: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { $id: 'promoCodeCreateRequest', additionalProperties: false },
);

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
