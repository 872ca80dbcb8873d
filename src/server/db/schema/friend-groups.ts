import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const friendGroups = pgTable(
  'friend_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('friend_groups_owner_name_key').on(t.ownerId, sql`lower(${t.name})`)],
);

/**
 * A member is a friend (userId) or a bare Minecraft name (mcName), never both. The unique keys let
 * one INSERT ... ON CONFLICT DO NOTHING add a whole import and report what was already there.
 */
export const friendGroupMembers = pgTable(
  'friend_group_members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    groupId: uuid('group_id')
      .notNull()
      .references(() => friendGroups.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    mcName: text('mc_name'),
    /** Lower-cased mcName: "Steve" and "steve" are one player. */
    nameKey: text('name_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('friend_group_members_user_key').on(t.groupId, t.userId),
    unique('friend_group_members_name_key').on(t.groupId, t.nameKey),
    index('friend_group_members_user_idx').on(t.userId),
    check('friend_group_members_one_kind', sql`(${t.userId} is null) <> (${t.mcName} is null) and (${t.mcName} is null) = (${t.nameKey} is null)`),
  ],
);
