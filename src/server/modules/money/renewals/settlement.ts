import { and, asc, eq, exists, isNull, lte, notInArray, or, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Executor } from '../../../db/client.ts';
import { games } from '../../../db/schema/games.ts';
import { gamePayments } from '../../../db/schema/renewals.ts';
import { conflict, HttpProblem, notFound } from '../../../lib/problems.ts';
import type { GameStatus } from '../../../../contract/values.ts';
import type { GameRow } from '../../games/runtime.ts';
import { BATCH, DAY_MS, PAY_LINK, renewalOf, type RenewalContext } from './context.ts';
import type { PaymentRow } from './game-payment.ts';
import type { Retention } from './retention.ts';

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
export type PaidGame = Pick<GameRow, keyof typeof paidColumns>;
type Settled = { payment: PaymentRow; game: PaidGame; revived: boolean };

/**
 * Due games settled at once, each in its own transaction: on PostgreSQL over as many connections
 * of the pool (renewals due together are paid or expired together); PGlite runs them in turn.
 */
const SETTLING_AT_ONCE = 4;
/** Statuses in which a server may be up: an expiring game goes through STOPPING so the reconciler stops it cleanly. */
const LIVE: readonly GameStatus[] = ['STARTING', 'RUNNING', 'CRASHED', 'STOPPING'];

/** A date as the notices give it: to the minute, in UTC. */
function when(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * Settling a game's renewal: paying a period (by its owner, or by auto-renew at periodEnd or when
 * credits arrive), which revives an expired game still kept, or expiring the game when it stays
 * unpaid at periodEnd; the owner is told either way.
 */
export class Settlement {
  private readonly ctx: RenewalContext;
  private readonly retention: Retention;

  constructor(ctx: RenewalContext, retention: Retention) {
    this.ctx = ctx;
    this.retention = retention;
  }

  /**
   * Games at or past periodEnd whose renewal is unpaid (PENDING, or CANCELED by the owner): with
   * auto-renew and enough credits it is paid; otherwise the game expires. An expiring game whose
   * stop failed (left CRASHED) or that its owner started again is put back on the way to EXPIRED.
   */
  async settleDue(now: Date): Promise<boolean> {
    const { ctx } = this;
    const still = and(
      lte(games.periodEnd, now),
      isNull(games.worldDeletedAt),
      isNull(games.deletedAt),
      or(isNull(games.expiredAt), notInArray(games.status, ['EXPIRED', 'STOPPING'])),
      exists(
        ctx.db
          .select({ id: gamePayments.id })
          .from(gamePayments)
          .where(renewalOf(['PENDING', 'CANCELED'])),
      ),
    );
    const due = await ctx.db.select({ id: games.id }).from(games).where(still).orderBy(asc(games.periodEnd)).limit(BATCH);
    const settled = await ctx.each(
      due.map((g) => g.id),
      'settling a due renewal',
      async (id) => {
        const outcome = await ctx.db.transaction(async (tx) => {
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
        if (outcome === 'stopping') ctx.deps.games.actionAsked(id);
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
    await this.ctx.changed(tx, game.ownerId, game.id, payment.id);
    if (payment.status === 'CANCELED') {
      await tx
        .update(gamePayments)
        .set({ status: 'PENDING', canceledAt: null })
        .where(and(eq(gamePayments.id, payment.id), eq(gamePayments.status, 'CANCELED')));
    }
    if (first) {
      const kept = new Date(expiredAt.getTime() + this.ctx.options.retentionDays * DAY_MS);
      await this.ctx.deps.notifications.notify(game.ownerId, { key: 'renewal.expired', params: { name: game.name, amount: payment.amountCredits, kept: kept.toISOString() }, link: PAY_LINK }, tx);
    }
    return live;
  }

  /**
   * Pays a PENDING renewal in the caller's transaction, the game's row already locked: the ledger
   * debit (short of credits, nothing is written and it answers null), one conditional UPDATE
   * PENDING → PAID (so it is paid once, however many try), and the game's periodEnd moved on.
   * An expired game is revived: its new period starts now (the days it stood expired are not
   * charged), STOPPED, or STARTING when it ran when it expired.
   */
  private async settle(tx: Executor, game: SettlingGame, payment: PaymentRow, now: Date): Promise<Settled | null> {
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
    if (payment.amountCredits > 0 && !(await this.ctx.deps.credits.tryApply(tx, debit))) return null;
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
    if (!row) throw conflict('renewals.paidMeanwhile');
    await this.ctx.changed(tx, game.ownerId, game.id, payment.id);
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

  /** The owner's notice of a renewal paid for them by auto-renew. */
  private async tellPaid(tx: Executor, { payment, game, revived }: Settled): Promise<void> {
    await this.ctx.deps.notifications.notify(
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
   * Pays one payment from its owner's balance: by hand (the owner's PAY, which waits for the game's
   * lock and throws 404, 409 or 402) or `automatic` (auto-renew, which passes a game another replica
   * holds and pays only a due renewal of an auto-renew game, telling the owner).
   */
  async pay(ownerId: string, paymentId: string, automatic: boolean): Promise<Settled | undefined> {
    const { ctx } = this;
    const now = ctx.now;
    const settled = await ctx.db.transaction(async (tx) => {
      const [ref] = await tx
        .select({ gameId: gamePayments.gameId })
        .from(gamePayments)
        .where(and(eq(gamePayments.id, paymentId), eq(gamePayments.ownerId, ownerId)));
      if (!ref) throw notFound('gamePayment');
      // The game's lock first, as the rounds take it: then the payment, then the balance.
      const lock = tx.select().from(games).where(eq(games.id, ref.gameId));
      const [game] = automatic ? await lock.for('update', { skipLocked: true }) : await lock.for('update');
      // Automatic: another replica holds the game and is paying or expiring it.
      if (!game) return undefined;
      // Read after the lock: a PAY that held it before has committed.
      const [payment] = await tx.select().from(gamePayments).where(eq(gamePayments.id, paymentId));
      if (payment!.status !== 'PENDING') {
        const at = payment!.paidAt ?? payment!.canceledAt;
        throw at ? conflict('renewals.notPendingToPaySince', { status: payment!.status, at: at.toISOString() }) : conflict('renewals.notPendingToPay', { status: payment!.status });
      }
      if (payment!.periodStart.getTime() !== game.periodEnd.getTime()) throw conflict('renewals.notNextPeriod');
      if (!this.retention.revivable(game, now)) throw conflict('renewals.worldDeleted', { name: game.name });
      if (automatic && !(game.autoRenew && game.periodEnd <= now)) return undefined;
      const done = await this.settle(tx, game, payment!, now);
      if (!done) throw await ctx.deps.credits.refusal(tx, { userId: game.ownerId, amount: -payment!.amountCredits });
      if (automatic) await this.tellPaid(tx, done);
      return done;
    });
    // A revived game the reconciler starts (or finishes stopping) now rather than at its next round.
    if (settled?.revived) ctx.deps.games.actionAsked(settled.game.id);
    return settled;
  }

  /**
   * Pays, from the balance, the user's PENDING renewals of auto-renew games that are due or expired
   * (and still revivable), oldest first, while the balance covers them. Answers how many it paid.
   */
  async payWaiting(userId: string): Promise<number> {
    const { ctx } = this;
    const now = ctx.now;
    const waiting = await ctx.db
      .select({ id: gamePayments.id })
      .from(gamePayments)
      .innerJoin(games, renewalOf(['PENDING']))
      .where(and(eq(gamePayments.ownerId, userId), eq(games.autoRenew, true), lte(games.periodEnd, now), this.retention.revivableSql(now)))
      .orderBy(asc(gamePayments.periodStart), asc(gamePayments.id));
    let paid = 0;
    for (const { id } of waiting) {
      try {
        if (await this.pay(userId, id, true)) paid++;
      } catch (err) {
        if (err instanceof HttpProblem && err.status === 402) break;
        // Paid, canceled or deleted meanwhile.
        if (err instanceof HttpProblem && err.status === 409) continue;
        throw err;
      }
    }
    return paid;
  }
}
