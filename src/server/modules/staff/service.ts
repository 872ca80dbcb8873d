/* eslint-disable local/own-tables -- The back office's lists join what several domains own (a
 * user's balance and Minecraft name, a payment's buyer and invoice, a ledger row's user) and filter
 * and sort across them; through each module's service they would load whole tables into memory.
 * These queries only read: every write goes through the owning module's service. */
import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { creditAccounts, ledgerEntries } from '../../db/schema/credits.ts';
import { games } from '../../db/schema/games.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { minecraftProfiles } from '../../db/schema/minecraft.ts';
import { payments } from '../../db/schema/payments.ts';
import { users } from '../../db/schema/users.ts';
import { conflict, HttpProblem, notFound } from '../../lib/problems.ts';
import { pageOf, type Window } from '../../lib/paging.ts';
import type { AuditService } from '../audit/service.ts';
import { reasonOf, type CreditsService } from '../money/credits/service.ts';
import type { InvoicesService, Lang } from '../money/invoices/service.ts';
import { isRefundable } from '../money/payments/service.ts';
import type { SubscriptionsService } from '../money/subscriptions/service.ts';
import type { Page } from '../../../contract/common.ts';
import type { UserCreditAddRequest } from '../../../contract/user.ts';
import type { Locale } from '../../../contract/messages.ts';
import {
  parseSort,
  type StaffInvoice,
  type StaffInvoicesQuery,
  type StaffPayment,
  type StaffPaymentsQuery,
  type StaffTransaction,
  type StaffTransactionsQuery,
  type StaffUser,
  type StaffUserDetail,
  type StaffUsersQuery,
} from '../../../contract/staff.ts';

export interface StaffDeps {
  credits: CreditsService;
  audit: AuditService;
  subscriptions: SubscriptionsService;
  invoices: InvoicesService;
}

/** Above this many matches a list's total is PostgreSQL's estimate (see `total`). */
const EXACT_COUNT_LIMIT = 10_000;

const direction = (descending: boolean) => (descending ? desc : asc);

/** `q` as a LIKE prefix: its own `%`, `_` and `\` match themselves. */
const prefixPattern = (q: string) => `${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** What a user list is sorted by, before balances and Minecraft names are joined. */
const candidateColumns = { id: users.id, name: users.name, createdAt: users.createdAt };

/** The rows of `db.execute`, whichever driver answered. */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

const userColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  roles: users.roles,
  createdAt: users.createdAt,
  balance: sql<number>`coalesce(${creditAccounts.balance}, 0)`.mapWith(Number),
  mcName: minecraftProfiles.name,
};
type UserRow = { id: string; name: string; email: string | null; roles: string[]; createdAt: Date; balance: number; mcName: string | null };

const toStaffUser = (row: UserRow): StaffUser => ({
  id: row.id,
  name: row.name,
  email: row.email,
  mcName: row.mcName,
  roles: row.roles,
  balance: row.balance,
  createdAt: row.createdAt.toISOString(),
});

type PaymentRow = typeof payments.$inferSelect;
const toStaffPayment = (row: PaymentRow, userName: string, invoiceId: string | null): StaffPayment => ({
  id: row.id,
  userId: row.userId,
  userName,
  kind: row.kind,
  status: row.status,
  amountCents: row.amountCents,
  currency: row.currency,
  credits: row.credits,
  bonusCredits: row.bonusCredits,
  provider: row.provider,
  providerId: row.providerPaymentId,
  promoCode: row.promoCode,
  invoiceId,
  refundable: isRefundable(row),
  refundedCents: row.refundedCents,
  refundRequestedAt: row.refundRequestedAt?.toISOString() ?? null,
  failureReason: row.failureReason,
  flag: row.flag,
  flaggedAt: row.flaggedAt?.toISOString() ?? null,
  reportedAmountCents: row.reportedAmountCents,
  reportedCurrency: row.reportedCurrency,
  createdAt: row.createdAt.toISOString(),
  settledAt: row.settledAt?.toISOString() ?? null,
});

/**
 * The back office's view of people and money: users with their balance and Minecraft name, the
 * whole ledger, payments and invoices, read across the domains that own them; and staff's credit
 * corrections, written through the credits ledger with their audit row in one transaction.
 */
export class StaffService {
  private readonly db: Db;
  private readonly d: StaffDeps;

  constructor(db: Db, deps: StaffDeps) {
    this.db = db;
    this.d = deps;
  }

  /**
   * Users, newest first by default; `q` is a prefix of the name, the email or the Minecraft name.
   * The page's ids come from the users (or those matching) alone; balances and Minecraft names are
   * joined for those twenty only. A search sorts every match anyway, so it counts them in the same
   * pass (`count(*) over ()`) instead of finding them twice.
   */
  async users(query: StaffUsersQuery, window: Window): Promise<Page<StaffUser>> {
    const sort = parseSort<'name' | 'createdAt' | 'balance'>(query.sort, { field: 'createdAt', desc: true });
    const dir = direction(sort.desc);
    const found = (query.q ? this.matching(query.q) : this.db.select(candidateColumns).from(users)).as('found');
    const key = { name: sql`lower(${found.name})`, createdAt: found.createdAt, balance: sql`coalesce(${creditAccounts.balance}, 0)` }[sort.field];
    let ids = this.db
      .select({ id: found.id, matches: query.q ? sql<number>`count(*) over ()`.mapWith(Number) : sql<null>`null` })
      .from(found)
      .$dynamic();
    if (sort.field === 'balance') ids = ids.leftJoin(creditAccounts, eq(creditAccounts.userId, found.id));
    const page = await ids.orderBy(dir(key), dir(found.id)).limit(window.limit).offset(window.offset);
    const [rows, total] = await Promise.all([
      page.length
        ? this.userQuery().where(
            inArray(
              users.id,
              page.map((r) => r.id),
            ),
          )
        : [],
      page[0]?.matches ?? this.total(this.db.select({ id: found.id }).from(found)),
    ]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return pageOf(
      page.flatMap((r) => (byId.has(r.id) ? [toStaffUser(byId.get(r.id)!)] : [])),
      total,
      window,
    );
  }

  /** One user with their subscription, games and latest payments; 404 when unknown. */
  async user(id: string): Promise<StaffUserDetail> {
    const [row] = await this.userQuery().where(eq(users.id, id));
    if (!row) throw notFound('user');
    const [subscription, owned, latest] = await Promise.all([
      this.d.subscriptions.current(id),
      this.db.select({ id: games.id, name: games.name, status: games.status, periodEnd: games.periodEnd }).from(games).where(eq(games.ownerId, id)).orderBy(desc(games.createdAt)),
      this.payments({ userId: id }, { limit: 20, offset: 0, page: 0, size: 20 }),
    ]);
    const plan = subscription ? await this.d.subscriptions.plan(subscription.planId) : undefined;
    return {
      ...toStaffUser(row),
      subscription:
        subscription && plan
          ? {
              planId: plan.id,
              planName: plan.name,
              status: subscription.status,
              currentPeriodEnd: subscription.currentPeriodEnd?.toISOString() ?? null,
              cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
            }
          : null,
      games: owned.map((g) => ({ ...g, periodEnd: g.periodEnd.toISOString() })),
      payments: latest.data,
    };
  }

  /**
   * Adds credits to a user, or takes some back (a negative amount), with a reason: one ledger row
   * and its audit row in one transaction. A balance never goes below zero: 409, nothing written.
   */
  async credit(actorId: string, input: UserCreditAddRequest): Promise<{ userId: string; balance: number; entryId: string }> {
    const [known] = await this.db.select({ id: users.id }).from(users).where(eq(users.id, input.userId));
    if (!known) throw notFound('user');
    try {
      return await this.db.transaction(async (tx) => {
        const result = await this.d.credits.apply(tx, {
          userId: input.userId,
          amount: input.amount,
          kind: 'ADMIN_ADJUSTMENT',
          reason: { key: 'adjustment', params: { reason: input.reason } },
          createdBy: actorId,
        });
        await this.d.audit.record(tx, {
          actorId,
          action: 'user.credit',
          entity: 'user',
          entityId: input.userId,
          reason: input.reason,
          before: { balance: result.balance - input.amount },
          after: { balance: result.balance, amount: input.amount, entryId: result.entryId },
        });
        return { userId: input.userId, ...result };
      });
    } catch (err) {
      // Taking back more than the balance is a conflict with its state, not a payment owed.
      if (err instanceof HttpProblem && err.status === 402) throw conflict('credits.belowZero', err.params);
      throw err;
    }
  }

  /**
   * Every user's ledger, newest first by default. The page's ids are read from an index alone and
   * only those rows fetched, so a deep page skips index entries rather than whole rows.
   */
  async transactions(query: StaffTransactionsQuery, locale: Locale, window: Window): Promise<Page<StaffTransaction>> {
    const sort = parseSort<'createdAt' | 'amount'>(query.sort, { field: 'createdAt', desc: true });
    const dir = direction(sort.desc);
    const order = [dir(sort.field === 'amount' ? ledgerEntries.amount : ledgerEntries.createdAt), dir(ledgerEntries.id)];
    const conditions: SQL[] = [];
    if (query.userId) conditions.push(eq(ledgerEntries.userId, query.userId));
    if (query.kind) conditions.push(eq(ledgerEntries.kind, query.kind));
    if (query.from) conditions.push(gte(ledgerEntries.createdAt, new Date(query.from)));
    if (query.to) conditions.push(lt(ledgerEntries.createdAt, new Date(query.to)));
    const where = conditions.length ? and(...conditions) : undefined;
    const page = this.db
      .select({ id: ledgerEntries.id })
      .from(ledgerEntries)
      .where(where)
      .orderBy(...order)
      .limit(window.limit)
      .offset(window.offset)
      .as('page');
    const [rows, total] = await Promise.all([
      this.db
        .select({ entry: ledgerEntries, userName: users.name })
        .from(page)
        .innerJoin(ledgerEntries, eq(ledgerEntries.id, page.id))
        .innerJoin(users, eq(users.id, ledgerEntries.userId))
        .orderBy(...order),
      this.total(this.db.select({ id: ledgerEntries.id }).from(ledgerEntries).where(where)),
    ]);
    const data: StaffTransaction[] = rows.map(({ entry, userName }) => ({
      id: entry.id,
      userId: entry.userId,
      userName,
      amount: entry.amount,
      balanceAfter: entry.balanceAfter,
      kind: entry.kind,
      ...reasonOf(entry, locale),
      refType: entry.refType,
      refId: entry.refId,
      createdBy: entry.createdBy,
      createdAt: entry.createdAt.toISOString(),
    }));
    return pageOf(data, total, window);
  }

  /** Card payments of every user, newest first by default, with the buyer's name and the invoice. */
  async payments(query: StaffPaymentsQuery, window: Window): Promise<Page<StaffPayment>> {
    const sort = parseSort<'createdAt' | 'amountCents'>(query.sort, { field: 'createdAt', desc: true });
    const dir = direction(sort.desc);
    const conditions: SQL[] = [];
    if (query.userId) conditions.push(eq(payments.userId, query.userId));
    if (query.status) conditions.push(eq(payments.status, query.status));
    const where = conditions.length ? and(...conditions) : undefined;
    const [rows, total] = await Promise.all([
      this.paymentQuery()
        .where(where)
        .orderBy(dir(sort.field === 'amountCents' ? payments.amountCents : payments.createdAt), dir(payments.id))
        .limit(window.limit)
        .offset(window.offset),
      this.total(this.db.select({ id: payments.id }).from(payments).where(where)),
    ]);
    return pageOf(
      rows.map((r) => toStaffPayment(r.payment, r.userName, r.invoiceId)),
      total,
      window,
    );
  }

  async payment(id: string): Promise<StaffPayment> {
    const [row] = await this.paymentQuery().where(eq(payments.id, id));
    if (!row) throw notFound('payment');
    return toStaffPayment(row.payment, row.userName, row.invoiceId);
  }

  /** Invoices and credit notes of every user, newest first by default, in the reader's language. */
  async invoices(query: StaffInvoicesQuery, window: Window, lang: Lang): Promise<Page<StaffInvoice>> {
    const sort = parseSort<'issuedAt' | 'number'>(query.sort, { field: 'issuedAt', desc: true });
    const dir = direction(sort.desc);
    // Numbers run in issue order within a year: BH-2026-000001, BH-2026-000002...
    const order = sort.field === 'number' ? [dir(invoices.year), dir(invoices.seq)] : [dir(invoices.issuedAt), dir(invoices.year), dir(invoices.seq)];
    const where = query.userId ? eq(invoices.userId, query.userId) : undefined;
    const [rows, total] = await Promise.all([
      this.db
        .select({ invoice: invoices, userName: users.name })
        .from(invoices)
        .innerJoin(users, eq(users.id, invoices.userId))
        .where(where)
        .orderBy(...order)
        .limit(window.limit)
        .offset(window.offset),
      this.total(this.db.select({ id: invoices.id }).from(invoices).where(where)),
    ]);
    return pageOf(
      rows.map((r) => ({ ...this.d.invoices.view(r.invoice, lang), userId: r.invoice.userId, userName: r.userName })),
      total,
      window,
    );
  }

  /** One invoice with its user, for the back office. */
  async invoice(row: typeof invoices.$inferSelect, lang: Lang): Promise<StaffInvoice> {
    const [user] = await this.db.select({ name: users.name }).from(users).where(eq(users.id, row.userId));
    return { ...this.d.invoices.view(row, lang), userId: row.userId, userName: user?.name ?? '' };
  }

  /**
   * The users whose name, email or Minecraft name starts with `q`, each found through its own
   * index. A user is taken by the first of the three that matches, so the branches never overlap
   * and need no deduplication (UNION ALL).
   */
  private matching(q: string) {
    const pattern = prefixPattern(q);
    const byName = sql`lower(${users.name}) like ${pattern}`;
    const byEmail = sql`lower(${users.email}) like ${pattern}`;
    // Each matching profile's owner looked up on its own, from an index that holds all this reads.
    // LIMIT 1 (an account has one owner anyway) keeps the planner from flattening the lookup into a
    // merge join that walks every user.
    const owner = this.db
      .select({ ...candidateColumns, email: users.email })
      .from(users)
      .where(sql`${users.mcUuid} = ${minecraftProfiles}.uuid`)
      .limit(1)
      .as('owner');
    return unionAll(
      this.db.select(candidateColumns).from(users).where(byName),
      this.db
        .select(candidateColumns)
        .from(users)
        .where(sql`${byEmail} and not ${byName}`),
      this.db
        .select({ id: owner.id, name: owner.name, createdAt: owner.createdAt })
        .from(minecraftProfiles)
        .crossJoinLateral(owner)
        .where(sql`${minecraftProfiles.nameKey} like ${pattern} and not lower(${owner.name}) like ${pattern} and (lower(${owner.email}) like ${pattern}) is not true`),
    );
  }

  private userQuery() {
    return this.db.select(userColumns).from(users).leftJoin(creditAccounts, eq(creditAccounts.userId, users.id)).leftJoin(minecraftProfiles, eq(minecraftProfiles.uuid, users.mcUuid)).$dynamic();
  }

  private paymentQuery() {
    return this.db
      .select({ payment: payments, userName: users.name, invoiceId: invoices.id })
      .from(payments)
      .innerJoin(users, eq(users.id, payments.userId))
      .leftJoin(invoices, and(eq(invoices.paymentId, payments.id), eq(invoices.kind, 'INVOICE')))
      .$dynamic();
  }

  /**
   * How many rows `matches` finds: exact up to EXACT_COUNT_LIMIT (what tests and most filters
   * see); beyond it PostgreSQL's estimate for that query, since counting a million rows exactly
   * takes longer than reading the page. Never less than the limit, whatever the statistics say.
   */
  private async total(matches: SQLWrapper): Promise<number> {
    const [counted] = rowsOf<{ n: number }>(await this.db.execute(sql`select count(*)::int as n from (${matches} limit ${EXACT_COUNT_LIMIT + 1}) as matches`));
    const n = Number(counted?.n ?? 0);
    if (n <= EXACT_COUNT_LIMIT) return n;
    const [explained] = rowsOf<Record<string, unknown>>(await this.db.execute(sql`explain (format json) ${matches}`));
    const cell = Object.values(explained ?? {})[0];
    const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as Array<{ Plan: { 'Plan Rows': number } }>;
    return Math.max(Math.round(plan[0]?.Plan['Plan Rows'] ?? 0), EXACT_COUNT_LIMIT + 1);
  }
}
