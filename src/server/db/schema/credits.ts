import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { ledgerKinds, type LedgerKind } from '../../../contract/credits.ts';
import type { MessageParams } from '../../../contract/messages.ts';

export { ledgerKinds, type LedgerKind };

/** The current balance, kept beside the ledger so a spend is one conditional UPDATE. */
export const creditAccounts = pgTable(
  'credit_accounts',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    balance: integer('balance').notNull().default(0),
    /** How many ledger entries the account has: the next entry's `accountSeq`, taken under the row lock. */
    entries: integer('entries').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('credit_accounts_balance_non_negative', sql`${t.balance} >= 0`)],
);

/** Append-only: every balance change is exactly one row, written in the transaction that caused it. */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    /**
     * The entry's place in its account, 1, 2, 3...: given under the account's row lock, so it is the
     * order balances changed in. `createdAt` is not: it is the transaction's start, and concurrent
     * spends commit in another order than they started.
     */
    accountSeq: integer('account_seq').notNull(),
    kind: text('kind', { enum: ledgerKinds }).notNull(),
    /** Why, as a message of locales/{fr,en}/messages.json and its parameters: rendered in the reader's language. */
    reasonKey: text('reason_key').notNull(),
    reasonParams: jsonb('reason_params').$type<MessageParams>().notNull().default({}),
    /** What caused it (a game, a payment...), for the owner's history. */
    refType: text('ref_type'),
    refId: text('ref_id'),
    /** A payment provider's event id: unique, so a replayed webhook is applied once. */
    providerEventId: text('provider_event_id').unique(),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_entries_user_seq_idx').on(t.userId, t.accountSeq),
    index('ledger_entries_ref_idx').on(t.refType, t.refId),
    // The back office's ledger, sorted by date or amount, filtered by kind: each page's ids come from one of these alone.
    index('ledger_entries_created_idx').on(t.createdAt, t.id),
    index('ledger_entries_kind_created_idx').on(t.kind, t.createdAt, t.id),
    index('ledger_entries_amount_idx').on(t.amount, t.id),
  ],
);
