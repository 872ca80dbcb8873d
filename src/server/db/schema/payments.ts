import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const paymentKinds = ['PACK', 'SUBSCRIPTION'] as const;
export const paymentStatuses = ['PENDING', 'SUCCEEDED', 'FAILED', 'REFUNDED'] as const;

/**
 * A card payment: a credit pack, or one paid period of a subscription. Credits arrive only from the
 * provider's event, in the transaction that marks the payment SUCCEEDED.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: paymentKinds }).notNull(),
    status: text('status', { enum: paymentStatuses }).notNull().default('PENDING'),
    provider: text('provider').notNull(),
    /** pi_... for a pack, in_... for a subscription period (or the sandbox's sbx_...). */
    providerPaymentId: text('provider_payment_id').unique(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    /** Credits bought, and bonus credits on top (a pack's own, or a promo code's). */
    credits: integer('credits').notNull(),
    bonusCredits: integer('bonus_credits').notNull().default(0),
    packId: uuid('pack_id'),
    subscriptionId: uuid('subscription_id'),
    promoCode: text('promo_code'),
    /** Why it failed, as the provider said it: declined, insufficient_funds... */
    failureReason: text('failure_reason'),
    refundedCents: integer('refunded_cents').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [index('payments_user_created_idx').on(t.userId, t.createdAt), index('payments_status_idx').on(t.status)],
);

/** Every provider event applied, by its id: a replayed webhook finds its row and changes nothing. */
export const providerEvents = pgTable('provider_events', {
  id: text('id').primaryKey(),
  provider: text('provider').notNull(),
  type: text('type').notNull(),
  appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The provider's customer of each user (Stripe cus_...), made with their first payment. */
export const paymentCustomers = pgTable(
  'payment_customers',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    customerId: text('customer_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.provider] })],
);
