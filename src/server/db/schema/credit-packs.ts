import { boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

import type { LocalizedText } from '../../../contract/games.ts';

/** A credit pack on sale (the `/v1/pricing` calls): credits, maybe bonus credits, for a card price. */
export const creditPacks = pgTable('credit_packs', {
  id: uuid('id').primaryKey().defaultRandom(),
  credits: integer('credits').notNull(),
  bonusCredits: integer('bonus_credits').notNull().default(0),
  /** Minor units of `currency`. */
  priceCents: integer('price_cents').notNull(),
  currency: text('currency').notNull(),
  /** In both languages, as the catalogue's names: each page shows its own. */
  label: jsonb('label').$type<LocalizedText>(),
  /** A pack someone paid for is archived, not deleted: its payments and invoices still name it. */
  archived: boolean('archived').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
