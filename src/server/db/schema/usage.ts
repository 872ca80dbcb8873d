import { bigint, index, integer, pgTable, primaryKey, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { games } from './games.ts';
import { gameEventKinds } from '../../../contract/usage.ts';

/**
 * One sample of a running game's usage per sampling slot (a minute in production): the key makes
 * a second replica's insert for the same slot a no-op. Pruned after 30 days.
 */
export const gameUsage = pgTable(
  'game_usage',
  {
    gameId: uuid('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    /** The start of the slot the sample belongs to. */
    at: timestamp('at', { withTimezone: true }).notNull(),
    players: integer('players').notNull(),
    memoryBytes: bigint('memory_bytes', { mode: 'number' }).notNull(),
    /** Cores busy on average (1 = one full core). */
    cpuCores: real('cpu_cores').notNull(),
    /** The package's RAM when sampled: a share stays right after a package change. */
    ramMb: integer('ram_mb').notNull(),
  },
  (t) => [primaryKey({ columns: [t.gameId, t.at] }), index('game_usage_at_idx').on(t.at)],
);

/**
 * A game's status changes worth showing on its usage timeline (started, stopped, crashed),
 * written with the reconciler's write of the change (in its transaction when it has one). Pruned with the samples.
 */
export const gameEvents = pgTable(
  'game_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    gameId: uuid('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
    kind: text('kind', { enum: gameEventKinds }).notNull(),
    reason: text('reason'),
  },
  (t) => [index('game_events_game_idx').on(t.gameId, t.at), index('game_events_at_idx').on(t.at)],
);
