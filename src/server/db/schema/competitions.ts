import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { gameDefinitions } from './catalogue.ts';
import { games } from './games.ts';
import { users } from './users.ts';
import { matchResults, matchStatuses } from '../../../contract/competitions.ts';

/**
 * A ranked ladder (docs/architecture.md, "Competitions"): what a match of it is (kills to win, time
 * limit) and the catalogue's game definition its match servers start from.
 */
export const rankedModes = pgTable('ranked_modes', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** The seed's handle (`duel-1-8-8`): the seed finds its modes by it. */
  slug: text('slug').notNull().unique(),
  name: jsonb('name').$type<{ fr: string; en: string }>().notNull(),
  killsToWin: integer('kills_to_win').notNull(),
  timeLimitSeconds: integer('time_limit_seconds').notNull(),
  definitionId: uuid('definition_id').references(() => gameDefinitions.id, { onDelete: 'set null' }),
  active: boolean('active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A season: one calendar month in UTC (`2026-11`), made when first needed. */
export const rankedSeasons = pgTable('ranked_seasons', {
  id: uuid('id').primaryKey().defaultRandom(),
  key: text('key').notNull().unique(),
  startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
  endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
});

/**
 * A player's Glicko-2 rating in one mode and season. The row of a new season is made from the
 * player's last one by the soft reset (competitions/ratings.ts) when they first queue in it.
 */
export const rankedRatings = pgTable(
  'ranked_ratings',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    modeId: uuid('mode_id')
      .notNull()
      .references(() => rankedModes.id, { onDelete: 'cascade' }),
    seasonId: uuid('season_id')
      .notNull()
      .references(() => rankedSeasons.id, { onDelete: 'cascade' }),
    rating: doublePrecision('rating').notNull(),
    rd: doublePrecision('rd').notNull(),
    volatility: doublePrecision('volatility').notNull(),
    matches: integer('matches').notNull().default(0),
    wins: integer('wins').notNull().default(0),
    losses: integer('losses').notNull().default(0),
    draws: integer('draws').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The leaderboard reads a season's rows of a mode by rating, best first, of those who played; a
  // rank is a count above. In the order the query asks (`rating DESC` is NULLS FIRST in PostgreSQL),
  // and only of rows with a match, so both read the index alone (bench/ranked.ts: 100 000 players).
  (t) => [
    primaryKey({ columns: [t.userId, t.modeId, t.seasonId] }),
    index('ranked_ratings_board_idx')
      .on(t.modeId, t.seasonId, t.rating.desc().nullsFirst(), t.userId)
      .where(sql`${t.matches} > 0`),
  ],
);

/** The players waiting for a match: one row per player, so a player waits in one queue at most. */
export const rankedQueue = pgTable(
  'ranked_queue',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    modeId: uuid('mode_id')
      .notNull()
      .references(() => rankedModes.id, { onDelete: 'cascade' }),
    /** The player's rating in the mode when they joined: what the matchmaking compares. */
    rating: doublePrecision('rating').notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('ranked_queue_mode_idx').on(t.modeId, t.joinedAt)],
);

/**
 * A match between two players. PENDING once paired (its server to start), LIVE once played,
 * then FINISHED with a result, VOID (no rating change) or CANCELLED. The result is written by a
 * conditional update from PENDING or LIVE, in the transaction of the rating changes: once.
 */
export const rankedMatches = pgTable(
  'ranked_matches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    modeId: uuid('mode_id')
      .notNull()
      .references(() => rankedModes.id, { onDelete: 'cascade' }),
    seasonId: uuid('season_id')
      .notNull()
      .references(() => rankedSeasons.id, { onDelete: 'cascade' }),
    playerA: uuid('player_a')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    playerB: uuid('player_b')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: matchStatuses }).notNull().default('PENDING'),
    result: text('result', { enum: matchResults }),
    killsA: integer('kills_a').notNull().default(0),
    killsB: integer('kills_b').notNull().default(0),
    /** Why a match was voided or cancelled: a key of `notices.ranked.reasons`. */
    reason: text('reason'),
    /** The match server (competitions/match-servers.ts): a game owned by the platform, made when the match is. */
    gameId: uuid('game_id').references(() => games.id, { onDelete: 'set null' }),
    /** Where the players join, once the server runs. */
    address: text('address'),
    /** The last console line the supervision counted (competitions/supervision.ts): a line is read once. */
    consoleSeq: integer('console_seq').notNull().default(0),
    joinedA: boolean('joined_a').notNull().default(false),
    joinedB: boolean('joined_b').notNull().default(false),
    /** The match server was stopped and removed after the end. */
    serverRemovedAt: timestamp('server_removed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** When the server ran (LIVE): the join countdown and the time limit count from here. */
    startedAt: timestamp('started_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [index('ranked_matches_a_idx').on(t.playerA, t.createdAt), index('ranked_matches_b_idx').on(t.playerB, t.createdAt), index('ranked_matches_status_idx').on(t.status)],
);

/** Each rating change: one row per match and player (the chart of a player's page). */
export const ratingHistory = pgTable(
  'rating_history',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    matchId: uuid('match_id')
      .notNull()
      .references(() => rankedMatches.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    modeId: uuid('mode_id')
      .notNull()
      .references(() => rankedModes.id, { onDelete: 'cascade' }),
    seasonId: uuid('season_id')
      .notNull()
      .references(() => rankedSeasons.id, { onDelete: 'cascade' }),
    ratingBefore: doublePrecision('rating_before').notNull(),
    ratingAfter: doublePrecision('rating_after').notNull(),
    rdBefore: doublePrecision('rd_before').notNull(),
    rdAfter: doublePrecision('rd_after').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  // One row per match and player, whatever calls the result twice.
  (t) => [uniqueIndex('rating_history_match_user_key').on(t.matchId, t.userId), index('rating_history_user_idx').on(t.userId, t.createdAt)],
);
