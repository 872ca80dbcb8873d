import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { gameWakeCounts, games } from '../../db/schema/games.ts';
import type { GameRuntime } from './runtime.ts';
import type { NotificationsService } from '../notifications/service.ts';
import type { EventBus } from '../../events.ts';
import { actionWrite } from './service.ts';
import { GameLock } from './lock.ts';
import type { wakeAnswers } from '../../../contract/games.ts';

export type WakeAnswer = (typeof wakeAnswers)[number];

/**
 * The wakes' limits, per fixed window: one client address may wake at most `PER_ADDRESS` servers,
 * and one game be woken at most `PER_GAME` times (logins arriving while it wakes share that wake).
 */
const WINDOW_MS = 10 * 60_000;
const PER_ADDRESS = 10;
const PER_GAME = 20;

/**
 * The API's side of a wake (docs/architecture.md, "Sleeping and waking"), asked by the gateway in
 * this process or by a gateway process over `/v1/internal/game/wake/{id}`: the limits, counted in
 * the database so every replica counts together, then the owner's start written from SLEEPING
 * while the game's lock is free, and launched at once on this replica (the reconciler's `now`, no
 * round awaited). Waiting for the server to run is the gateway's (gateway.ts): the driver's word
 * that the server is ready has it written RUNNING, whose notice releases the held login.
 */
export class Wakes {
  private readonly db: Db;
  private readonly runtime: GameRuntime;
  private readonly notifications: NotificationsService;
  private readonly events: EventBus;

  constructor(db: Db, deps: { runtime: GameRuntime; notifications: NotificationsService; events: EventBus }) {
    this.db = db;
    this.runtime = deps.runtime;
    this.notifications = deps.notifications;
    this.events = deps.events;
  }

  /**
   * A login from `address` asks for the game's wake: `first` on its first ask, which counts against
   * the limits; again (not counted) while a backup or a restore holds the game's lock.
   */
  async ask(gameId: string, address: string | undefined, first: boolean): Promise<WakeAnswer> {
    const [row] = await this.db.select({ status: games.status, deletedAt: games.deletedAt }).from(games).where(eq(games.id, gameId));
    // Woken already (another login, another gateway), or on its way back to SLEEPING's stopped state.
    const awake = row?.status === 'STARTING' || row?.status === 'RUNNING' || row?.status === 'STOPPING';
    // A game that neither sleeps nor wakes (unknown, deleted, stopped) is answered before counting: no write.
    if (!row || row.deletedAt || (!awake && row.status !== 'SLEEPING')) return 'gone';
    if (first && !(await this.allow(`address:${address ?? ''}`, PER_ADDRESS))) return 'limited';
    if (awake) return 'started';
    if (first && !(await this.allow(`game:${gameId}`, PER_GAME))) return 'limited';
    return (await this.startSleeping(gameId)) ? 'started' : 'locked';
  }

  /**
   * The owner's start, from SLEEPING only (an owner's stop in between wins) and only while the
   * game's lock is free; the reconciler then launches it. False when it did not apply.
   */
  private async startSleeping(gameId: string): Promise<boolean> {
    const now = this.runtime.clock();
    const [row] = await this.db
      .update(games)
      .set(actionWrite('start', now))
      .where(and(eq(games.id, gameId), isNull(games.deletedAt), eq(games.status, 'SLEEPING'), GameLock.free(now)))
      .returning();
    if (!row) return false;
    await this.notifications.changed(row.ownerId, { resource: 'games', ids: [gameId], type: 'updated' });
    void this.events.emit('games.wakeAsked', { gameId });
    return true;
  }

  /**
   * One more wake under `key`'s limit in the current window, or false past it: one statement, so
   * two replicas counting at once both count. Windows are the wall clock's, not the games' clock.
   */
  private async allow(key: string, limit: number): Promise<boolean> {
    const now = new Date();
    const windowOpen = new Date(now.getTime() - WINDOW_MS);
    const [nowAt, openAt] = [sql`${now.toISOString()}::timestamptz`, sql`${windowOpen.toISOString()}::timestamptz`];
    await this.db.delete(gameWakeCounts).where(lt(gameWakeCounts.windowStart, windowOpen));
    const [row] = await this.db
      .insert(gameWakeCounts)
      .values({ key, windowStart: now, count: 1 })
      .onConflictDoUpdate({
        target: gameWakeCounts.key,
        set: {
          windowStart: sql`case when ${gameWakeCounts.windowStart} < ${openAt} then ${nowAt} else ${gameWakeCounts.windowStart} end`,
          count: sql`case when ${gameWakeCounts.windowStart} < ${openAt} then 1 else ${gameWakeCounts.count} + 1 end`,
        },
      })
      .returning({ count: gameWakeCounts.count });
    return row!.count <= limit;
  }
}
