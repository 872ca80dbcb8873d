import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Accounts of the embedded OpenID provider (unused when a Keycloak realm is the issuer). */
export const identityAccounts = pgTable('identity_accounts', {
  /** The token subject; derived from the username so offline tools can name the same user. */
  id: uuid('id').primaryKey(),
  username: text('username').notNull().unique(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  roles: text('roles').array().notNull().default([]),
  /** The authenticator app's secret (base32): pending until a first code confirms it, then asked at each sign-in. */
  totpSecret: text('totp_secret'),
  totpEnabled: boolean('totp_enabled').notNull().default(false),
  /** The last 30-second step a code was taken for, so a code seen over a shoulder cannot be used again. */
  totpLastStep: integer('totp_last_step'),
  /** SHA-256 of the recovery codes not used yet (each is random enough that a plain hash suffices). */
  recoveryCodes: text('recovery_codes').array().notNull().default([]),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The provider's sessions, grants, codes and tokens, so a restart or another replica signs no one out. */
export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.model, t.id] }), index('oidc_payloads_grant_idx').on(t.grantId), index('oidc_payloads_uid_idx').on(t.uid), index('oidc_payloads_user_code_idx').on(t.userCode)],
);

/** What a one-time link of an account is for: a password reset, or an email change to confirm. */
export const accountLinkKinds = ['reset', 'email'] as const;

/**
 * The links mailed to a person: only the SHA-256 of their random token is kept, so a leaked table
 * opens nothing. A link is used once (`used_at`) and dies at `expires_at`.
 */
export const identityLinks = pgTable(
  'identity_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => identityAccounts.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: accountLinkKinds }).notNull(),
    /** The new address an email change confirms. */
    email: text('email'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('identity_links_account_idx').on(t.accountId)],
);
