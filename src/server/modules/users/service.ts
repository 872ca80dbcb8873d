import { and, eq, inArray, isNotNull, ne, notInArray, or, sql } from 'drizzle-orm';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import type { Database, Db, Executor } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';
import type { AuthUser, Identity } from '../../plugins/auth.ts';
import { conflict, unauthorized } from '../../lib/problems.ts';
import { deletedAccountName } from '../../../contract/account.ts';
import { TtlCache } from '../../lib/ttl-cache.ts';
import type { Locale } from '../../../contract/messages.ts';
import { NotifiedCache } from '../../lib/notified-cache.ts';

/** Channel on which the users trigger names the user whose row changed. */
const USER_CHANNEL = 'user_changed';

const RESOLVED_KEPT = 10_000;
const RESOLVED_TTL_MS = 5 * 60_000;
/** The subject of the platform's own account: no identity provider issues it, so nobody signs in as it. */
const PLATFORM_SUBJECT = 'blockhost:platform';

/** Shorter searches match whole names only: two letters would list half the players. */
const PREFIX_MIN = 3;

export type UserRow = typeof users.$inferSelect;

export class UsersService {
  private readonly db: Db;
  /**
   * Identities already matched to their row, by subject, with the claims the row was last made
   * from: a user's id never changes, so while the claims are the same there is nothing to read or
   * write. One entry per subject, so a token with other claims in between (other roles, no email)
   * is not followed by a stale hit that would skip bringing the row back in step.
   */
  private readonly resolved = new TtlCache<string, { claims: string; user: AuthUser; deletedUntil: number }>(RESOLVED_KEPT);
  /** Rows by id, for the pages that read the signed-in user on every load. */
  readonly rows: NotifiedCache<UserRow | undefined>;

  constructor(database: Database) {
    this.db = database.db;
    this.rows = new NotifiedCache(database, USER_CHANNEL);
  }

  /**
   * The user of this identity, made on first sight and kept in step with the token's name, email
   * and roles. A token without an email claim (a scripted token, an issuer asked without the email
   * scope) says nothing about the email: the one on record stays, for invoices and receipts.
   */
  async resolve(identity: Identity): Promise<AuthUser> {
    const claims = JSON.stringify([identity.name, identity.email, [...identity.roles].sort()]);
    const known = this.resolved.get(identity.subject);
    if (known?.claims === claims) {
      refuseBefore(identity, known.deletedUntil);
      // The row's cache is told of every change on every replica: once the account is deleted, the
      // subject is read again, which refuses its tokens and finds the new row of a later sign-up.
      if (!(await this.get(known.user.id))?.deletedAt) return known.user;
    }
    const { user, deletedUntil } = await this.upsert(identity);
    this.resolved.set(identity.subject, { claims, user, deletedUntil }, RESOLVED_TTL_MS);
    return user;
  }

  /**
   * Finds or makes the row, and reads when the subject's deleted accounts were deleted (rows whose
   * `formerSubject` it is): a token issued in the second of such a deletion or before is theirs,
   * refused, while a later one (the same person signing up again) is the new row's.
   */
  private async upsert(identity: Identity): Promise<{ user: AuthUser; deletedUntil: number }> {
    const rows = await this.db
      .select({ id: users.id, name: users.name, email: users.email, roles: users.roles, subject: users.subject, deletedAt: users.deletedAt })
      .from(users)
      .where(or(eq(users.subject, identity.subject), eq(users.formerSubject, identity.subject)));
    const deletedUntil = Math.max(0, ...rows.filter((r) => r.subject !== identity.subject && r.deletedAt).map((r) => Math.floor(r.deletedAt!.getTime() / 1000)));
    refuseBefore(identity, deletedUntil);
    const found = rows.find((r) => r.subject === identity.subject);
    const same = found && found.name === identity.name && (identity.email ?? found.email) === found.email && sameRoles(found.roles, identity.roles);
    if (same) return { user: { id: found.id, name: found.name, email: found.email, roles: found.roles }, deletedUntil };
    if (found) this.rows.markDirty(found.id);
    const [row] = await this.db
      .insert(users)
      .values({ subject: identity.subject, name: identity.name, email: identity.email, roles: identity.roles })
      .onConflictDoUpdate({
        target: users.subject,
        set: { name: identity.name, email: sql`coalesce(excluded.email, ${users.email})`, roles: identity.roles, updatedAt: sql`now()` },
      })
      .returning({ id: users.id, name: users.name, email: users.email, roles: users.roles });
    return { user: row!, deletedUntil };
  }

  /**
   * Marks the account deleted inside the caller's transaction (docs/architecture.md, "Deleting an
   * account"): from the commit its tokens are refused, and its subject is freed so that signing up
   * again makes a new row. Answers the row as it was, or undefined when it is deleted already.
   */
  async markDeleted(tx: Executor, userId: string): Promise<UserRow | undefined> {
    const [row] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!row || row.deletedAt) return undefined;
    this.rows.markDirty(userId);
    this.resolved.delete(row.subject);
    await tx
      .update(users)
      .set({ deletedAt: sql`now()`, formerSubject: row.subject, subject: `deleted|${userId}`, updatedAt: sql`now()` })
      .where(eq(users.id, userId));
    return row;
  }

  /** A deleted account's row keeps only what the ledger, payments and invoices point at: its name replaced, no email, no Minecraft link. */
  async anonymise(userId: string): Promise<void> {
    this.rows.markDirty(userId);
    await this.db
      .update(users)
      .set({ name: deletedAccountName(userId), email: null, mcUuid: null, updatedAt: sql`now()` })
      .where(eq(users.id, userId));
  }

  /**
   * The accounts of `ids` not deleted, their rows held `FOR SHARE` until `tx` ends, for a payment
   * into them in `tx` (a refund, a prize): a deletion, which takes the row `FOR UPDATE`, either
   * went first and is seen here, or waits for the commit and forfeits the credits paid with the
   * rest. Nothing is paid into a deleted account, whether or not its erasure has run.
   */
  async living(tx: Executor, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await tx
      .select({ id: users.id, deletedAt: users.deletedAt })
      .from(users)
      .where(inArray(users.id, [...new Set(ids)]))
      .orderBy(users.id)
      .for('share');
    return new Set(rows.filter((r) => !r.deletedAt).map((r) => r.id));
  }

  /** Whether the row is a deleted account's: reviews name their author "Former player". */
  async deletedIds(ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, [...new Set(ids)]), isNotNull(users.deletedAt)));
    return new Set(rows.map((r) => r.id));
  }

  /**
   * A user's row; inside a transaction give it (`executor`): on PGlite a read outside an open
   * transaction waits for it to end, so it would wait for itself.
   */
  async get(id: string, executor?: Executor): Promise<UserRow | undefined> {
    const read = async (from: Executor) => {
      const [row] = await from.select().from(users).where(eq(users.id, id));
      return row;
    };
    return executor ? read(executor) : this.rows.get(id, () => read(this.db));
  }

  /**
   * The platform's own account, made the first time (in the caller's transaction): the owner of
   * the games the platform runs for itself (match servers), which nobody signs in as.
   */
  async platformAccount(executor: Executor): Promise<string> {
    await executor.insert(users).values({ subject: PLATFORM_SUBJECT, name: 'BlockHost' }).onConflictDoNothing();
    const [row] = await executor.select({ id: users.id }).from(users).where(eq(users.subject, PLATFORM_SUBJECT));
    return row!.id;
  }

  /** The saved locale of the user a token subject names; French for one never seen (the default). */
  async localeOfSubject(subject: string): Promise<Locale> {
    const [row] = await this.db.select({ locale: users.locale }).from(users).where(eq(users.subject, subject));
    return row?.locale ?? 'fr';
  }

  async start(): Promise<void> {
    await this.rows.start();
  }

  async stop(): Promise<void> {
    await this.rows.stop();
  }

  /**
   * The user's saved locale, first set to `chosen` (the language the web app shows, from its
   * locale cookie) when that differs: what is rendered for them later, a notice on their stream or
   * a list read by a client without the cookie, is in the language they last read the site in.
   */
  async rememberLocale(userId: string, chosen: Locale | undefined): Promise<Locale> {
    const saved = (await this.get(userId))?.locale ?? 'fr';
    if (!chosen || chosen === saved) return saved;
    this.rows.markDirty(userId);
    await this.db
      .update(users)
      .set({ locale: chosen, updatedAt: sql`now()` })
      .where(eq(users.id, userId));
    return chosen;
  }

  /** The saved locale of each of these users, read in the caller's transaction when given. */
  async locales(ids: string[], executor: Executor = this.db): Promise<Map<string, Locale>> {
    if (ids.length === 0) return new Map();
    const rows = await executor
      .select({ id: users.id, locale: users.locale })
      .from(users)
      .where(inArray(users.id, [...new Set(ids)]));
    return new Map(rows.map((r) => [r.id, r.locale]));
  }

  /** Id, name and linked Minecraft UUID of each of these users that exists. */
  async summaries(ids: string[]): Promise<{ id: string; name: string; mcUuid: string | null }[]> {
    if (ids.length === 0) return [];
    return this.db.select({ id: users.id, name: users.name, mcUuid: users.mcUuid }).from(users).where(inArray(users.id, ids));
  }

  /**
   * Users a player may look up by name: the exact name (any case), and from `PREFIX_MIN` characters
   * on, the names starting with `q`; exact matches first. Only the name is matched, never the
   * email, and `excluded` (the caller, the users blocked either way) are left out.
   */
  async searchByName(q: string, excluded: string[], limit: number): Promise<{ id: string; name: string; mcUuid: string | null }[]> {
    const key = q.trim().toLowerCase();
    if (!key) return [];
    const name = sql`lower(${users.name})`;
    const exact = sql`${name} = ${key}`;
    // The prefix goes through users_name_prefix_idx (lower(name) text_pattern_ops).
    const match = key.length >= PREFIX_MIN ? sql`${name} like ${`${key.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : exact;
    return this.db
      .select({ id: users.id, name: users.name, mcUuid: users.mcUuid })
      .from(users)
      .where(excluded.length ? and(match, notInArray(users.id, excluded)) : match)
      .orderBy(sql`${exact} desc`, name, users.createdAt, users.id)
      .limit(limit);
  }

  async idByMcUuid(mcUuid: string): Promise<string | undefined> {
    const [row] = await this.db.select({ id: users.id }).from(users).where(eq(users.mcUuid, mcUuid));
    return row?.id;
  }

  /** Links a Minecraft account; one platform user per account, so another holder is a 409. */
  async linkMinecraft(userId: string, mcUuid: string): Promise<void> {
    const taken = () => conflict('users.minecraftTaken');
    const [holder] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.mcUuid, mcUuid), ne(users.id, userId)));
    if (holder) throw taken();
    this.rows.markDirty(userId);
    try {
      await this.db
        .update(users)
        .set({ mcUuid, updatedAt: sql`now()` })
        .where(eq(users.id, userId));
    } catch (err) {
      // Two users linking the same account at once: the unique key lets one win.
      if (isUniqueViolation(err)) throw taken();
      throw err;
    }
  }

  /** Display names of several users at once (authors of a list of reviews...). */
  async names(ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await this.db
      .select({ id: users.id, name: users.name })
      .from(users)
      .where(inArray(users.id, [...new Set(ids)]));
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** For a person's data export: their account as the platform keeps it. */
  async profile(id: string) {
    const row = await this.get(id);
    return row && { id: row.id, name: row.name, email: row.email, minecraftUuid: row.mcUuid, locale: row.locale, roles: row.roles, createdAt: row.createdAt.toISOString() };
  }
}

/** 401 for a token issued no later than `deletedUntil` (seconds; 0: the subject never was deleted), or with no issue time when it was. */
function refuseBefore(identity: Identity, deletedUntil: number): void {
  if (deletedUntil > 0 && (identity.issuedAt === undefined || identity.issuedAt <= deletedUntil)) throw unauthorized('auth.accountDeleted');
}

function sameRoles(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((r) => b.includes(r));
}
