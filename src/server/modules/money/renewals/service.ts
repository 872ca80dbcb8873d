import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { games } from '../../../db/schema/games.ts';
import { gamePayments } from '../../../db/schema/renewals.ts';
import { conflict, notFound } from '../../../lib/problems.ts';
import { pageOf, type Window } from '../../../lib/paging.ts';
import type { Game } from '../../../../contract/games.ts';
import type { GamePayment, GamePaymentResult } from '../../../../contract/renewals.ts';
import { toGame } from '../../games/service.ts';
import { RenewalContext, type RenewalDeps, type RenewalOptions } from './context.ts';
import { toGamePayment, type PaymentRow, type PaymentStatus } from './game-payment.ts';
import { DAY_MS } from './context.ts';
import { OfferChanges } from './offer.ts';
import { Retention } from './retention.ts';
import { RenewalScheduler } from './scheduler.ts';
import { Settlement, type PaidGame } from './settlement.ts';

/**
 * Game renewals: each period of a game is a game payment. RENEWAL_NOTICE_DAYS before periodEnd the
 * next one is opened PENDING and the owner told the amount and where to pay; paying it (by hand, or
 * auto-renew from the balance at periodEnd or as soon as credits arrive) moves periodEnd on. Unpaid
 * at periodEnd, the game is stopped cleanly by the reconciler and turns EXPIRED; paying within
 * GAME_RETENTION_DAYS revives it, after which its world is deleted (the owner told a week before).
 *
 * This class holds the owner's calls and starts the work; the rounds are in `scheduler.ts`, paying
 * and expiring in `settlement.ts`, the worlds past their retention in `retention.ts`
 * (docs/architecture.md, Money).
 */
export class RenewalsService {
  private readonly ctx: RenewalContext;
  private readonly retention: Retention;
  private readonly settlement: Settlement;
  private readonly scheduler: RenewalScheduler;
  /** Changing a game's package (`offer.ts`): its quote and the change. */
  readonly offers: OfferChanges;

  constructor(database: Database, deps: RenewalDeps, options: RenewalOptions) {
    this.ctx = new RenewalContext(database, deps, options);
    this.retention = new Retention(this.ctx);
    this.settlement = new Settlement(this.ctx, this.retention);
    this.scheduler = new RenewalScheduler(this.ctx, this.settlement, this.retention);
    this.offers = new OfferChanges(this.ctx);
    // A deleted game is renewed no more: what waited to be paid is canceled with the deletion, nothing paid is refunded.
    deps.events.on('games.deleted', async ({ tx, gameId }) => {
      await tx
        .update(gamePayments)
        .set({ status: 'CANCELED', canceledAt: this.ctx.now })
        .where(and(eq(gamePayments.gameId, gameId), eq(gamePayments.status, 'PENDING')));
    });
  }

  /** Pays waiting renewals as soon as credits arrive (the balance trigger's NOTIFY). */
  listen(): Promise<void> {
    return this.scheduler.listen();
  }

  /** Starts the loop of rounds. */
  start(): void {
    this.scheduler.start();
  }

  /** Stops the loop and the balance listener, and waits for the work in progress. */
  stop(): Promise<void> {
    return this.scheduler.stop();
  }

  /** One round of the scheduled work; tests call it directly. */
  tick(): Promise<void> {
    return this.scheduler.tick();
  }

  /**
   * The owner's PAY: 404 for someone else's payment, 409 when it is not PENDING (already paid, by a
   * concurrent PAY too, or canceled) or its game's world is deleted, 402 when the balance is short
   * (nothing changes). Concurrent PAYs queue on the game's row lock; the first pays, the others
   * then find it PAID and answer 409.
   */
  async pay(ownerId: string, paymentId: string): Promise<GamePaymentResult> {
    const settled = await this.settlement.pay(ownerId, paymentId, false);
    return this.result(settled!.payment, settled!.game);
  }

  /** CANCEL: the renewal is dropped and auto-renew turned off; the game expires at periodEnd. 409 unless PENDING. */
  async cancel(ownerId: string, paymentId: string): Promise<GamePaymentResult> {
    const { ctx } = this;
    const now = ctx.now;
    return ctx.db.transaction(async (tx) => {
      const [ref] = await tx
        .select({ gameId: gamePayments.gameId })
        .from(gamePayments)
        .where(and(eq(gamePayments.id, paymentId), eq(gamePayments.ownerId, ownerId)));
      if (!ref) throw notFound('gamePayment');
      await tx.select({ id: games.id }).from(games).where(eq(games.id, ref.gameId)).for('update');
      const [canceled] = await tx
        .update(gamePayments)
        .set({ status: 'CANCELED', canceledAt: now })
        .where(and(eq(gamePayments.id, paymentId), eq(gamePayments.status, 'PENDING')))
        .returning();
      if (!canceled) {
        const [payment] = await tx.select({ status: gamePayments.status }).from(gamePayments).where(eq(gamePayments.id, paymentId));
        throw conflict('renewals.notPendingToCancel', { status: payment!.status });
      }
      // Auto-renew would otherwise pay it once it is opened again at expiry.
      const [game] = await tx.update(games).set({ autoRenew: false, updatedAt: now }).where(eq(games.id, ref.gameId)).returning();
      await ctx.changed(tx, ownerId, ref.gameId, paymentId);
      return this.result(canceled, game!);
    });
  }

  private result(payment: PaymentRow, game: PaidGame): GamePaymentResult {
    return { payment: toGamePayment(payment, game.name), periodEnd: game.periodEnd.toISOString(), status: game.status };
  }

  /**
   * PATCH autoRenew. Turning it on takes back a cancellation of the next period, and pays at once
   * what waits (a due or expired renewal) if the balance covers it.
   */
  async setAutoRenew(gameId: string, autoRenew: boolean): Promise<Game> {
    const { ctx } = this;
    const now = ctx.now;
    const ownerId = await ctx.db.transaction(async (tx) => {
      const [game] = await tx.update(games).set({ autoRenew, updatedAt: now }).where(eq(games.id, gameId)).returning();
      if (!game) throw notFound('game');
      await ctx.changed(tx, game.ownerId, gameId);
      if (autoRenew && this.retention.revivable(game, now)) {
        await tx
          .update(gamePayments)
          .set({ status: 'PENDING', canceledAt: null })
          .where(and(eq(gamePayments.gameId, game.id), eq(gamePayments.periodStart, game.periodEnd), eq(gamePayments.status, 'CANCELED')));
      }
      return game.ownerId;
    });
    if (autoRenew) await this.settlement.payWaiting(ownerId);
    return ctx.deps.games.get(gameId);
  }

  /**
   * The renewal waiting to be paid of each of these games (at most one per game: the one for the
   * period after periodEnd), read in one query, so a game's page can offer to pay it.
   */
  async pending(gamesOf: Array<{ id: string; name: string }>): Promise<Map<string, GamePayment>> {
    if (!gamesOf.length) return new Map();
    const names = new Map(gamesOf.map((g) => [g.id, g.name]));
    const rows = await this.ctx.db
      .select()
      .from(gamePayments)
      .where(
        and(
          inArray(
            gamePayments.gameId,
            gamesOf.map((g) => g.id),
          ),
          eq(gamePayments.status, 'PENDING'),
        ),
      );
    return new Map(rows.map((row) => [row.gameId, toGamePayment(row, names.get(row.gameId) ?? '')]));
  }

  /**
   * Staff: moves the game's period end `days` later, free, audited with their reason and the owner told. Its renewal already opened (waiting, or
   * canceled by the owner) moves with it, so it stays the one for the next period. An expired game
   * is refused (409): paying its renewal revives it.
   */
  async extend(actorId: string, id: string, days: number, reason: string): Promise<void> {
    const { ctx } = this;
    const now = ctx.now;
    await ctx.db.transaction(async (tx) => {
      const [before] = await tx.select().from(games).where(eq(games.id, id)).for('update');
      if (!before) throw notFound('game');
      if (before.expiredAt || before.worldDeletedAt) throw conflict('games.staffRevive', { status: before.status });
      const shift = days * DAY_MS;
      const periodEnd = new Date(before.periodEnd.getTime() + shift);
      const [after] = await tx.update(games).set({ periodEnd, updatedAt: now }).where(eq(games.id, id)).returning();
      const [renewal] = await tx
        .select()
        .from(gamePayments)
        .where(and(eq(gamePayments.gameId, id), eq(gamePayments.periodStart, before.periodEnd), inArray(gamePayments.status, ['PENDING', 'CANCELED'])));
      if (renewal) {
        await tx
          .update(gamePayments)
          .set({ periodStart: periodEnd, periodEnd: new Date(renewal.periodEnd.getTime() + shift) })
          .where(eq(gamePayments.id, renewal.id));
      }
      await ctx.deps.audit.record(tx, { actorId, action: 'game.extend', entity: 'game', entityId: id, reason, before: toGame(before), after: toGame(after!) });
      await ctx.deps.notifications.changed(
        before.ownerId,
        [
          { resource: 'games', ids: [id], type: 'updated' },
          { resource: 'gamePayments', ids: renewal ? [renewal.id] : [], type: 'updated' },
        ],
        tx,
      );
      await ctx.deps.notifications.notify(
        before.ownerId,
        { key: 'game.extendedByStaff', params: { name: before.name, days, until: periodEnd.toISOString(), reason }, link: `/dashboard/game/${id}` },
        tx,
      );
    });
  }

  /** The owner's game payments, newest first; `paidOnly` keeps the PAID ones (their receipts). */
  async list(ownerId: string, status: PaymentStatus | undefined, window: Window, paidOnly = false) {
    const where = and(eq(gamePayments.ownerId, ownerId), status ? eq(gamePayments.status, status) : undefined, paidOnly ? eq(gamePayments.status, 'PAID') : undefined);
    const [rows, [total]] = await Promise.all([
      this.ctx.db
        .select({ payment: gamePayments, gameName: games.name })
        .from(gamePayments)
        .innerJoin(games, eq(games.id, gamePayments.gameId))
        .where(where)
        .orderBy(desc(gamePayments.createdAt), desc(gamePayments.periodStart), desc(gamePayments.id))
        .limit(window.limit)
        .offset(window.offset),
      this.ctx.db.select({ n: count() }).from(gamePayments).where(where),
    ]);
    return pageOf(
      rows.map((r) => toGamePayment(r.payment, r.gameName)),
      total?.n ?? 0,
      window,
    );
  }
}
