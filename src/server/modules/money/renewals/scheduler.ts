import { and, eq, gt, isNull, lte, min, sql } from 'drizzle-orm';
import { games } from '../../../db/schema/games.ts';
import { gamePayments } from '../../../db/schema/renewals.ts';
import { BALANCE_CHANNEL } from '../credits/service.ts';
import { DAY_MS, renewalOf, type RenewalContext } from './context.ts';
import { openRenewals } from './opening.ts';
import type { Retention } from './retention.ts';
import type { Settlement } from './settlement.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * When the renewals' work runs: in rounds (open the renewals coming due, settle the due ones, pay
 * what waits for credits, warn of and delete worlds past their retention), and at once for a user
 * whose balance changed (the credit_accounts trigger's NOTIFY). Everything is read from the
 * database at each round, so it survives restarts; each game is worked on under its row lock taken
 * with SKIP LOCKED, and every change re-checks the condition that selected it, so replicas never do
 * the same work twice.
 */
export class RenewalScheduler {
  private readonly ctx: RenewalContext;
  private readonly settlement: Settlement;
  private readonly retention: Retention;
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

  constructor(ctx: RenewalContext, settlement: Settlement, retention: Retention) {
    this.ctx = ctx;
    this.settlement = settlement;
    this.retention = retention;
  }

  /**
   * Pays waiting renewals as soon as credits arrive: the credit_accounts trigger NOTIFYs the user
   * id at the commit of every balance change, on every replica, whichever module or replica wrote
   * it. All replicas react; the row locks and conditional writes let only one pay. Notices lost
   * while the LISTEN connection was down are made up at once, and by every round anyway.
   */
  async listen(): Promise<void> {
    this.stopped = false;
    this.unlisten ??= await this.ctx.database.listen(
      BALANCE_CHANNEL,
      (userId) => {
        if (UUID.test(userId)) this.kick(userId);
      },
      { onReconnect: () => this.track(this.payAllWaiting(this.ctx.now)) },
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
        this.ctx.deps.runtime.log.error({ err }, 'renewals round failed');
        return this.ctx.options.intervalMs;
      })
      .finally(() => (this.round = undefined));
    return this.round;
  }

  /** Answers how long to wait before the next round. */
  private async roundOnce(): Promise<number> {
    const now = this.ctx.now;
    // A full batch that moved leaves more to do: the next round comes at once.
    let more = await openRenewals(this.ctx, now);
    // The balance notices of the round's own debits (most of them then) could only find nothing to
    // pay, or race the round for the same games: they wait for the step's end.
    this.settling = true;
    try {
      more = (await this.settlement.settleDue(now)) || more;
    } finally {
      this.settling = false;
      for (const userId of this.deferred) this.kick(userId);
      this.deferred.clear();
    }
    // The rest can wait while renewals fall due by the hundred (not longer than an interval): it
    // would go over every owner waiting for credits, and every expired world, at each batch.
    if (more && performance.now() - this.lastSweep < this.ctx.options.intervalMs) return 0;
    this.lastSweep = performance.now();
    await this.payAllWaiting(now);
    more = (await this.retention.warnDeletions(now)) || more;
    await this.retention.deleteWorlds(now);
    return more ? 0 : this.untilNextDue(now);
  }

  /**
   * How long until the next game's renewal opens or falls due, at most `intervalMs`: a renewal is
   * paid or its game expired at its periodEnd, not up to a whole interval after it.
   */
  private async untilNextDue(now: Date): Promise<number> {
    const notice = this.ctx.options.noticeDays * DAY_MS;
    const [next] = await this.ctx.db
      .select({
        due: sql`min(${games.periodEnd}) filter (where ${gt(games.periodEnd, now)})`.mapWith(games.periodEnd),
        opening: sql`min(${games.periodEnd}) filter (where ${gt(games.periodEnd, new Date(now.getTime() + notice))})`.mapWith(games.periodEnd),
      })
      .from(games)
      .where(and(isNull(games.expiredAt), isNull(games.worldDeletedAt), isNull(games.deletedAt)));
    const at = Math.min(next?.due?.getTime() ?? Infinity, (next?.opening?.getTime() ?? Infinity) - notice);
    return Math.max(0, Math.min(this.ctx.options.intervalMs, at - now.getTime()));
  }

  /**
   * Owners whose auto-renew games wait for a renewal (due, or expired and still revivable) and
   * whose balance now covers it: credits that came while no notice could be heard.
   */
  private async payAllWaiting(now: Date): Promise<void> {
    const owners = await this.ctx.db
      .select({ ownerId: gamePayments.ownerId, least: sql<number>`min(${gamePayments.amountCredits})`.mapWith(Number) })
      .from(gamePayments)
      .innerJoin(games, renewalOf(['PENDING']))
      .where(and(eq(games.autoRenew, true), lte(games.periodEnd, now), this.retention.revivableSql(now)))
      .groupBy(gamePayments.ownerId);
    for (const { ownerId, least } of owners) {
      try {
        // Balances are cached and kept true by the same notices: most owners are still short.
        if ((await this.ctx.deps.credits.balance(ownerId)) >= least) await this.settlement.payWaiting(ownerId);
      } catch (err) {
        this.ctx.deps.runtime.log.error({ err, userId: ownerId }, 'paying waiting renewals failed');
      }
    }
  }

  /**
   * The smallest of the user's PENDING game payments already due (a renewal's period starts at its
   * game's periodEnd), if any. Every balance change asks; most users have none, or fewer credits
   * than it (a debit's own notice), so this indexed look and their cached balance spare them
   * `payWaiting`'s join, which would pay nothing.
   */
  private async leastDue(userId: string): Promise<number | null> {
    const [row] = await this.ctx.db
      .select({ least: min(gamePayments.amountCredits) })
      .from(gamePayments)
      .where(and(eq(gamePayments.ownerId, userId), eq(gamePayments.status, 'PENDING'), lte(gamePayments.periodStart, this.ctx.now)));
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
          if (least !== null && (await this.ctx.deps.credits.balance(userId)) >= least) await this.settlement.payWaiting(userId);
        } while (state.again && !this.stopped);
      } finally {
        this.paying.delete(userId);
      }
    };
    this.track(run());
  }

  private track(work: Promise<unknown>): void {
    const tracked: Promise<unknown> = work.catch((err: unknown) => this.ctx.deps.runtime.log.error({ err }, 'paying waiting renewals failed')).finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }
}
