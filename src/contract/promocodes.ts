import { Type, type Static } from 'typebox';
import { DateTime, Nullable } from './common.ts';

// Promo codes: what a code gives, and when and how often.

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
