import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Minecraft profiles as the resolver last saw them. A row outlives its expiry on purpose: when the
 * profile service is rate limited or down, stale data beats an error.
 */
export const minecraftProfiles = pgTable(
  'minecraft_profiles',
  {
    uuid: uuid('uuid').primaryKey(),
    name: text('name').notNull(),
    /** Lower-cased name: Minecraft names are unique regardless of case. */
    nameKey: text('name_key').notNull(),
    nameExpiresAt: timestamp('name_expires_at', { withTimezone: true }).notNull(),
    /** The skin PNG, base64; null until first asked for. */
    skin: text('skin'),
    skinExpiresAt: timestamp('skin_expires_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // pattern_ops: the back office's search by a name's prefix (LIKE 'abc%') uses it too, as equality
  // does, and finds the matching profiles' uuids in the index alone.
  (t) => [index('minecraft_profiles_name_key_idx').on(t.nameKey.op('text_pattern_ops'), t.uuid)],
);
