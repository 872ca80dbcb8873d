import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * An account being deleted, or deleted: written in the transaction that refuses the person from
 * then on, then finished by the deletion rounds (every module erases or anonymises its part), which
 * take a row whose lease lapsed again, so a process killed half-way is resumed, never left half done.
 */
export const accountDeletions = pgTable('account_deletions', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'restrict' }),
  requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
  /** The credits the balance held, forfeited when asked: what the confirmation says. */
  creditsForfeited: integer('credits_forfeited').notNull(),
  /** Until when the replica running it holds it; a lapsed lease is taken again. */
  leasedUntil: timestamp('leased_until', { withTimezone: true }),
  /** How many rounds started on it, and why the last one failed: for the back office and the logs. */
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});
