import type { EventBus } from '../../../events.ts';
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Database, Db, Executor, Tx } from '../../../db/client.ts';
import { games } from '../../../db/schema/games.ts';
import { gamePayments } from '../../../db/schema/renewals.ts';
import type { CatalogueService } from '../../catalogue/service.ts';
import type { CreditsService } from '../credits/service.ts';
import type { NotificationsService } from '../../notifications/service.ts';
import type { GamesService } from '../../games/service.ts';
import type { BackupsService } from '../../backups/service.ts';
import type { AuditService } from '../../audit/service.ts';
import type { GameRow, GameRuntime } from '../../games/runtime.ts';
import type { PaymentStatus } from './game-payment.ts';

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

/** The services the renewals use; the games service only to wake the reconciler and answer a game. */
export interface RenewalDeps {
  catalogue: CatalogueService;
  credits: CreditsService;
  notifications: NotificationsService;
  games: GamesService;
  runtime: GameRuntime;
  /** Keeps an expired game's last backup once its world is deleted; names and deletes the backups a smaller quota takes. */
  backups: Pick<BackupsService, 'keepLast' | 'prunedBy' | 'pruneConfirmed'>;
  /** Records staff's free days. */
  audit: AuditService;
  /** A deleted game's renewal is canceled in the deletion's transaction. */
  events: EventBus;
}

export const DAY_MS = 24 * 60 * 60 * 1000;
/** How many games one step of a round takes; the rest wait for the next round. */
export const BATCH = 100;
/** The account page lists the pending game payments, each with its Pay button. */
export const PAY_LINK = '/dashboard/account';

/** The payment for the period after the game's current one: its renewal (at most one per game). */
export const renewalOf = (status?: PaymentStatus[]) => and(eq(gamePayments.gameId, games.id), eq(gamePayments.periodStart, games.periodEnd), status ? inArray(gamePayments.status, status) : undefined);

/** What every part of the renewals shares: the database, the services, the options and the clock. */
export class RenewalContext {
  readonly database: Database;
  readonly db: Db;
  readonly deps: RenewalDeps;
  readonly options: Required<RenewalOptions>;

  constructor(database: Database, deps: RenewalDeps, options: RenewalOptions) {
    this.database = database;
    this.db = database.db;
    this.deps = deps;
    this.options = { intervalMs: 60_000, leaseMs: 5 * 60_000, ...options };
  }

  get now(): Date {
    return this.deps.runtime.clock();
  }

  /**
   * Runs `work` on each game, `concurrency` at a time, one failure not stopping the others;
   * answers how many it worked on.
   */
  async each(ids: string[], what: string, work: (id: string) => Promise<boolean>, concurrency = 1): Promise<number> {
    let done = 0;
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const id = ids[next++]!;
        try {
          if (await work(id)) done++;
        } catch (err) {
          this.deps.runtime.log.error({ err, gameId: id }, `${what} failed`);
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
  locked<T>(id: string, still: SQL | undefined, work: (tx: Tx, game: GameRow) => Promise<T>): Promise<T | undefined> {
    return this.db.transaction(async (tx) => {
      const [game] = await tx
        .select()
        .from(games)
        .where(and(eq(games.id, id), still))
        .for('update', { skipLocked: true });
      return game ? work(tx, game) : undefined;
    });
  }

  /** Tells the owner's open pages, at commit, that the game and its renewals changed. */
  changed(tx: Executor, ownerId: string, gameId: string, paymentId?: string): Promise<void> {
    return this.deps.notifications.changed(
      ownerId,
      [
        { resource: 'games', ids: [gameId], type: 'updated' },
        { resource: 'gamePayments', ids: paymentId ? [paymentId] : [], type: 'updated' },
      ],
      tx,
    );
  }
}
