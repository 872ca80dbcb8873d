import { bigint, boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { games } from './games.ts';
import { users } from './users.ts';
import { backupKinds, backupReasons, backupStatuses } from '../../../contract/backups.ts';

/**
 * A snapshot of a game's world, kept in the object store under `objectKey`. It is READY only once
 * the whole archive is stored and its sha256 known; a backup that a crash interrupted is found by
 * its stale heartbeat and ends FAILED, its partial object deleted (docs/architecture.md, "Backups").
 */
export const backups = pgTable(
  'backups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    gameId: uuid('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: backupKinds }).notNull(),
    /** Why a nightly or automatic backup was taken, as a key the web app renders; null for a manual one. */
    reason: text('reason', { enum: backupReasons }),
    status: text('status', { enum: backupStatuses }).notNull().default('PENDING'),
    /** Who asked for it; null for the nightly and automatic ones. */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    objectKey: text('object_key').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    sha256: text('sha256'),
    pinned: boolean('pinned').notNull().default(false),
    note: text('note'),
    /** How far a RUNNING backup is, in percent; written now and then, for the owner's page. */
    progress: integer('progress'),
    /**
     * When the backup goes: set on the one backup kept once its game's world is deleted (it stays
     * GAME_RETENTION_DAYS more, to download); null while the game has its world.
     */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** Why it FAILED, as a message key. */
    error: text('error'),
    /** Refreshed while it runs; a RUNNING backup whose heartbeat is old was cut off by a crash. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('backups_game_idx').on(t.gameId, t.createdAt)],
);

/** When a game's nightly backup runs (a game without a row has the defaults), and the restore under way. */
export const backupSettings = pgTable('backup_settings', {
  gameId: uuid('game_id')
    .primaryKey()
    .references(() => games.id, { onDelete: 'cascade' }),
  nightly: boolean('nightly').notNull().default(true),
  /** The hour of the nightly backup, in `timeZone` (an IANA zone, the owner's browser's). */
  hour: integer('hour').notNull().default(4),
  timeZone: text('time_zone').notNull().default('Europe/Paris'),
  /** When the next nightly backup is due, computed in `timeZone` so it follows daylight-saving changes. */
  nextNightlyAt: timestamp('next_nightly_at', { withTimezone: true }),
  /** The expiry (the game's expiredAt) whose backup was taken: one per expiry, on one replica. */
  expiryBackupFor: timestamp('expiry_backup_for', { withTimezone: true }),
  /**
   * The archive a restore is putting back (its object key), kept from the restore's start to its
   * end: a restore whose process died leaves it, with its claim lapsed, and the next sweep on any
   * replica resumes it. `restoreAt` is when that archive was made (for the owner's notice);
   * `restoreRestart` whether the server ran (or was to run) when the restore began.
   */
  restoreFrom: text('restore_from'),
  restoreAt: timestamp('restore_at', { withTimezone: true }),
  restoreRestart: boolean('restore_restart'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A download link: the token's hash, valid for one backup until `expiresAt`, on every replica. */
export const backupLinks = pgTable('backup_links', {
  tokenHash: text('token_hash').primaryKey(),
  backupId: uuid('backup_id')
    .notNull()
    .references(() => backups.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  /** Who made it: voided when their access to the game ends. */
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'cascade' }),
});
