import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Every staff write, in the same transaction as the change: who, when, what, and the entity before
 * and after. Append-only; support reads it too.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorId: uuid('actor_id')
      .notNull()
      .references(() => users.id),
    /** What was done, as `entity.verb`: `pricing.update`, `user.credit`, `review.hide`… */
    action: text('action').notNull(),
    /** The kind of thing changed (`pricing`, `user`, `game`…) and its id. */
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    /** Why, when the action asks for a reason (credits, extensions, hidden reviews, refunds). */
    reason: text('reason'),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_created_idx').on(t.createdAt, t.id), index('audit_log_entity_idx').on(t.entity, t.entityId, t.createdAt), index('audit_log_actor_idx').on(t.actorId, t.createdAt)],
);
