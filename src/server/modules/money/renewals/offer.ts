import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { games } from '../../../db/schema/games.ts';
import { gamePayments } from '../../../db/schema/renewals.ts';
import { conflict, HttpProblem, invalidField, paymentRequired } from '../../../lib/problems.ts';
import type { GamePackage } from '../../../../contract/catalogue.ts';
import type { Locale } from '../../../../contract/messages.ts';
import type { OfferChange, OfferOption, OfferQuote, OfferResult } from '../../../../contract/offer.ts';
import { toGame } from '../../games/service.ts';
import type { GameRow } from '../../games/runtime.ts';
import { DAY_MS, type RenewalContext } from './context.ts';

/** What the days left of a period cost or give back when a game moves from one package to another. */
interface Proration {
  days: number;
  /** Charged when positive, credited back when negative. */
  amount: number;
}

type Prices = Pick<GamePackage, 'priceCredits' | 'periodDays'>;

/**
 * The difference between two packages' prices for the days left until `periodEnd` (docs/architecture.md,
 * "Changing the offer"): a day begun counts whole, each package's price is spread evenly over its
 * period's days, and the amount is rounded to the nearest credit, a half away from zero, computed
 * on integers so no float decides a credit. Up then down on the same day gives back what was charged.
 */
export function prorate(from: Prices, to: Prices, periodEnd: Date, now: Date): Proration {
  const days = Math.max(0, Math.ceil((periodEnd.getTime() - now.getTime()) / DAY_MS));
  const perDays = from.periodDays * to.periodDays;
  const delta = (to.priceCredits * from.periodDays - from.priceCredits * to.periodDays) * days;
  const magnitude = Math.floor((2 * Math.abs(delta) + perDays) / (2 * perDays));
  return { days, amount: delta < 0 && magnitude > 0 ? -magnitude : magnitude };
}

const UP: readonly string[] = ['RUNNING', 'STARTING'];

/**
 * Changing a game's offer to another package of its definition: the difference for the days left
 * of the paid period charged or credited back in the transaction that changes the package, the
 * quotas following (max players lowered; backups beyond the new quota deleted only once the owner
 * named them), the memory applying at the next start, the next renewal at the new price.
 */
export class OfferChanges {
  private readonly ctx: RenewalContext;

  constructor(ctx: RenewalContext) {
    this.ctx = ctx;
  }

  /** What moving to each package of the game's definition would do now. */
  async quote(gameId: string, locale: Locale): Promise<OfferQuote> {
    const { ctx } = this;
    const now = ctx.now;
    const [game] = await ctx.db.select().from(games).where(eq(games.id, gameId));
    this.changeable(game!, now);
    const definition = await ctx.deps.catalogue.get(game!.definitionId, true);
    const current = definition.packages.find((p) => p.id === game!.packageId)!;
    const [balance, spent] = await Promise.all([ctx.deps.credits.balance(game!.ownerId), ctx.deps.credits.netSpent(ctx.db, game!.ownerId, 'game', game!.id)]);
    const options = await Promise.all(
      definition.packages.map(async (pkg): Promise<OfferOption> => {
        const isCurrent = pkg.id === current.id;
        const amount = isCurrent ? 0 : this.amountOf(current, pkg, game!, now, spent);
        const maxPlayers = game!.settings.maxPlayers;
        return {
          package: pkg,
          current: isCurrent,
          amount,
          missing: Math.max(0, amount - balance),
          // By count or by size: a package keeping as many backups may hold fewer megabytes.
          backupsToDelete: isCurrent ? [] : await ctx.deps.backups.prunedBy(gameId, pkg.id, locale),
          maxPlayersLowered: !isCurrent && maxPlayers !== undefined && maxPlayers > pkg.maxPlayers ? { from: maxPlayers, to: pkg.maxPlayers } : null,
          restartNeeded: !isCurrent && UP.includes(game!.status) && (game!.launchedPackageId ?? game!.packageId) !== pkg.id,
        };
      }),
    );
    return { periodEnd: game!.periodEnd.toISOString(), daysLeft: prorate(current, current, game!.periodEnd, now).days, balance, options };
  }

  /**
   * Moves the game to `input.packageId`. Checked first, changing nothing: another definition's
   * package (400), the same package (409), an expired or unpaid game (409), backups the new quota
   * would delete and the caller did not name (409), a short balance (402). The charge or credit,
   * the game's new package and limits and its renewal's new price are one transaction under the
   * game's row lock: a process killed half-way leaves all of it or none. The confirmed backups go
   * after the commit; if that is cut short, the next prune takes them, as the quota is already the new one.
   */
  async change(gameId: string, input: OfferChange, locale: Locale): Promise<OfferResult> {
    const { ctx } = this;
    const [before] = await ctx.db.select().from(games).where(eq(games.id, gameId));
    // Read before the transaction: on PGlite a query outside it would wait for it to end.
    const definition = await ctx.deps.catalogue.get(before!.definitionId, true);
    const target = definition.packages.find((p) => p.id === input.packageId);
    if (!target) throw invalidField('packageId', 'renewals.offerOtherDefinition');
    if (target.id === before!.packageId) throw conflict('renewals.offerSamePackage');
    const current = definition.packages.find((p) => p.id === before!.packageId)!;
    const doomed = await ctx.deps.backups.prunedBy(gameId, target.id, locale);
    const confirmed = new Set(input.confirmDeleteBackupIds ?? []);
    if (doomed.some((b) => !confirmed.has(b.id))) throw conflict('renewals.offerConfirmBackups', { count: doomed.length });

    const outcome = await ctx.db.transaction(async (tx) => {
      const now = ctx.now;
      const [game] = await tx.select().from(games).where(eq(games.id, gameId)).for('update');
      this.changeable(game!, now);
      // A concurrent change committed first: this one asks again against what it made.
      if (game!.packageId === target.id) throw conflict('renewals.offerSamePackage');
      if (game!.packageId !== current.id) throw conflict('renewals.offerChangedMeanwhile');
      const spent = await ctx.deps.credits.netSpent(tx, game!.ownerId, 'game', game!.id);
      const amount = this.amountOf(current, target, game!, now, spent);
      const balance = await this.settle(tx, game!, current, target, amount, now);
      const maxPlayers = game!.settings.maxPlayers;
      const settings = maxPlayers !== undefined && maxPlayers > target.maxPlayers ? { ...game!.settings, maxPlayers: target.maxPlayers } : game!.settings;
      const [after] = await tx.update(games).set({ packageId: target.id, ramMb: target.ramMb, maxPlayers: target.maxPlayers, settings, updatedAt: now }).where(eq(games.id, gameId)).returning();
      // The renewal already opened (waiting, or canceled by the owner) is the next period's: at the new price and length.
      const [renewal] = await tx
        .select()
        .from(gamePayments)
        .where(and(eq(gamePayments.gameId, gameId), eq(gamePayments.periodStart, game!.periodEnd), inArray(gamePayments.status, ['PENDING', 'CANCELED'])));
      if (renewal) {
        await tx
          .update(gamePayments)
          .set({ amountCredits: target.priceCredits, periodEnd: new Date(renewal.periodStart.getTime() + target.periodDays * DAY_MS) })
          .where(eq(gamePayments.id, renewal.id));
      }
      await ctx.changed(tx, game!.ownerId, gameId, renewal?.id);
      return { game: after!, amount, balance };
    });
    const deletedBackups = doomed.length ? await ctx.deps.backups.pruneConfirmed(gameId, [...confirmed]) : 0;
    const game = toGame(outcome.game);
    return { game, amount: outcome.amount, balance: outcome.balance, deletedBackups, restartNeeded: game.restartNeeded };
  }

  /** 409 for a game whose offer cannot change now: expired, or its period over and unpaid. */
  private changeable(game: GameRow, now: Date): void {
    if (game.expiredAt) throw conflict('renewals.offerExpired');
    if (game.periodEnd <= now) throw conflict('renewals.offerUnpaid', { at: game.periodEnd.toISOString() });
  }

  /**
   * The prorated amount; a credit back is never more than the credits the game's entries took, net
   * of what they gave back, so a period bought with a promo code or staff's free days gives back
   * only what was paid.
   */
  private amountOf(current: GamePackage, target: GamePackage, game: GameRow, now: Date, spent: number): number {
    const { amount } = prorate(current, target, game.periodEnd, now);
    return amount < 0 ? -Math.min(-amount, Math.max(0, spent)) : amount;
  }

  /** The ledger line of the change, its reason in both languages' keys: answers the balance after it. */
  private async settle(tx: Tx, game: GameRow, current: GamePackage, target: GamePackage, amount: number, now: Date): Promise<number> {
    const { credits } = this.ctx.deps;
    if (amount === 0) return credits.balance(game.ownerId, tx);
    const { days } = prorate(current, target, game.periodEnd, now);
    const change = {
      userId: game.ownerId,
      amount: -amount,
      kind: 'GAME_OFFER_CHANGE' as const,
      reason: { key: amount > 0 ? 'gameUpgrade' : 'gameDowngrade', params: { name: game.name, from: current.name, to: target.name, days } },
      refType: 'game',
      refId: game.id,
    };
    const applied = await credits.tryApply(tx, change);
    if (applied) return applied.balance;
    const refusal = await credits.refusal(tx, change);
    if (refusal instanceof HttpProblem && refusal.status === 402) {
      const balance = await credits.balance(game.ownerId, tx);
      throw paymentRequired('renewals.offerNotEnough', { needed: amount, balance, missing: amount - balance });
    }
    throw refusal;
  }
}
