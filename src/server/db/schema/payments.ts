import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const paymentKinds = ['PACK', 'SUBSCRIPTION'] as const;
export const paymentStatuses = ['PENDING', 'SUCCEEDED', 'FAILED', 'REFUNDED'] as const;
/**
 * Why staff should look at a payment: the provider reported another amount or currency than the
 * payment's (nothing was credited), or a declined payment paid after all took a promo code's use
 * that the code no longer had (the player got what they were shown).
 */
export const paymentFlags = ['AMOUNT_MISMATCH', 'PROMO_OVER_LIMIT'] as const;

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
    /** When staff asked the provider for a refund whose charge.refunded has not arrived yet. */
    refundRequestedAt: timestamp('refund_requested_at', { withTimezone: true }),
    flag: text('flag', { enum: paymentFlags }),
    flaggedAt: timestamp('flagged_at', { withTimezone: true }),
    /** What the provider's event said was paid, when it did not match (AMOUNT_MISMATCH). */
    reportedAmountCents: integer('reported_amount_cents'),
    reportedCurrency: text('reported_currency'),
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

/**
 * Signed events we could not read (a field missing or of the wrong type): answered 400 so the
 * provider shows them as failed, and kept here for staff. Not in `provider_events`, so the same
 * event is applied normally if it arrives again readable.
 */
export const rejectedProviderEvents = pgTable('rejected_provider_events', {
  id: uuid('id').primaryKey().defaultRandom(),
  provider: text('provider').notNull(),
  eventId: text('event_id'),
  type: text('type'),
  problem: text('problem').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
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
