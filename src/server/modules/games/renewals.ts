import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, exists, gt, inArray, isNull, lt, lte, min, notExists, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Database, Db, Executor, Tx } from '../../db/client.ts';
import { gamePayments, games } from '../../db/schema/games.ts';
import { conflict, HttpProblem, notFound } from '../../lib/problems.ts';
import { pageOf, type Window } from '../../lib/paging.ts';
import type { CatalogueService } from '../catalogue/service.ts';
import { BALANCE_CHANNEL, type CreditsService } from '../credits/service.ts';
import type { NotificationsService } from '../notifications/service.ts';
import type { Game, GamePayment, GamePaymentResult, GameStatus } from '../../../contract/games.ts';
import type { Message } from '../../../contract/messages.ts';
import type { GamesService } from './service.ts';
import { leaseGames, specOf, type GameRow, type GameRuntime } from './runtime.ts';

type PaymentRow = typeof gamePayments.$inferSelect;
type PaymentStatus = PaymentRow['status'];
/** What settling a due game reads of it: a due game is locked a thousand at a time. */
const settlingColumns = {
  id: games.id,
  ownerId: games.ownerId,
  name: games.name,
  status: games.status,
  desiredState: games.desiredState,
  autoRenew: games.autoRenew,
  periodEnd: games.periodEnd,
  expiredAt: games.expiredAt,
  worldDeletedAt: games.worldDeletedAt,
  nextAttemptAt: games.nextAttemptAt,
  runningWhenExpired: games.runningWhenExpired,
};
type SettlingGame = Pick<GameRow, keyof typeof settlingColumns>;
/** What a payer answers and tells of the game it paid for. */
const paidColumns = { id: games.id, ownerId: games.ownerId, name: games.name, status: games.status, periodEnd: games.periodEnd };
type PaidGame = Pick<GameRow, keyof typeof paidColumns>;

export interface RenewalOptions {
  /** The next period is opened (PENDING) and its owner told this many days before periodEnd. */
  noticeDays: number;
  /** An expired game's world is kept this many days for its owner to pay and revive it. */
  retentionDays: number;
  /** Pause between rounds of the loop. */
  intervalMs?: number;
  /** How long a replica keeps a world deletion to itself; longer than the slowest driver `remove`. */
  leaseMs?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** The owner is told this long before an expired game's world is deleted, whatever happened before. */
const DELETION_NOTICE_MS = 7 * DAY_MS;
/** How many games one step of a round takes; the rest wait for the next round. */
const BATCH = 100;
/**
 * Due games settled at once, each in its own transaction: on PostgreSQL over as many connections
 * of the pool (renewals due together are paid or expired together); PGlite runs them in turn.
 */
const SETTLING_AT_ONCE = 4;
/** The account page lists the pending game payments, each with its Pay button. */
const PAY_LINK = '/dashboard/account';
/** Statuses in which a server may be up: an expiring game goes through STOPPING so the reconciler stops it cleanly. */
const LIVE: readonly GameStatus[] = ['STARTING', 'RUNNING', 'CRASHED', 'STOPPING'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function toGamePayment(row: PaymentRow, gameName: string): GamePayment {
  return {
    id: row.id,
    gameId: row.gameId,
    gameName,
    status: row.status,
    amountCredits: row.amountCredits,
    periodStart: row.periodStart.toISOString(),
    periodEnd: row.periodEnd.toISOString(),
    promoCode: row.promoCode,
    paidAt: row.paidAt?.toISOString() ?? null,
    canceledAt: row.canceledAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A date as the notices give it: to the minute, in UTC. */
function when(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The payment for the period after the game's current one: its renewal (at most one per game). */
const renewalOf = (status?: PaymentStatus[]) => and(eq(gamePayments.gameId, games.id), eq(gamePayments.periodStart, games.periodEnd), status ? inArray(gamePayments.status, status) : undefined);

/**
 * Game renewals: each period of a game is a game payment. RENEWAL_NOTICE_DAYS before periodEnd the
 * next one is opened PENDING and the owner told the amount and where to pay; paying it (by hand, or
 * auto-renew from the balance at periodEnd or as soon as credits arrive) moves periodEnd on. Unpaid
 * at periodEnd, the game is stopped cleanly by the reconciler and turns EXPIRED; paying within
 * GAME_RETENTION_DAYS revives it, after which its world is deleted (the owner told a week before).
 *
 * Everything is derived from the database at each round, so it survives restarts; each game is
 * worked on under its row lock taken with SKIP LOCKED, and every change re-checks the condition
 * that selected it, so replicas never do the same work twice.
 */
export class RenewalsService {
  private readonly database: Database;
  private readonly db: Db;
  private readonly catalogue: CatalogueService;
  private readonly credits: CreditsService;
  private readonly notifications: NotificationsService;
  private readonly games: GamesService;
  private readonly runtime: GameRuntime;
  private readonly options: Required<RenewalOptions>;
  private readonly replica = randomUUID();
  /** The round in progress; it answers how long until the next one should run. */
  private round: Promise<number> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private looping = false;
  private stopped = false;
  private unlisten: (() => Promise<void>) | undefined;
  /** Users whose waiting renewals are being paid now, and whether credits arrived again meanwhile. */
  private readonly paying = new Map<string, { again: boolean }>();
  /** Users whose balance changed while due games were being settled: their turn comes after. */
  private readonly deferred = new Set<string>();
  private settling = false;
  /** When a round last went through all its steps (`performance.now()`). */
  private lastSweep = -Infinity;
  /** Work started by balance notices, awaited by `stop`. */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    database: Database,
    deps: { catalogue: CatalogueService; credits: CreditsService; notifications: NotificationsService; games: GamesService; runtime: GameRuntime },
    options: RenewalOptions,
  ) {
    this.database = database;
    this.db = database.db;
    this.catalogue = deps.catalogue;
    this.credits = deps.credits;
    this.notifications = deps.notifications;
    this.games = deps.games;
    this.runtime = deps.runtime;
    this.options = { intervalMs: 60_000, leaseMs: 5 * 60_000, ...options };
  }

  private get now(): Date {
    return this.runtime.clock();
  }

  /**
   * Pays waiting renewals as soon as credits arrive: the credit_accounts trigger NOTIFYs the user
   * id at the commit of every balance change, on every replica, whichever module or replica wrote
   * it. All replicas react; the row locks and conditional writes let only one pay. Notices lost
   * while the LISTEN connection was down are made up at once, and by every round anyway.
   */
  async listen(): Promise<void> {
    this.stopped = false;
    this.unlisten ??= await this.database.listen(
      BALANCE_CHANNEL,
      (userId) => {
        if (UUID.test(userId)) this.kick(userId);
      },
      { onReconnect: () => this.track(this.payAllWaiting(this.now)) },
    );
  }

  /**
   * Starts the loop: a round now, then the next at once while a batch came back full, else when
   * the next game's renewal opens or falls due, and at least every `intervalMs`.
   */
  start(): void {
    this.looping = true;
    this.schedule(0);
  }

  /** Stops the loop and the balance listener, and waits for the work in progress. */
  async stop(): Promise<void> {
    this.looping = false;
    this.stopped = true;
    clearTimeout(this.timer);
    await this.unlisten?.();
    this.unlisten = undefined;
    await this.round;
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    const timer = setTimeout(() => {
      void this.runRound().then((next) => {
        // A later start() owns the loop from then on.
        if (this.looping && this.timer === timer) this.schedule(next);
      });
    }, ms);
    this.timer = timer;
  }

  /** One round of the scheduled work; tests call it directly. */
  async tick(): Promise<void> {
    await this.runRound();
  }

  private runRound(): Promise<number> {
    this.round ??= this.roundOnce()
      .catch((err: unknown) => {
        this.runtime.log.error({ err }, 'renewals round failed');
        return this.options.intervalMs;
      })
      .finally(() => (this.round = undefined));
    return this.round;
  }

  /** Answers how long to wait before the next round. */
  private async roundOnce(): Promise<number> {
    const now = this.now;
    // A full batch that moved leaves more to do: the next round comes at once.
    let more = await this.openRenewals(now);
    // The balance notices of the round's own debits (most of them then) could only find nothing to
    // pay, or race the round for the same games: they wait for the step's end.
    this.settling = true;
    try {
      more = (await this.settleDue(now)) || more;
    } finally {
      this.settling = false;
      for (const userId of this.deferred) this.kick(userId);
      this.deferred.clear();
    }
    // The rest can wait while renewals fall due by the hundred (not longer than an interval): it
    // would go over every owner waiting for credits, and every expired world, at each batch.
    if (more && performance.now() - this.lastSweep < this.options.intervalMs) return 0;
    this.lastSweep = performance.now();
    await this.payAllWaiting(now);
    more = (await this.warnDeletions(now)) || more;
    await this.deleteWorlds(now);
    return more ? 0 : this.untilNextDue(now);
  }

  /**
   * How long until the next game's renewal opens or falls due, at most `intervalMs`: a renewal is
   * paid or its game expired at its periodEnd, not up to a whole interval after it.
   */
  private async untilNextDue(now: Date): Promise<number> {
    const notice = this.options.noticeDays * DAY_MS;
    const [next] = await this.db
      .select({
        due: sql`min(${games.periodEnd}) filter (where ${gt(games.periodEnd, now)})`.mapWith(games.periodEnd),
        opening: sql`min(${games.periodEnd}) filter (where ${gt(games.periodEnd, new Date(now.getTime() + notice))})`.mapWith(games.periodEnd),
      })
      .from(games)
      .where(and(isNull(games.expiredAt), isNull(games.worldDeletedAt)));
    const at = Math.min(next?.due?.getTime() ?? Infinity, (next?.opening?.getTime() ?? Infinity) - notice);
    return Math.max(0, Math.min(this.options.intervalMs, at - now.getTime()));
  }

  /**
   * Runs `work` on each game, `concurrency` at a time, one failure not stopping the others;
   * answers how many it worked on.
   */
  private async each(ids: string[], what: string, work: (id: string) => Promise<boolean>, concurrency = 1): Promise<number> {
    let done = 0;
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const id = ids[next++]!;
        try {
          if (await work(id)) done++;
        } catch (err) {
          this.runtime.log.error({ err, gameId: id }, `${what} failed`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, worker));
    return done;
  }

  /**
   * `work` on the game under its row lock, in one transaction; nothing when another replica (or an
   * owner's payment) holds the lock, or when `still` no longer holds for it.
   */
  private locked<T>(id: string, still: SQL | undefined, work: (tx: Tx, game: GameRow) => Promise<T>): Promise<T | undefined> {
    return this.db.transaction(async (tx) => {
      const [game] = await tx
        .select()
        .from(games)
        .where(and(eq(games.id, id), still))
        .for('update', { skipLocked: true });
      return game ? work(tx, game) : undefined;
    });
  }

  /** An expired game's world is kept: not yet both past the retention and a week past the deletion notice. */
  private revivable(game: GameRow, now: Date): boolean {
    if (game.worldDeletedAt) return false;
    if (!game.expiredAt || !game.deletionNoticeAt) return true;
    return game.expiredAt.getTime() + this.options.retentionDays * DAY_MS > now.getTime() || game.deletionNoticeAt.getTime() + DELETION_NOTICE_MS > now.getTime();
  }

  /** `revivable` as SQL, for the lists of games to work on. */
  private revivableSql(now: Date): SQL {
    return and(
      isNull(games.worldDeletedAt),
      or(
        isNull(games.expiredAt),
        isNull(games.deletionNoticeAt),
        gt(games.expiredAt, new Date(now.getTime() - this.options.retentionDays * DAY_MS)),
        gt(games.deletionNoticeAt, new Date(now.getTime() - DELETION_NOTICE_MS)),
      ),
    )!;
  }

  /** When an expired game's world will be deleted, as promised to its owner. */
  private deletionDate(game: GameRow, now: Date): Date {
    const retentionEnd = (game.expiredAt ?? now).getTime() + this.options.retentionDays * DAY_MS;
    return new Date(Math.max(retentionEnd, (game.deletionNoticeAt ?? now).getTime() + DELETION_NOTICE_MS));
  }

  // --- The scheduled work ---------------------------------------------------------------------

  /**
   * Games within RENEWAL_NOTICE_DAYS of their periodEnd with no payment for the next period yet get
   * it, PENDING at the package's price now, and their owner a notice with the amount, the date and
   * where to pay. The unique (game, periodStart) index keeps it to one even past the row lock.
   */
  private async openRenewals(now: Date): Promise<boolean> {
    const still = and(
      isNull(games.expiredAt),
      lte(games.periodEnd, new Date(now.getTime() + this.options.noticeDays * DAY_MS)),
      notExists(this.db.select({ id: gamePayments.id }).from(gamePayments).where(renewalOf())),
    );
    const due = await this.db.select({ id: games.id, definitionId: games.definitionId, packageId: games.packageId }).from(games).where(still).orderBy(asc(games.periodEnd)).limit(BATCH);
    const packages = new Map<string, { priceCredits: number; periodDays: number }>();
    const opened = await this.each(
      due.map((g) => g.id),
      'opening a renewal',
      async (id) => {
        const { definitionId, packageId } = due.find((g) => g.id === id)!;
        // Read before the transaction: on PGlite a query outside it would wait for it to end.
        if (!packages.has(packageId)) {
          const definition = await this.catalogue.get(definitionId, true);
          for (const p of definition.packages) packages.set(p.id, p);
        }
        const pkg = packages.get(packageId);
        // Packages in use cannot be deleted (restrict): a game without one is no game of ours.
        if (!pkg) return false;
        const worked = await this.locked(id, still, async (tx, game) => {
          const periodEnd = new Date(game.periodEnd.getTime() + pkg.periodDays * DAY_MS);
          const [payment] = await tx
            .insert(gamePayments)
            .values({ gameId: game.id, ownerId: game.ownerId, status: 'PENDING', amountCredits: pkg.priceCredits, periodStart: game.periodEnd, periodEnd, createdAt: now })
            .onConflictDoNothing()
            .returning();
          if (!payment) return true;
          await this.changed(tx, game.ownerId, game.id, payment.id);
          await this.notifications.notify(
            game.ownerId,
            {
              key: game.autoRenew ? 'renewal.dueAutoRenew' : 'renewal.due',
              params: { name: game.name, amount: payment.amountCredits, due: game.periodEnd.toISOString(), days: pkg.periodDays },
              link: PAY_LINK,
            },
            tx,
          );
          return true;
        });
        return worked === true;
      },
    );
    return due.length === BATCH && opened > 0;
  }

  /**
   * Games at or past periodEnd whose renewal is unpaid (PENDING, or CANCELED by the owner): with
   * auto-renew and enough credits it is paid; otherwise the game expires. An expiring game whose
   * stop failed (left CRASHED) or that its owner started again is put back on the way to EXPIRED.
   */
  private async settleDue(now: Date): Promise<boolean> {
    const still = and(
      lte(games.periodEnd, now),
      isNull(games.worldDeletedAt),
      or(isNull(games.expiredAt), notInArray(games.status, ['EXPIRED', 'STOPPING'])),
      exists(
        this.db
          .select({ id: gamePayments.id })
          .from(gamePayments)
          .where(renewalOf(['PENDING', 'CANCELED'])),
      ),
    );
    const due = await this.db.select({ id: games.id }).from(games).where(still).orderBy(asc(games.periodEnd)).limit(BATCH);
    const settled = await this.each(
      due.map((g) => g.id),
      'settling a due renewal',
      async (id) => {
        const outcome = await this.db.transaction(async (tx) => {
          // The game and its renewal under their row locks, in one statement; both rows read as
          // they are now, so `still` is checked on them here rather than built into each lock.
          const [locked] = await tx
            .select({ game: settlingColumns, payment: gamePayments })
            .from(games)
            .innerJoin(gamePayments, renewalOf())
            .where(eq(games.id, id))
            .for('update', { of: [games, gamePayments], skipLocked: true });
          if (!locked || !this.dueNow(locked.game, locked.payment, now)) return undefined;
          const { game, payment } = locked;
          if (payment.status === 'PENDING' && !game.expiredAt && (game.autoRenew || payment.amountCredits === 0)) {
            // Short of credits, `settle` has written nothing: the game expires instead.
            const paid = await this.settle(tx, game, payment, now);
            if (paid) {
              await this.tellPaid(tx, paid);
              return 'paid';
            }
          }
          return (await this.expire(tx, game, payment, now)) ? 'stopping' : 'expired';
        });
        // The reconciler stops it now rather than at its next round.
        if (outcome === 'stopping') this.games.onAction(id);
        return outcome !== undefined;
      },
      SETTLING_AT_ONCE,
    );
    return due.length === BATCH && settled > 0;
  }

  /** `settleDue`'s `still`, for a game and its renewal locked. */
  private dueNow(game: SettlingGame, payment: PaymentRow, now: Date): boolean {
    return (
      game.periodEnd <= now &&
      game.worldDeletedAt === null &&
      (game.expiredAt === null || (game.status !== 'EXPIRED' && game.status !== 'STOPPING')) &&
      (payment.status === 'PENDING' || payment.status === 'CANCELED')
    );
  }

  /**
   * The game expires: it is asked to stop (a running one goes through STOPPING, so the reconciler
   * stops it through the driver, world saved, and only then writes EXPIRED), remembering whether
   * it ran so paying starts it again. A renewal the owner had canceled is opened again, so the
   * notice's pay link works while the world is kept. Answers whether a server may be up.
   */
  private async expire(tx: Executor, game: SettlingGame, payment: PaymentRow, now: Date): Promise<boolean> {
    const first = game.expiredAt === null;
    // A crash the reconciler gave up on was not running.
    const runningWhenExpired = first ? game.desiredState === 'running' && (game.status !== 'CRASHED' || game.nextAttemptAt !== null) : game.runningWhenExpired;
    const live = LIVE.includes(game.status);
    const expiredAt = game.expiredAt ?? now;
    await tx
      .update(games)
      .set({
        desiredState: 'stopped',
        status: live ? 'STOPPING' : 'EXPIRED',
        statusReason: `Renewal of ${payment.amountCredits} credits unpaid at ${when(game.periodEnd)}`,
        statusChangedAt: now,
        launchedAt: null,
        nextAttemptAt: null,
        expiredAt,
        runningWhenExpired,
        stateVersion: sql`${games.stateVersion} + 1`,
        updatedAt: now,
      })
      .where(eq(games.id, game.id));
    await this.changed(tx, game.ownerId, game.id, payment.id);
    if (payment.status === 'CANCELED') {
      await tx
        .update(gamePayments)
        .set({ status: 'PENDING', canceledAt: null })
        .where(and(eq(gamePayments.id, payment.id), eq(gamePayments.status, 'CANCELED')));
    }
    if (first) {
      const kept = new Date(expiredAt.getTime() + this.options.retentionDays * DAY_MS);
      await this.notifications.notify(game.ownerId, { key: 'renewal.expired', params: { name: game.name, amount: payment.amountCredits, kept: kept.toISOString() }, link: PAY_LINK }, tx);
    }
    return live;
  }

  /**
   * Owners whose auto-renew games wait for a renewal (due, or expired and still revivable) and
   * whose balance now covers it: credits that came while no notice could be heard.
   */
  private async payAllWaiting(now: Date): Promise<void> {
    const owners = await this.db
      .select({ ownerId: gamePayments.ownerId, least: sql<number>`min(${gamePayments.amountCredits})`.mapWith(Number) })
      .from(gamePayments)
      .innerJoin(games, renewalOf(['PENDING']))
      .where(and(eq(games.autoRenew, true), lte(games.periodEnd, now), this.revivableSql(now)))
      .groupBy(gamePayments.ownerId);
    for (const { ownerId, least } of owners) {
      try {
        // Balances are cached and kept true by the same notices: most owners are still short.
        if ((await this.credits.balance(ownerId)) >= least) await this.payWaiting(ownerId);
      } catch (err) {
        this.runtime.log.error({ err, userId: ownerId }, 'paying waiting renewals failed');
      }
    }
  }

  /** A week (at least) before an expired game's world is deleted, its owner is told when, and what to pay to keep it. */
  private async warnDeletions(now: Date): Promise<boolean> {
    const still = and(
      eq(games.status, 'EXPIRED'),
      isNull(games.worldDeletedAt),
      isNull(games.deletionNoticeAt),
      lte(games.expiredAt, new Date(now.getTime() - this.options.retentionDays * DAY_MS + DELETION_NOTICE_MS)),
    );
    const due = await this.db.select({ id: games.id }).from(games).where(still).limit(BATCH);
    const warned = await this.each(
      due.map((g) => g.id),
      'warning of a deletion',
      async (id) => {
        const worked = await this.locked(id, still, async (tx, game) => {
          const [noticed] = await tx.update(games).set({ deletionNoticeAt: now, updatedAt: now }).where(eq(games.id, game.id)).returning();
          const date = this.deletionDate(noticed!, now).toISOString();
          const [pending] = await tx
            .select()
            .from(gamePayments)
            .where(and(eq(gamePayments.gameId, game.id), eq(gamePayments.periodStart, game.periodEnd), eq(gamePayments.status, 'PENDING')));
          const notice: Message = pending
            ? { key: 'renewal.deletionWarningPay', params: { name: game.name, date, amount: pending.amountCredits } }
            : { key: 'renewal.deletionWarning', params: { name: game.name, date } };
          await this.notifications.notify(game.ownerId, { ...notice, link: PAY_LINK }, tx);
          return true;
        });
        return worked === true;
      },
    );
    return due.length === BATCH && warned > 0;
  }

  /**
   * Past the retention and a week past the notice, the world is deleted through the driver. The
   * driver call is outside any transaction: the game is leased first (the reconciler never leases
   * an EXPIRED game), so replicas do not both delete it, and a replica that dies meanwhile leaves
   * a lease that runs out and another deletes it again (deleting is idempotent). Its renewal is
   * canceled: nothing can revive the game any more.
   */
  private async deleteWorlds(now: Date): Promise<void> {
    const due = this.db
      .select({ id: games.id })
      .from(games)
      .where(
        and(
          eq(games.status, 'EXPIRED'),
          isNull(games.worldDeletedAt),
          lte(games.expiredAt, new Date(now.getTime() - this.options.retentionDays * DAY_MS)),
          lte(games.deletionNoticeAt, new Date(now.getTime() - DELETION_NOTICE_MS)),
          or(isNull(games.leaseUntil), lt(games.leaseUntil, now)),
        ),
      )
      .limit(BATCH)
      .for('update', { skipLocked: true });
    const leased = await leaseGames(this.db, due, this.replica, new Date(now.getTime() + this.options.leaseMs));
    for (const game of leased) {
      const mine = and(eq(games.id, game.id), eq(games.leaseOwner, this.replica));
      try {
        await this.runtime.driver.remove(await specOf(this.db, game));
        await this.db.transaction(async (tx) => {
          const [deleted] = await tx.update(games).set({ worldDeletedAt: this.now, leaseOwner: null, leaseUntil: null, updatedAt: this.now }).where(mine).returning({ id: games.id });
          if (!deleted) return;
          await this.changed(tx, game.ownerId, game.id);
          await tx
            .update(gamePayments)
            .set({ status: 'CANCELED', canceledAt: this.now })
            .where(and(eq(gamePayments.gameId, game.id), eq(gamePayments.status, 'PENDING')));
        });
      } catch (err) {
        this.runtime.log.error({ err, gameId: game.id }, 'deleting an expired world failed; the next round tries again');
        await this.db.update(games).set({ leaseOwner: null, leaseUntil: null }).where(mine);
      }
    }
  }

  // --- Paying ---------------------------------------------------------------------------------

  /**
   * Pays a PENDING renewal in the caller's transaction, the game's row already locked: the ledger
   * debit (short of credits, nothing is written and it answers null), one conditional UPDATE
   * PENDING → PAID (so it is paid once, however many try), and the game's periodEnd moved on.
   * An expired game is revived: its new period starts now (the days it stood expired are not
   * charged), STOPPED, or STARTING when it ran when it expired.
   */
  private async settle(tx: Executor, game: SettlingGame, payment: PaymentRow, now: Date): Promise<{ payment: PaymentRow; game: PaidGame; revived: boolean } | null> {
    const revive = game.expiredAt !== null;
    const length = payment.periodEnd.getTime() - payment.periodStart.getTime();
    const periodStart = revive ? now : payment.periodStart;
    const periodEnd = revive ? new Date(now.getTime() + length) : payment.periodEnd;
    // The debit first: refused, it has written nothing, so a round can expire the game instead.
    const debit = {
      userId: game.ownerId,
      amount: -payment.amountCredits,
      kind: 'GAME_RENEWAL' as const,
      reason: { key: 'gameRenewal', params: { name: game.name, days: Math.round(length / DAY_MS), until: periodEnd.toISOString() } },
      refType: 'game',
      refId: game.id,
    };
    if (payment.amountCredits > 0 && !(await this.credits.tryApply(tx, debit))) return null;
    // One statement marks it PAID, only if PENDING still, and moves the game's period on.
    const paid = tx.$with('paid').as(
      tx
        .update(gamePayments)
        .set({ status: 'PAID', paidAt: now, periodStart, periodEnd })
        .where(and(eq(gamePayments.id, payment.id), eq(gamePayments.status, 'PENDING')))
        .returning({ id: gamePayments.id }),
    );
    const [row] = await tx
      .with(paid)
      .update(games)
      .set({ periodEnd, updatedAt: now, ...(revive ? this.revival(game, now) : {}) })
      .where(and(eq(games.id, game.id), exists(tx.select().from(paid))))
      .returning(paidColumns);
    // Every payer holds the game's lock, so it is PENDING still; were it not, the throw undoes the debit.
    if (!row) throw conflict('This payment was paid or canceled meanwhile');
    await this.changed(tx, game.ownerId, game.id, payment.id);
    return { payment: { ...payment, status: 'PAID', paidAt: now, periodStart, periodEnd }, game: row, revived: revive };
  }

  /** What reviving an expired (or still expiring) game writes. */
  private revival(game: SettlingGame, now: Date): PgUpdateSetSource<typeof games> {
    const desiredState = game.runningWhenExpired ? ('running' as const) : ('stopped' as const);
    const base = { desiredState, expiredAt: null, runningWhenExpired: false, deletionNoticeAt: null, statusReason: null, nextAttemptAt: null, stateVersion: sql`${games.stateVersion} + 1` };
    if (game.status === 'EXPIRED') {
      return { ...base, status: game.runningWhenExpired ? 'STARTING' : 'STOPPED', statusChangedAt: now, launchedAt: null, crashRestarts: [] };
    }
    // Still on its way to EXPIRED: the reconciler finishes the stop, then starts it again if wanted.
    return { ...base, ...(game.status === 'CRASHED' ? { status: 'STOPPING' as const, statusChangedAt: now, launchedAt: null } : {}) };
  }

  /** Tells the owner's open pages, at commit, that the game and its renewals changed. */
  private changed(tx: Executor, ownerId: string, gameId: string, paymentId?: string): Promise<void> {
    return this.notifications.changed(
      ownerId,
      [
        { resource: 'games', ids: [gameId], type: 'updated' },
        { resource: 'gamePayments', ids: paymentId ? [paymentId] : [], type: 'updated' },
      ],
      tx,
    );
  }

  /** The owner's notice of a renewal paid for them by auto-renew. */
  private async tellPaid(tx: Executor, { payment, game, revived }: { payment: PaymentRow; game: PaidGame; revived: boolean }): Promise<void> {
    await this.notifications.notify(
      game.ownerId,
      {
        key: revived ? 'renewal.paidRevived' : 'renewal.paid',
        params: { name: game.name, amount: payment.amountCredits, until: payment.periodEnd.toISOString() },
        link: `/dashboard/game/${game.id}`,
      },
      tx,
    );
  }

  /**
   * The owner's PAY: 404 for someone else's payment, 409 when it is not PENDING (already paid, by a
   * concurrent PAY too, or canceled) or its game's world is deleted, 402 when the balance is short
   * (nothing changes). Concurrent PAYs queue on the game's row lock; the first pays, the others
   * then find it PAID and answer 409.
   */
  async pay(ownerId: string, paymentId: string): Promise<GamePaymentResult> {
    const settled = await this.paySettled(ownerId, paymentId, false);
    return this.result(settled!.payment, settled!.game);
  }

  private async paySettled(ownerId: string, paymentId: string, automatic: boolean) {
    const now = this.now;
    const settled = await this.db.transaction(async (tx) => {
      const [ref] = await tx
        .select({ gameId: gamePayments.gameId })
        .from(gamePayments)
        .where(and(eq(gamePayments.id, paymentId), eq(gamePayments.ownerId, ownerId)));
      if (!ref) throw notFound('Game payment');
      // The game's lock first, as the rounds take it: then the payment, then the balance.
      const lock = tx.select().from(games).where(eq(games.id, ref.gameId));
      const [game] = automatic ? await lock.for('update', { skipLocked: true }) : await lock.for('update');
      // Automatic: another replica holds the game and is paying or expiring it.
      if (!game) return undefined;
      // Read after the lock: a PAY that held it before has committed.
      const [payment] = await tx.select().from(gamePayments).where(eq(gamePayments.id, paymentId));
      if (payment!.status !== 'PENDING') {
        const at = payment!.paidAt ?? payment!.canceledAt;
        throw conflict(`This payment is ${payment!.status}${at ? ` since ${at.toISOString()}` : ''}: only a PENDING payment can be paid`);
      }
      if (payment!.periodStart.getTime() !== game.periodEnd.getTime()) throw conflict("This payment is not for the game's next period");
      if (!this.revivable(game, now)) throw conflict(`The world of "${game.name}" was deleted after it expired: it can no longer be renewed`);
      if (automatic && !(game.autoRenew && game.periodEnd <= now)) return undefined;
      const done = await this.settle(tx, game, payment!, now);
      if (!done) throw await this.credits.refusal(tx, { userId: game.ownerId, amount: -payment!.amountCredits });
      if (automatic) await this.tellPaid(tx, done);
      return done;
    });
    // A revived game the reconciler starts (or finishes stopping) now rather than at its next round.
    if (settled?.revived) this.games.onAction(settled.game.id);
    return settled;
  }

  /** CANCEL: the renewal is dropped and auto-renew turned off; the game expires at periodEnd. 409 unless PENDING. */
  async cancel(ownerId: string, paymentId: string): Promise<GamePaymentResult> {
    const now = this.now;
    return this.db.transaction(async (tx) => {
      const [ref] = await tx
        .select({ gameId: gamePayments.gameId })
        .from(gamePayments)
        .where(and(eq(gamePayments.id, paymentId), eq(gamePayments.ownerId, ownerId)));
      if (!ref) throw notFound('Game payment');
      await tx.select({ id: games.id }).from(games).where(eq(games.id, ref.gameId)).for('update');
      const [canceled] = await tx
        .update(gamePayments)
        .set({ status: 'CANCELED', canceledAt: now })
        .where(and(eq(gamePayments.id, paymentId), eq(gamePayments.status, 'PENDING')))
        .returning();
      if (!canceled) {
        const [payment] = await tx.select({ status: gamePayments.status }).from(gamePayments).where(eq(gamePayments.id, paymentId));
        throw conflict(`This payment is ${payment!.status}: only a PENDING payment can be canceled`);
      }
      // Auto-renew would otherwise pay it once it is opened again at expiry.
      const [game] = await tx.update(games).set({ autoRenew: false, updatedAt: now }).where(eq(games.id, ref.gameId)).returning();
      await this.changed(tx, ownerId, ref.gameId, paymentId);
      return this.result(canceled, game!);
    });
  }

  private result(payment: PaymentRow, game: PaidGame): GamePaymentResult {
    return { payment: toGamePayment(payment, game.name), periodEnd: game.periodEnd.toISOString(), status: game.status };
  }

  /**
   * Pays, from the balance, the user's PENDING renewals of auto-renew games that are due or expired
   * (and still revivable), oldest first, while the balance covers them. Answers how many it paid.
   */
  async payWaiting(userId: string): Promise<number> {
    const now = this.now;
    const waiting = await this.db
      .select({ id: gamePayments.id })
      .from(gamePayments)
      .innerJoin(games, renewalOf(['PENDING']))
      .where(and(eq(gamePayments.ownerId, userId), eq(games.autoRenew, true), lte(games.periodEnd, now), this.revivableSql(now)))
      .orderBy(asc(gamePayments.periodStart), asc(gamePayments.id));
    let paid = 0;
    for (const { id } of waiting) {
      try {
        if (await this.paySettled(userId, id, true)) paid++;
      } catch (err) {
        if (err instanceof HttpProblem && err.status === 402) break;
        // Paid, canceled or deleted meanwhile.
        if (err instanceof HttpProblem && err.status === 409) continue;
        throw err;
      }
    }
    return paid;
  }

  /**
   * The smallest of the user's PENDING game payments already due (a renewal's period starts at its
   * game's periodEnd), if any. Every balance change asks; most users have none, or fewer credits
   * than it (a debit's own notice), so this indexed look and their cached balance spare them
   * `payWaiting`'s join, which would pay nothing.
   */
  private async leastDue(userId: string): Promise<number | null> {
    const [row] = await this.db
      .select({ least: min(gamePayments.amountCredits) })
      .from(gamePayments)
      .where(and(eq(gamePayments.ownerId, userId), eq(gamePayments.status, 'PENDING'), lte(gamePayments.periodStart, this.now)));
    return row?.least ?? null;
  }

  /** One run of `payWaiting` per user at a time; credits arriving meanwhile ask for one more. */
  private kick(userId: string): void {
    if (this.stopped) return;
    if (this.settling) {
      this.deferred.add(userId);
      return;
    }
    const running = this.paying.get(userId);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false };
    this.paying.set(userId, state);
    const run = async () => {
      try {
        do {
          state.again = false;
          const least = await this.leastDue(userId);
          if (least !== null && (await this.credits.balance(userId)) >= least) await this.payWaiting(userId);
        } while (state.again && !this.stopped);
      } finally {
        this.paying.delete(userId);
      }
    };
    this.track(run());
  }

  private track(work: Promise<unknown>): void {
    const tracked: Promise<unknown> = work.catch((err: unknown) => this.runtime.log.error({ err }, 'paying waiting renewals failed')).finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  /**
   * PATCH autoRenew. Turning it on takes back a cancellation of the next period, and pays at once
   * what waits (a due or expired renewal) if the balance covers it.
   */
  async setAutoRenew(ownerId: string, gameId: string, autoRenew: boolean): Promise<Game> {
    const now = this.now;
    await this.db.transaction(async (tx) => {
      const [game] = await tx
        .update(games)
        .set({ autoRenew, updatedAt: now })
        .where(and(eq(games.id, gameId), eq(games.ownerId, ownerId)))
        .returning();
      if (!game) throw notFound('Game');
      await this.changed(tx, ownerId, gameId);
      if (autoRenew && this.revivable(game, now)) {
        await tx
          .update(gamePayments)
          .set({ status: 'PENDING', canceledAt: null })
          .where(and(eq(gamePayments.gameId, game.id), eq(gamePayments.periodStart, game.periodEnd), eq(gamePayments.status, 'CANCELED')));
      }
    });
    if (autoRenew) await this.payWaiting(ownerId);
    return this.games.get(ownerId, gameId);
  }

  /** The owner's game payments, newest first; `paidOnly` keeps the PAID ones (their receipts). */
  async list(ownerId: string, status: PaymentStatus | undefined, window: Window, paidOnly = false) {
    const where = and(eq(gamePayments.ownerId, ownerId), status ? eq(gamePayments.status, status) : undefined, paidOnly ? eq(gamePayments.status, 'PAID') : undefined);
    const [rows, [total]] = await Promise.all([
      this.db
        .select({ payment: gamePayments, gameName: games.name })
        .from(gamePayments)
        .innerJoin(games, eq(games.id, gamePayments.gameId))
        .where(where)
        .orderBy(desc(gamePayments.createdAt), desc(gamePayments.periodStart), desc(gamePayments.id))
        .limit(window.limit)
        .offset(window.offset),
      this.db.select({ n: count() }).from(gamePayments).where(where),
    ]);
    return pageOf(
      rows.map((r) => toGamePayment(r.payment, r.gameName)),
      total?.n ?? 0,
      window,
    );
  }
}
