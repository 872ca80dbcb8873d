import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const promoKinds = ['PERCENT_OFF', 'BONUS_CREDITS'] as const;
export type PromoKind = (typeof promoKinds)[number];

/**
 * A promo code: a percentage off a pack's price or a game's first charge, or bonus credits on a
 * pack. `uses` is counted in the transaction of what it applies to, under the row's lock, so the
 * limit holds however many players use it at once.
 */
export const promoCodes = pgTable('promo_codes', {
  /** Upper case: codes are read aloud and typed, "summer" is "SUMMER". */
  code: text('code').primaryKey(),
  kind: text('kind', { enum: promoKinds }).notNull(),
  value: integer('value').notNull(),
  maxUses: integer('max_uses'),
  uses: integer('uses').notNull().default(0),
  validFrom: timestamp('valid_from', { withTimezone: true }),
  validUntil: timestamp('valid_until', { withTimezone: true }),
  /** Deleted by staff: kept for the payments that used it, no longer accepted. */
  archivedAt: timestamp('archived_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Who used a code, once each, and on what (a payment or a game). */
export const promoCodeUses = pgTable(
  'promo_code_uses',
  {
    code: text('code')
      .notNull()
      .references(() => promoCodes.code, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    refType: text('ref_type').notNull(),
    refId: text('ref_id').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.code, t.userId] }), index('promo_code_uses_ref_idx').on(t.refType, t.refId)],
);
