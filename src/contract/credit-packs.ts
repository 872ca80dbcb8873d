import { Type, type Static } from 'typebox';
import { Currency, DateTime, Id, Localized, Nullable } from './common.ts';

// Credit packs on sale (the `/v1/pricing` calls).

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
