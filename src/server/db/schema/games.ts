import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { gameDefinitions, gamePackages } from './catalogue.ts';

import { playerListTypes, type ResolvedSettings } from '../../../contract/games.ts';
import { desiredStates, gameStatuses } from '../../../contract/values.ts';

export { desiredStates, gameStatuses, playerListTypes };

/** What may hold a game's lock: a backup of its world, or a restore (a backup or an uploaded world put back). */
export const gameLockWorks = ['BACKUP', 'RESTORE'] as const;
export type GameLockWork = (typeof gameLockWorks)[number];

export const games = pgTable(
  'games',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // Restrict: a definition or package that games use cannot be deleted (the catalogue answers 409).
    definitionId: uuid('definition_id')
      .notNull()
      .references(() => gameDefinitions.id, { onDelete: 'restrict' }),
    packageId: uuid('package_id')
      .notNull()
      .references(() => gamePackages.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    /** The first label of the address players type (contract/address-names.ts); unique among games not deleted. */
    addressName: text('address_name').notNull(),
    /** When its owner last changed it: at most once a day. */
    addressNameChangedAt: timestamp('address_name_changed_at', { withTimezone: true }),
    /** What was bought, copied from the package so a later catalogue change does not alter it. */
    version: text('version').notNull(),
    ramMb: integer('ram_mb').notNull(),
    maxPlayers: integer('max_players').notNull(),
    /** With the server icon (a 64×64 PNG in base64), which the game's views leave out, and a platform game's flat world (`levelType`). */
    settings: jsonb('settings').$type<ResolvedSettings & { icon?: string; levelType?: 'flat' }>().notNull(),
    desiredState: text('desired_state', { enum: desiredStates }).notNull().default('stopped'),
    status: text('status', { enum: gameStatuses }).notNull().default('CREATED'),
    statusReason: text('status_reason'),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Where the game gateway sends players while the game is RUNNING (`host:port`, the driver's
     * `gatewayTarget` when RUNNING was written): what a gateway process reads, the driver's memory
     * being the API's. Left as it was when the game stops, and read only with RUNNING.
     */
    gatewayTarget: text('gateway_target'),
    /** When the driver was asked to start in the current STARTING phase; null until it is. */
    launchedAt: timestamp('launched_at', { withTimezone: true }),
    /**
     * The package whose memory and player limit the running server was launched with: a change of
     * offer (money/renewals/offer.ts) applies at the next start, and the game's page says a restart
     * is needed while this differs from `packageId`. No foreign key: it only ever compares.
     */
    launchedPackageId: uuid('launched_package_id'),
    /** Restarts after crashes, for the limit of 3 in 10 minutes. */
    crashRestarts: timestamp('crash_restarts', { withTimezone: true })
      .array()
      .notNull()
      .default(sql`'{}'`),
    /** A crashed game is restarted at this time; null when none is planned (gave up or not wanted). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** Bumped by every state change: the reconciler writes only over the state it read. */
    stateVersion: integer('state_version').notNull().default(0),
    /**
     * The reconciler replica doing a round's driver work on the game, until when: other replicas'
     * rounds leave it alone. Not a lock on the game's operations (that is `lockedFor`): a share of
     * the reconciler's work, as a job queue's claim.
     */
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /**
     * The game's one lock (games/lock.ts): the world operation holding it, on any replica, until
     * `lockedUntil`, renewed while it runs, so a crash frees it. Power actions and other world
     * operations asked meanwhile are refused (409, with this as the reason).
     */
    lockedFor: text('locked_for', { enum: gameLockWorks }),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    whitelistEnabled: boolean('whitelist_enabled').notNull().default(false),
    autoRenew: boolean('auto_renew').notNull().default(false),
    /** When the owner last told their friends the server is open: at most once per 10 minutes. */
    announcedAt: timestamp('announced_at', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    /** When the game turned EXPIRED (its renewal unpaid at periodEnd); its world is kept GAME_RETENTION_DAYS. */
    expiredAt: timestamp('expired_at', { withTimezone: true }),
    /** Whether it ran when it expired: paying revives it running again. */
    runningWhenExpired: boolean('running_when_expired').notNull().default(false),
    /** The owner was told, a week before, that the world will be deleted. */
    deletionNoticeAt: timestamp('deletion_notice_at', { withTimezone: true }),
    /** Its world folder was deleted after the retention: it can no longer be revived. */
    worldDeletedAt: timestamp('world_deleted_at', { withTimezone: true }),
    /**
     * When its owner (or staff) deleted it: from this one write on it is gone from every list and
     * call, and the backup rounds finish the work (stop, last backup, world removed, which sets
     * `worldDeletedAt`). The row stays for the ledger's references and the last backup.
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('games_owner_idx').on(t.ownerId, t.createdAt),
    index('games_definition_owner_idx').on(t.definitionId, t.ownerId),
    index('games_package_idx').on(t.packageId),
    index('games_reconcile_idx').on(t.desiredState, t.status),
    // A deleted game's name is free again; its row keeps it for the record.
    uniqueIndex('games_address_name_idx')
      .on(t.addressName)
      .where(sql`${t.deletedAt} is null`),
    // The deletions the backup rounds have yet to finish.
    index('games_deleting_idx')
      .on(t.deletedAt)
      .where(sql`${t.deletedAt} is not null and ${t.worldDeletedAt} is null`),
  ],
);

/** A game's whitelist, operators and bans, written to the server before it starts. */
export const gamePlayers = pgTable(
  'game_players',
  {
    gameId: uuid('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    type: text('type', { enum: playerListTypes }).notNull(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // Minecraft names are case-insensitive: "Steve" and "steve" are one player.
  (t) => [uniqueIndex('game_players_unique_idx').on(t.gameId, t.type, sql`lower(${t.name})`)],
);

/**
 * Wakes of sleeping games counted in fixed windows, by client address (`address:<ip>`) and by game
 * (`game:<id>`), where every API replica counts them together (modules/games/wakes.ts); rows of
 * windows past are deleted as wakes come.
 */
export const gameWakeCounts = pgTable('game_wake_counts', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  count: integer('count').notNull(),
});
