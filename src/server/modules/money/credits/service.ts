import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Database, Db, Executor } from '../../../db/client.ts';
import { creditAccounts, ledgerEntries, type LedgerKind } from '../../../db/schema/credits.ts';
import { conflict, paymentRequired } from '../../../lib/problems.ts';
import { pageOf, type Window } from '../../../lib/paging.ts';
import { NotifiedCache } from '../../../lib/notified-cache.ts';
import type { LedgerEntry } from '../../../../contract/credits.ts';
import type { Locale, Message } from '../../../../contract/messages.ts';
import { reasonText } from '../../../lib/messages.ts';

/** No balance grows past this: far below PostgreSQL's integer limit, far above any real purchase. */
export const MAX_BALANCE = 1_000_000_000;

/** Channel on which the credit_accounts trigger names the user whose balance changed. */
export const BALANCE_CHANNEL = 'balance_changed';

export interface LedgerChange {
  userId: string;
  /** Positive credits in, negative credits out. */
  amount: number;
  kind: LedgerKind;
  /** Why, as a message of `ledger` in locales/{fr,en}/messages.json: each reader sees it in their language. */
  reason: Message;
  refType?: string;
  refId?: string;
  providerEventId?: string;
  createdBy?: string;
}

/**
 * The credits ledger. A balance changes only through `apply`, which writes one ledger row in the
 * caller's transaction; the conditional UPDATE keeps the balance between zero and MAX_BALANCE even
 * when spends race (PostgreSQL re-checks the WHERE after waiting for the row lock), and numbers the
 * entry in the order the balance changed. A change it refuses (402, 409) writes nothing.
 */
export class CreditsService {
  private readonly db: Db;
  /** Balances are read on every page of the app and change rarely; a trigger announces each change. */
  readonly balances: NotifiedCache<number>;

  constructor(database: Database) {
    this.db = database.db;
    this.balances = new NotifiedCache(database, BALANCE_CHANNEL);
  }

  async apply(executor: Executor, change: LedgerChange): Promise<{ balance: number; entryId: string }> {
    if (executor === this.db) return this.db.transaction((tx) => this.apply(tx, change));
    const applied = await this.tryApply(executor, change);
    if (!applied) throw await this.refusal(executor, change);
    return applied;
  }

  /** `apply`, answering null rather than throwing when the change does not fit the balance. */
  async tryApply(executor: Executor, change: LedgerChange): Promise<{ balance: number; entryId: string } | null> {
    if (executor === this.db) return this.db.transaction((tx) => this.tryApply(tx, change));
    this.balances.markDirty(change.userId);
    if (change.amount > MAX_BALANCE) return null;
    // One statement for the account and its entry: a ledger change sits on every payment's path.
    // A credit makes the account if it has none; a debit needs one (a missing account holds 0).
    // bigint: the sum is checked before it could overflow the column.
    const account =
      change.amount >= 0
        ? sql`insert into ${creditAccounts} (user_id, balance, entries) values (${change.userId}, ${change.amount}, 1)
            on conflict (user_id) do update set balance = ${creditAccounts}.balance + excluded.balance, entries = ${creditAccounts}.entries + 1, updated_at = now()
            where ${creditAccounts}.balance::bigint + excluded.balance <= ${MAX_BALANCE}
            returning balance, entries`
        : sql`update ${creditAccounts} set balance = balance + ${change.amount}, entries = entries + 1, updated_at = now()
            where user_id = ${change.userId} and balance::bigint + ${change.amount} >= 0
            returning balance, entries`;
    const result = await executor.execute(sql`
      with account as (${account})
      insert into ${ledgerEntries} (user_id, amount, balance_after, account_seq, kind, reason_key, reason_params, ref_type, ref_id, provider_event_id, created_by)
      select ${change.userId}::uuid, ${change.amount}::integer, balance, entries, ${change.kind}::text, ${change.reason.key}::text, ${JSON.stringify(change.reason.params)}::jsonb, ${change.refType ?? null}::text,
        ${change.refId ?? null}::text, ${change.providerEventId ?? null}::text, ${change.createdBy ?? null}::uuid
      from account
      returning id, balance_after`);
    const [entry] = (result as unknown as { rows: Array<{ id: string; balance_after: number }> }).rows;
    return entry ? { balance: entry.balance_after, entryId: entry.id } : null;
  }

  /** Why a change did not fit the balance: 409 past the maximum, 402 below zero. */
  async refusal(executor: Executor, change: Pick<LedgerChange, 'userId' | 'amount'>): Promise<Error> {
    const balance = await this.balance(change.userId, executor);
    if (change.amount > 0) return conflict('credits.balanceTooHigh', { max: MAX_BALANCE, balance, amount: change.amount });
    return paymentRequired('credits.notEnough', { needed: -change.amount, balance });
  }

  async start(): Promise<void> {
    await this.balances.start();
  }

  async stop(): Promise<void> {
    await this.balances.stop();
  }

  async balance(userId: string, executor: Executor = this.db): Promise<number> {
    if (executor === this.db) return this.balances.get(userId, () => this.readBalance(userId, executor));
    return this.readBalance(userId, executor);
  }

  private async readBalance(userId: string, executor: Executor): Promise<number> {
    const [row] = await executor.select({ balance: creditAccounts.balance }).from(creditAccounts).where(eq(creditAccounts.userId, userId));
    return row?.balance ?? 0;
  }

  /** What the user's entries caused by one thing (a game...) took from the balance, net of what they gave back. */
  async netSpent(executor: Executor, userId: string, refType: string, refId: string): Promise<number> {
    const [row] = await executor
      .select({ sum: sql<number>`coalesce(sum(${ledgerEntries.amount}), 0)`.mapWith(Number) })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.refType, refType), eq(ledgerEntries.refId, refId)));
    return -(row?.sum ?? 0);
  }

  /** The user's ledger, newest first, its reasons in `locale`. */
  async entries(userId: string, locale: Locale, window: Window) {
    const [rows, [total]] = await Promise.all([
      this.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, userId)).orderBy(desc(ledgerEntries.accountSeq)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(ledgerEntries).where(eq(ledgerEntries.userId, userId)),
    ]);
    return pageOf(
      rows.map((r) => toEntry(r, locale)),
      total?.n ?? 0,
      window,
    );
  }

  /** The user's entries caused by one thing (a game, a payment...), newest first, their reasons in `locale`. */
  async entriesByRef(userId: string, refType: string, refId: string, locale: Locale, window: Window) {
    const where = and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.refType, refType), eq(ledgerEntries.refId, refId));
    const [rows, [total]] = await Promise.all([
      this.db.select().from(ledgerEntries).where(where).orderBy(desc(ledgerEntries.accountSeq)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(ledgerEntries).where(where),
    ]);
    return pageOf(
      rows.map((r) => toEntry(r, locale)),
      total?.n ?? 0,
      window,
    );
  }
}

/** An entry's reason in `locale`, and the message it comes from for a reader in another. */
export function reasonOf(row: Pick<typeof ledgerEntries.$inferSelect, 'reasonKey' | 'reasonParams'>, locale: Locale): Pick<LedgerEntry, 'reason' | 'reasonKey' | 'reasonParams'> {
  const message = { key: row.reasonKey, params: row.reasonParams };
  return { reason: reasonText(message, locale), reasonKey: message.key, reasonParams: message.params };
}

function toEntry(row: typeof ledgerEntries.$inferSelect, locale: Locale): LedgerEntry {
  return {
    id: row.id,
    amount: row.amount,
    balanceAfter: row.balanceAfter,
    kind: row.kind,
    ...reasonOf(row, locale),
    refType: row.refType,
    refId: row.refId,
    createdAt: row.createdAt.toISOString(),
  };
}
