import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { gameDefinitions } from './catalogue.ts';
import { games } from './games.ts';
import { users } from './users.ts';
import { matchResults, matchStatuses } from '../../../contract/competitions.ts';
import { entrantStatuses, tournamentFormats, tournamentStatuses } from '../../../contract/tournaments.ts';

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

/**
 * How many players of a mode's season board (a match played) hold a rating in each whole point
 * (`bucket` = floor(rating)): a player's rank is the sum of the buckets above theirs plus the few
 * rows of their own bucket ahead, rather than a count of every row ahead (bench/ranked.ts: 100 000
 * players). Kept by a trigger on `ranked_ratings` (migration 0038), whatever writes a rating.
 */
export const rankedRatingCounts = pgTable(
  'ranked_rating_counts',
  {
    modeId: uuid('mode_id')
      .notNull()
      .references(() => rankedModes.id, { onDelete: 'cascade' }),
    seasonId: uuid('season_id')
      .notNull()
      .references(() => rankedSeasons.id, { onDelete: 'cascade' }),
    bucket: integer('bucket').notNull(),
    players: integer('players').notNull(),
  },
  (t) => [primaryKey({ columns: [t.modeId, t.seasonId, t.bucket] })],
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
    /** A tournament's match (competitions/tournaments.ts): its tournament and its match in the bracket (brackets-manager's id); null for a ladder's. */
    tournamentId: uuid('tournament_id').references(() => tournaments.id, { onDelete: 'cascade' }),
    bracketMatchId: integer('bracket_match_id'),
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
  (t) => [
    index('ranked_matches_a_idx').on(t.playerA, t.createdAt),
    index('ranked_matches_b_idx').on(t.playerB, t.createdAt),
    index('ranked_matches_status_idx').on(t.status),
    index('ranked_matches_tournament_idx').on(t.tournamentId, t.bracketMatchId),
  ],
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

/**
 * A tournament (docs/architecture.md, "Competitions", tournaments). `bracket` is brackets-manager's
 * storage (brackets-memory-db's tables as JSON), read and written only in a transaction holding
 * this row `FOR UPDATE` (docs/decisions.md).
 */
export const tournaments = pgTable(
  'tournaments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull().unique(),
    name: jsonb('name').$type<{ fr: string; en: string }>().notNull(),
    rules: jsonb('rules').$type<{ fr: string; en: string }>().notNull(),
    modeId: uuid('mode_id')
      .notNull()
      .references(() => rankedModes.id),
    format: text('format', { enum: tournamentFormats }).notNull(),
    maxEntrants: integer('max_entrants').notNull(),
    registrationOpensAt: timestamp('registration_opens_at', { withTimezone: true }).notNull(),
    registrationClosesAt: timestamp('registration_closes_at', { withTimezone: true }).notNull(),
    checkInOpensAt: timestamp('check_in_opens_at', { withTimezone: true }).notNull(),
    checkInClosesAt: timestamp('check_in_closes_at', { withTimezone: true }).notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    entryFee: integer('entry_fee').notNull().default(0),
    prizeFirst: integer('prize_first').notNull().default(0),
    prizeSecond: integer('prize_second').notNull().default(0),
    prizeThird: integer('prize_third').notNull().default(0),
    status: text('status', { enum: tournamentStatuses }).notNull().default('SCHEDULED'),
    bracket: jsonb('bracket'),
    /** Staff's results set by hand: the reason by bracket match id. */
    overrides: jsonb('overrides').$type<Record<string, string>>().notNull().default({}),
    /** When the check-in notices went out (once). */
    checkInNoticeAt: timestamp('check_in_notice_at', { withTimezone: true }),
    winnerId: uuid('winner_id').references(() => users.id, { onDelete: 'set null' }),
    cancelReason: text('cancel_reason'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('tournaments_status_starts_idx').on(t.status, t.startsAt)],
);

/** A player's entry in a tournament: one row per player, its fee and its seed and place once known. */
export const tournamentEntrants = pgTable(
  'tournament_entrants',
  {
    tournamentId: uuid('tournament_id')
      .notNull()
      .references(() => tournaments.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: entrantStatuses }).notNull(),
    /** The linked Minecraft name at registration: the match servers' whitelist. */
    mcName: text('mc_name').notNull(),
    /** The fee this registration paid: what a withdrawal gives back. */
    feePaid: integer('fee_paid').notNull().default(0),
    /** Registrations so far (a withdrawn player may register again): each one's ledger lines are told apart by it. */
    registrations: integer('registrations').notNull().default(1),
    seed: integer('seed'),
    /** brackets-manager's participant id, from the start. */
    participantId: integer('participant_id'),
    placement: integer('placement'),
    registeredAt: timestamp('registered_at', { withTimezone: true }).notNull(),
    checkedInAt: timestamp('checked_in_at', { withTimezone: true }),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.tournamentId, t.userId] }), index('tournament_entrants_user_idx').on(t.userId)],
);

/** The prizes paid: one row per tournament and place, in the transaction of its ledger line, so a place is paid once. */
export const tournamentPayouts = pgTable(
  'tournament_payouts',
  {
    tournamentId: uuid('tournament_id')
      .notNull()
      .references(() => tournaments.id, { onDelete: 'cascade' }),
    place: integer('place').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    /** The ledger line that paid it, written in the same transaction. */
    ledgerEntryId: uuid('ledger_entry_id'),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tournamentId, t.place] })],
);
