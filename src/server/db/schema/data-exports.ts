import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { dataExportStatuses } from '../../../contract/data-exports.ts';

/**
 * A person's data export. Its file is in the object store under `exports/<userId>/<id>.json` while
 * READY; a PENDING one is built by whichever replica claims it, and a claim that lapsed (its
 * process died) is taken again. One PENDING export per person, held by the database so that two
 * asks at the same instant cannot both pass the service's check.
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: dataExportStatuses }).notNull().default('PENDING'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    sizeBytes: integer('size_bytes'),
  },
  (t) => [
    index('data_exports_user_idx').on(t.userId, t.createdAt),
    index('data_exports_status_idx').on(t.status),
    uniqueIndex('data_exports_one_pending_idx')
      .on(t.userId)
      .where(sql`status = 'PENDING'`),
  ],
);
