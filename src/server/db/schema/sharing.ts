import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { gameRoles } from '../../../contract/sharing.ts';
import { friendGroups } from './friend-groups.ts';
import { games } from './games.ts';
import { users } from './users.ts';

/**
 * A role on a game granted by its owner to one friend (friendId) or to one of the owner's friend
 * groups (groupId), never both. A group's grant reaches its members who are users and still the
 * owner's friends, read at each call: a member added later has it, one removed loses it.
 */
export const gameAccess = pgTable(
  'game_access',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    gameId: uuid('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    friendId: uuid('friend_id').references(() => users.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id').references(() => friendGroups.id, { onDelete: 'cascade' }),
    role: text('role', { enum: gameRoles }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('game_access_friend_key').on(t.gameId, t.friendId),
    uniqueIndex('game_access_group_key').on(t.gameId, t.groupId),
    index('game_access_friend_idx').on(t.friendId),
    index('game_access_group_idx').on(t.groupId),
    check('game_access_one_kind', sql`(${t.friendId} is null) <> (${t.groupId} is null)`),
  ],
);
