import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { locales } from '../../../contract/messages.ts';

/** A platform user, made from the identity token's claims on their first API call. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** `iss` + `sub` of the token, so two issuers can never share a row. */
    subject: text('subject').notNull().unique(),
    name: text('name').notNull(),
    email: text('email'),
    mcUuid: uuid('mc_uuid').unique(),
    roles: text('roles').array().notNull().default([]),
    /** The language the user last read the site in (its locale cookie): notices sent to them are rendered in it. */
    locale: text('locale', { enum: locales }).notNull().default('fr'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * When the person asked to delete their account (docs/architecture.md, "Deleting an account"):
     * from then on their tokens and sign-in are refused. Database time, as the tokens' `iat` is.
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /**
     * The subject the row had before its deletion freed it (`subject` becomes `deleted|<id>`), so a
     * token of the deleted account issued before `deletedAt` is refused, while the same person
     * signing up again gets a new row.
     */
    formerSubject: text('former_subject'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The back office finds users by a prefix of their name or email, in any case; pattern_ops
    // lets LIKE 'abc%' use the index whatever the database's collation, and the columns after it
    // are what the search sorts by, so its matches are read from the index alone.
    index('users_name_prefix_idx').using('btree', sql`lower(${t.name}) text_pattern_ops`, t.createdAt, t.id, t.name),
    // The email itself too: PostgreSQL rechecks the LIKE on lower(email) from the column, not the stored expression.
    index('users_email_prefix_idx').using('btree', sql`lower(${t.email}) text_pattern_ops`, t.createdAt, t.id, t.name, t.email),
    index('users_created_idx').on(t.createdAt, t.id),
    index('users_former_subject_idx').on(t.formerSubject),
    // The users of the Minecraft names a search found, with what it sorts and filters by, from the index alone.
    index('users_mc_uuid_search_idx').on(t.mcUuid, t.createdAt, t.id, t.name, t.email),
  ],
);
