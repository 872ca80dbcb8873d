import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import type { LocalizedText } from '../../../contract/games.ts';

export const planIntervals = ['MONTH', 'YEAR'] as const;
export const subscriptionStatuses = ['INCOMPLETE', 'ACTIVE', 'PAST_DUE', 'CANCELED'] as const;

/** A subscription plan: a card price each month or year, and the credits each paid period grants. */
export const subscriptionPlans = pgTable('subscription_plans', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: jsonb('name').$type<LocalizedText>().notNull(),
  priceCents: integer('price_cents').notNull(),
  currency: text('currency').notNull(),
  interval: text('interval', { enum: planIntervals }).notNull(),
  credits: integer('credits').notNull(),
  /** The provider's price made for this plan (Stripe price_...), made on the first subscription. */
  providerPriceId: text('provider_price_id'),
  /** Archived plans take no new subscribers; current ones keep theirs until they cancel. */
  archived: boolean('archived').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A player's subscription to a plan, as the provider bills it. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id')
      .notNull()
      .references(() => subscriptionPlans.id, { onDelete: 'restrict' }),
    status: text('status', { enum: subscriptionStatuses }).notNull().default('INCOMPLETE'),
    provider: text('provider').notNull(),
    providerSubscriptionId: text('provider_subscription_id').unique(),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One subscription at a time that is not over, per player.
    uniqueIndex('subscriptions_one_live_idx')
      .on(t.userId)
      .where(sql`${t.status} <> 'CANCELED'`),
    index('subscriptions_plan_idx').on(t.planId),
  ],
);
