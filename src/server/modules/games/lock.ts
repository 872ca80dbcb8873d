import { and, eq, isNotNull, isNull, lt, or, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { games, type GameLockWork } from '../../db/schema/games.ts';
import type { EventBus } from '../../events.ts';
import type { Clock } from './runtime.ts';

export type { GameLockWork };

/**
 * A game's one lock (docs/architecture.md, "One lock per game"), as wings' power lock: held by the
 * world operation working on the game (a backup, a restore, an upload put back) on any replica.
 * Taken in one conditional write of the game's row, renewed while its work lives (every sixth of
 * the lock's length, so a few misses still leave it held), and lapsed once silent for a length,
 * when the backup rounds free it or resume the restore it was. While it is held, another world
 * operation is refused (`backups.busy`), and so is a power action (`games.busyBackingUp` or
 * `games.busyRestoring`: its work is the reason), and the reconciler does no more to the game than finish stopping it.
 */
export class GameLock {
  private readonly db: Db;
  private readonly events: EventBus;
  private readonly options: { clock: Clock; lockMs: number };

  constructor(db: Db, events: EventBus, options: { clock: Clock; lockMs: number }) {
    this.db = db;
    this.events = events;
    this.options = options;
  }

  get lockMs(): number {
    return this.options.lockMs;
  }

  /** How often running work renews its lock. */
  get heartbeatMs(): number {
    return this.options.lockMs / 6;
  }

  private now(): Date {
    return this.options.clock();
  }

  /** What holds a game's lock at `now`, read from its row; null when it is free. */
  static heldFor(row: { lockedFor: GameLockWork | null; lockedUntil: Date | null }, now: Date): GameLockWork | null {
    return row.lockedFor && row.lockedUntil && row.lockedUntil >= now ? row.lockedFor : null;
  }

  /** The condition of a game whose lock is free (never taken, released, or lapsed) at `now`. */
  static free(now: Date): SQL {
    return or(isNull(games.lockedFor), isNull(games.lockedUntil), lt(games.lockedUntil, now))!;
  }

  /** Locks the game for `work`; false while another holds it (or no such game). */
  async take(gameId: string, work: GameLockWork): Promise<boolean> {
    const now = this.now();
    const rows = await this.db
      .update(games)
      .set({ lockedFor: work, lockedUntil: new Date(now.getTime() + this.options.lockMs) })
      .where(and(eq(games.id, gameId), GameLock.free(now)))
      .returning({ id: games.id });
    return rows.length > 0;
  }

  async renew(gameId: string): Promise<void> {
    await this.db
      .update(games)
      .set({ lockedUntil: new Date(this.now().getTime() + this.options.lockMs) })
      .where(and(eq(games.id, gameId), isNotNull(games.lockedFor)));
  }

  /**
   * Keeps a lock alive while its work lives: renewed every sixth of the lock, and by `touch` whenever
   * the clock moved on as much since (a streaming upload touches it with each part it receives, so
   * the lock never lapses under a body still coming). `stop` once the work ended.
   */
  hold(gameId: string): { touch(): Promise<void>; stop(): void } {
    let renewed = this.now().getTime();
    const renew = async () => {
      renewed = this.now().getTime();
      await this.renew(gameId);
    };
    const timer = setInterval(() => void renew().catch(() => {}), this.heartbeatMs);
    return {
      touch: async () => {
        if (this.now().getTime() - renewed >= this.heartbeatMs) await renew();
      },
      stop: () => clearInterval(timer),
    };
  }

  /**
   * Frees the game, and has the reconciler look at it at once: a start asked during a restore waited
   * for this. In `executor`'s transaction when given, with what the work wrote last (a backup made
   * READY), so nobody sees the one without the other.
   */
  async release(gameId: string, executor: Executor = this.db): Promise<void> {
    await executor.update(games).set({ lockedFor: null, lockedUntil: null }).where(eq(games.id, gameId));
    await this.events.emit('games.actionAsked', { gameId });
  }

  /** The locks silent for `graceMs` past their end (their process died), with their work. */
  async lapsed(graceMs: number): Promise<Array<{ gameId: string; work: GameLockWork }>> {
    const rows = await this.db
      .select({ gameId: games.id, work: games.lockedFor })
      .from(games)
      .where(and(isNotNull(games.lockedFor), lt(games.lockedUntil, new Date(this.now().getTime() - graceMs))));
    return rows.map((row) => ({ gameId: row.gameId, work: row.work! }));
  }
}
