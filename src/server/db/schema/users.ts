import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** A platform user, made from the identity token's claims on their first API call. */
export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** `iss` + `sub` of the token, so two issuers can never share a row. */
  subject: text('subject').notNull().unique(),
  name: text('name').notNull(),
  email: text('email'),
  mcUuid: uuid('mc_uuid').unique(),
  roles: text('roles').array().notNull().default([]),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
