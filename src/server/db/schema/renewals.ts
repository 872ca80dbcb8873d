import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { games } from './games.ts';
import { users } from './users.ts';

export const gamePaymentStatuses = ['PAID', 'PENDING', 'CANCELED'] as const;

/**
 * One period of a game: the first is PAID at creation; the next is created PENDING
 * RENEWAL_NOTICE_DAYS before periodEnd, and paying it (by hand, or auto-renew) moves periodEnd on.
 */
export const gamePayments = pgTable(
  'game_payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    gameId: uuid('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: gamePaymentStatuses }).notNull(),
    amountCredits: integer('amount_credits').notNull(),
    /** The period this payment buys. */
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    promoCode: text('promo_code'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('game_payments_period_idx').on(t.gameId, t.periodStart), index('game_payments_owner_idx').on(t.ownerId, t.createdAt), index('game_payments_status_idx').on(t.status)],
);
