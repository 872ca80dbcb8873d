import { Type, type Static } from 'typebox';
import { Currency, DateTime, Id, Localized, Nullable } from './common.ts';

// Subscription plans on sale, and a player's subscription to one.

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
