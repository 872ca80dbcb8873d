import { and, asc, isNull, lte, notExists } from 'drizzle-orm';
import { games } from '../../../db/schema/games.ts';
import { gamePayments } from '../../../db/schema/renewals.ts';
import { BATCH, DAY_MS, PAY_LINK, renewalOf, type RenewalContext } from './context.ts';

/**
 * Games within RENEWAL_NOTICE_DAYS of their periodEnd with no payment for the next period yet get
 * it, PENDING at the package's price now, and their owner a notice with the amount, the date and
 * where to pay. The unique (game, periodStart) index keeps it to one even past the row lock.
 * Answers whether a full batch moved (more may wait).
 */
export async function openRenewals(ctx: RenewalContext, now: Date): Promise<boolean> {
  const still = and(
    isNull(games.expiredAt),
    isNull(games.deletedAt),
    lte(games.periodEnd, new Date(now.getTime() + ctx.options.noticeDays * DAY_MS)),
    notExists(ctx.db.select({ id: gamePayments.id }).from(gamePayments).where(renewalOf())),
  );
  const due = await ctx.db.select({ id: games.id, definitionId: games.definitionId, packageId: games.packageId }).from(games).where(still).orderBy(asc(games.periodEnd)).limit(BATCH);
  const packages = new Map<string, { priceCredits: number; periodDays: number }>();
  const opened = await ctx.each(
    due.map((g) => g.id),
    'opening a renewal',
    async (id) => {
      const { definitionId, packageId } = due.find((g) => g.id === id)!;
      // Read before the transaction: on PGlite a query outside it would wait for it to end.
      if (!packages.has(packageId)) {
        const definition = await ctx.deps.catalogue.get(definitionId, true);
        for (const p of definition.packages) packages.set(p.id, p);
      }
      const pkg = packages.get(packageId);
      // Packages in use cannot be deleted (restrict): a game without one is no game of ours.
      if (!pkg) return false;
      const worked = await ctx.locked(id, still, async (tx, game) => {
        const periodEnd = new Date(game.periodEnd.getTime() + pkg.periodDays * DAY_MS);
        const [payment] = await tx
          .insert(gamePayments)
          .values({ gameId: game.id, ownerId: game.ownerId, status: 'PENDING', amountCredits: pkg.priceCredits, periodStart: game.periodEnd, periodEnd, createdAt: now })
          .onConflictDoNothing()
          .returning();
        if (!payment) return true;
        await ctx.changed(tx, game.ownerId, game.id, payment.id);
        await ctx.deps.notifications.notify(
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
