import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, lt, lte, or, type SQL } from 'drizzle-orm';
import { games } from '../../../db/schema/games.ts';
import { gamePayments } from '../../../db/schema/renewals.ts';
import type { Message } from '../../../../contract/messages.ts';
import { leaseGames, specOf, type GameRow } from '../../games/runtime.ts';
import { BATCH, DAY_MS, PAY_LINK, type RenewalContext } from './context.ts';

/** The owner is told this long before an expired game's world is deleted, whatever happened before. */
const DELETION_NOTICE_MS = 7 * DAY_MS;

/**
 * An expired game's world: kept GAME_RETENTION_DAYS for its owner to pay and revive the game, then,
 * a week at least after telling them, deleted through the driver; after that nothing revives it,
 * and only its last backup stays, GAME_RETENTION_DAYS more, for its owner to download.
 */
export class Retention {
  private readonly ctx: RenewalContext;
  private readonly replica = randomUUID();

  constructor(ctx: RenewalContext) {
    this.ctx = ctx;
  }

  private get retentionMs(): number {
    return this.ctx.options.retentionDays * DAY_MS;
  }

  /** An expired game's world is kept: not yet both past the retention and a week past the deletion notice. */
  revivable(game: GameRow, now: Date): boolean {
    if (game.worldDeletedAt || game.deletedAt) return false;
    if (!game.expiredAt || !game.deletionNoticeAt) return true;
    return game.expiredAt.getTime() + this.retentionMs > now.getTime() || game.deletionNoticeAt.getTime() + DELETION_NOTICE_MS > now.getTime();
  }

  /** `revivable` as SQL, for the lists of games to work on. */
  revivableSql(now: Date): SQL {
    return and(
      isNull(games.worldDeletedAt),
      isNull(games.deletedAt),
      or(
        isNull(games.expiredAt),
        isNull(games.deletionNoticeAt),
        gt(games.expiredAt, new Date(now.getTime() - this.retentionMs)),
        gt(games.deletionNoticeAt, new Date(now.getTime() - DELETION_NOTICE_MS)),
      ),
    )!;
  }

  /** When an expired game's world will be deleted, as promised to its owner. */
  private deletionDate(game: GameRow, now: Date): Date {
    const retentionEnd = (game.expiredAt ?? now).getTime() + this.retentionMs;
    return new Date(Math.max(retentionEnd, (game.deletionNoticeAt ?? now).getTime() + DELETION_NOTICE_MS));
  }

  /** A week (at least) before an expired game's world is deleted, its owner is told when, and what to pay to keep it. */
  async warnDeletions(now: Date): Promise<boolean> {
    const { ctx } = this;
    const still = and(eq(games.status, 'EXPIRED'), isNull(games.worldDeletedAt), isNull(games.deletionNoticeAt), lte(games.expiredAt, new Date(now.getTime() - this.retentionMs + DELETION_NOTICE_MS)));
    const due = await ctx.db.select({ id: games.id }).from(games).where(still).limit(BATCH);
    const warned = await ctx.each(
      due.map((g) => g.id),
      'warning of a deletion',
      async (id) => {
        const worked = await ctx.locked(id, still, async (tx, game) => {
          const [noticed] = await tx.update(games).set({ deletionNoticeAt: now, updatedAt: now }).where(eq(games.id, game.id)).returning();
          const date = this.deletionDate(noticed!, now).toISOString();
          const [pending] = await tx
            .select()
            .from(gamePayments)
            .where(and(eq(gamePayments.gameId, game.id), eq(gamePayments.periodStart, game.periodEnd), eq(gamePayments.status, 'PENDING')));
          const notice: Message = pending
            ? { key: 'renewal.deletionWarningPay', params: { name: game.name, date, amount: pending.amountCredits } }
            : { key: 'renewal.deletionWarning', params: { name: game.name, date } };
          await ctx.deps.notifications.notify(game.ownerId, { ...notice, link: PAY_LINK }, tx);
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
  async deleteWorlds(now: Date): Promise<void> {
    const { ctx } = this;
    const due = ctx.db
      .select({ id: games.id })
      .from(games)
      .where(
        and(
          eq(games.status, 'EXPIRED'),
          isNull(games.worldDeletedAt),
          // A deleted game's world goes with the backup rounds' finishing of the deletion.
          isNull(games.deletedAt),
          lte(games.expiredAt, new Date(now.getTime() - this.retentionMs)),
          lte(games.deletionNoticeAt, new Date(now.getTime() - DELETION_NOTICE_MS)),
          or(isNull(games.leaseUntil), lt(games.leaseUntil, now)),
        ),
      )
      .limit(BATCH)
      .for('update', { skipLocked: true });
    const leased = await leaseGames(ctx.db, due, this.replica, new Date(now.getTime() + ctx.options.leaseMs));
    for (const game of leased) {
      const mine = and(eq(games.id, game.id), eq(games.leaseOwner, this.replica));
      try {
        // Nothing revives the game now: its last backup stays GAME_RETENTION_DAYS more, to download.
        await ctx.deps.backups.keepLast(game.id, new Date(now.getTime() + this.retentionMs));
        await ctx.deps.runtime.driver.remove(await specOf(ctx.db, game));
        await ctx.db.transaction(async (tx) => {
          const [deleted] = await tx.update(games).set({ worldDeletedAt: ctx.now, leaseOwner: null, leaseUntil: null, updatedAt: ctx.now }).where(mine).returning({ id: games.id });
          if (!deleted) return;
          await ctx.changed(tx, game.ownerId, game.id);
          await tx
            .update(gamePayments)
            .set({ status: 'CANCELED', canceledAt: ctx.now })
            .where(and(eq(gamePayments.gameId, game.id), eq(gamePayments.status, 'PENDING')));
        });
      } catch (err) {
        ctx.deps.runtime.log.error({ err, gameId: game.id }, 'deleting an expired world failed; the next round tries again');
        await ctx.db.update(games).set({ leaseOwner: null, leaseUntil: null }).where(mine);
      }
    }
  }
}
