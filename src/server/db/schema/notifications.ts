import { bigserial, boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import type { MessageParams } from '../../../contract/messages.ts';

export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Total order for replay after Last-Event-ID. */
    seq: bigserial('seq', { mode: 'number' }).notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    event: text('event').notNull().default('basic-link-event'),
    /** A message of locales/{fr,en}/messages.json and its parameters: rendered in the reader's language. */
    key: text('key').notNull(),
    params: jsonb('params').$type<MessageParams>().notNull().default({}),
    link: text('link'),
    read: boolean('read').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notifications_user_seq_idx').on(t.userId, t.seq)],
);
