import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

import type { GameSettings, LocalizedText } from '../../../contract/games.ts';

/** A game of the catalogue: what a player picks before choosing a package. */
export const gameDefinitions = pgTable('game_definitions', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: jsonb('name').$type<LocalizedText>().notNull(),
  description: jsonb('description').$type<LocalizedText>().notNull(),
  image: text('image'),
  version: text('version').notNull(),
  /** Other versions its games may change to after creation, besides `version`. */
  allowedVersions: text('allowed_versions')
    .array()
    .notNull()
    .default(sql`'{}'`),
  settings: jsonb('settings').$type<GameSettings>().notNull().default({}),
  published: boolean('published').notNull().default(false),
  /** Kept beside the definition, in the review's transaction, so the catalogue shows ratings without a join. */
  ratingSum: integer('rating_sum').notNull().default(0),
  ratingCount: integer('rating_count').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** What a game of a definition gets and costs per period. */
export const gamePackages = pgTable(
  'game_packages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    definitionId: uuid('definition_id')
      .notNull()
      .references(() => gameDefinitions.id, { onDelete: 'cascade' }),
    name: jsonb('name').$type<LocalizedText>().notNull(),
    /** Optional: most packages say enough with their name and figures. */
    description: jsonb('description').$type<LocalizedText>(),
    ramMb: integer('ram_mb').notNull(),
    maxPlayers: integer('max_players').notNull(),
    periodDays: integer('period_days').notNull(),
    priceCredits: integer('price_credits').notNull(),
    /** How many backups a game keeps, and their total size: beyond either, the oldest unpinned go. */
    backupsKept: integer('backups_kept').notNull().default(7),
    backupsMaxMb: integer('backups_max_mb').notNull().default(10_240),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('game_packages_definition_idx').on(t.definitionId)],
);
