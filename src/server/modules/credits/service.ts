import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Database, Db, Executor } from '../../db/client.ts';
import { creditAccounts, ledgerEntries, type LedgerKind } from '../../db/schema/credits.ts';
import { conflict, paymentRequired } from '../../lib/problems.ts';
import { pageOf, type Window } from '../../lib/paging.ts';
import { NotifiedCache } from '../../lib/notified-cache.ts';
import type { LedgerEntry } from '../../../contract/credits.ts';

/** No balance grows past this: far below PostgreSQL's integer limit, far above any real purchase. */
export const MAX_BALANCE = 1_000_000_000;

/** Channel on which the credit_accounts trigger names the user whose balance changed. */
export const BALANCE_CHANNEL = 'balance_changed';

export interface LedgerChange {
  userId: string;
  /** Positive credits in, negative credits out. */
  amount: number;
  kind: LedgerKind;
  reason: string;
  refType?: string;
  refId?: string;
  providerEventId?: string;
  createdBy?: string;
}

/**
 * The credits ledger. A balance changes only through `apply`, which writes one ledger row in the
 * caller's transaction; the conditional UPDATE keeps the balance between zero and MAX_BALANCE even
 * when spends race (PostgreSQL re-checks the WHERE after waiting for the row lock), and numbers the
 * entry in the order the balance changed.
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
    this.balances.markDirty(change.userId);
    await executor.insert(creditAccounts).values({ userId: change.userId }).onConflictDoNothing();
    const [account] = await executor
      .update(creditAccounts)
      .set({ balance: sql`${creditAccounts.balance} + ${change.amount}`, entries: sql`${creditAccounts.entries} + 1`, updatedAt: sql`now()` })
      // bigint: the sum is checked before it could overflow the column.
      .where(and(eq(creditAccounts.userId, change.userId), sql`${creditAccounts.balance}::bigint + ${change.amount} between 0 and ${MAX_BALANCE}`))
      .returning({ balance: creditAccounts.balance, entries: creditAccounts.entries });
    if (!account) {
      const balance = await this.balance(change.userId, executor);
      if (change.amount > 0) throw conflict(`The balance would exceed ${MAX_BALANCE} credits: it is ${balance}, and ${change.amount} more were asked`);
      throw paymentRequired(`Not enough credits: this needs ${-change.amount} and the balance is ${balance}`);
    }
    const [entry] = await executor
      .insert(ledgerEntries)
      .values({
        userId: change.userId,
        amount: change.amount,
        balanceAfter: account.balance,
        accountSeq: account.entries,
        kind: change.kind,
        reason: change.reason,
        refType: change.refType ?? null,
        refId: change.refId ?? null,
        providerEventId: change.providerEventId ?? null,
        createdBy: change.createdBy ?? null,
      })
      .returning({ id: ledgerEntries.id });
    return { balance: account.balance, entryId: entry!.id };
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

  /** The user's ledger, newest first. */
  async entries(userId: string, window: Window) {
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(ledgerEntries)
        .where(eq(ledgerEntries.userId, userId))
        .orderBy(desc(ledgerEntries.accountSeq))
        .limit(window.limit)
        .offset(window.offset),
      this.db.select({ n: count() }).from(ledgerEntries).where(eq(ledgerEntries.userId, userId)),
    ]);
    return pageOf(rows.map(toEntry), total?.n ?? 0, window);
  }

  /** The user's entries caused by one thing (a game, a payment...), newest first. */
  async entriesByRef(userId: string, refType: string, refId: string, window: Window) {
    const where = and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.refType, refType), eq(ledgerEntries.refId, refId));
    const [rows, [total]] = await Promise.all([
      this.db.select().from(ledgerEntries).where(where).orderBy(desc(ledgerEntries.accountSeq)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(ledgerEntries).where(where),
    ]);
    return pageOf(rows.map(toEntry), total?.n ?? 0, window);
  }
}

function toEntry(row: typeof ledgerEntries.$inferSelect): LedgerEntry {
  return {
    id: row.id,
    amount: row.amount,
    balanceAfter: row.balanceAfter,
    kind: row.kind,
    reason: row.reason,
    refType: row.refType,
    refId: row.refId,
    createdAt: row.createdAt.toISOString(),
  };
}
