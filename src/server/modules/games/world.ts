import { and, asc, eq, gt, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.ts';
import type { EventBus } from '../../events.ts';
import { games } from '../../db/schema/games.ts';
import { notFound } from '../../lib/problems.ts';
import type { GameSpec } from '../../../runtime/driver.ts';
import type { GameStatus } from '../../../contract/values.ts';
import type { NotificationsService } from '../notifications/service.ts';
import { actionWrite, type GamesService } from './service.ts';
import { specOf, type GameRow, type GameRuntime } from './runtime.ts';

/** How long to wait for the server to stop before giving up. */
const STOP_WAIT_MS = 3 * 60_000;
const STOPPED: GameStatus[] = ['CREATED', 'STOPPED', 'EXPIRED'];

/** What the backups module needs to know of a game to work on its world. */
export interface GameWorld {
  id: string;
  ownerId: string;
  name: string;
  status: GameStatus;
  packageId: string;
  /** When its renewal went unpaid, while it is expired. */
  expiredAt: Date | null;
  /** Its world was deleted past the retention: nothing can be restored into it any more. */
  worldDeleted: boolean;
  spec: GameSpec;
}

/** The channel on which every replica hears that a game's status changed (its id), to wait for a stop without polling. */
export const STATUS_CHANNEL = 'blockhost_game_status';

/**
 * Work on a game's world files: what the backups need from the games module. A restore swaps the
 * world while the server is stopped, under the game's lock (lock.ts), which keeps power actions and
 * the reconciler off it: `stopped` stops it as the owner's stop does (the world saved) and waits,
 * and `startAgain` starts it once the world is back (docs/architecture.md, "One lock per game").
 */
export class GameWorlds {
  private readonly db: Db;
  private readonly database: Database;
  private readonly runtime: GameRuntime;
  private readonly games: GamesService;
  private readonly notifications: NotificationsService;

  constructor(database: Database, deps: { runtime: GameRuntime; games: GamesService; notifications: NotificationsService; events: EventBus }) {
    this.db = database.db;
    this.database = database;
    this.runtime = deps.runtime;
    this.games = deps.games;
    this.notifications = deps.notifications;
    // Told on every replica, once the status is committed, so a stop asked here and done by another replica's reconciler wakes `stopped`.
    deps.events.on('games.statusChanged', ({ game, executor }) => executor.execute(sql`select pg_notify(${STATUS_CHANNEL}, ${game.id})`).then(() => undefined));
  }

  /** The game as its world's work needs it; 404 for no such game (who may work on it was checked before). */
  async of(id: string): Promise<GameWorld> {
    const [row] = await this.db.select().from(games).where(eq(games.id, id));
    if (!row) throw notFound('game');
    return this.world(row);
  }

  private async world(row: GameRow): Promise<GameWorld> {
    return {
      id: row.id,
      ownerId: row.ownerId,
      name: row.name,
      status: row.status,
      packageId: row.packageId,
      expiredAt: row.expiredAt,
      worldDeleted: row.worldDeletedAt !== null,
      spec: await specOf(this.db, row),
    };
  }

  /** The games stopped by an expiry since `since` whose world is still there, with when they expired. */
  async expiredSince(since: Date): Promise<Array<{ id: string; expiredAt: Date }>> {
    const rows = await this.db
      .select({ id: games.id, expiredAt: games.expiredAt })
      .from(games)
      .where(and(eq(games.status, 'EXPIRED'), isNull(games.worldDeletedAt), isNull(games.deletedAt), gt(games.expiredAt, since)));
    return rows.map((row) => ({ id: row.id, expiredAt: row.expiredAt! }));
  }

  /** The owner's deleted games, by id, with their names: whose last backups their account page offers. */
  async deletedOf(ownerId: string): Promise<Map<string, string>> {
    const rows = await this.db
      .select({ id: games.id, name: games.name })
      .from(games)
      .where(and(eq(games.ownerId, ownerId), isNotNull(games.deletedAt)));
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /** Deleted games whose world is still there, oldest deletion first, with when they were deleted. */
  async deleting(limit: number): Promise<Array<{ id: string; deletedAt: Date }>> {
    const rows = await this.db
      .select({ id: games.id, deletedAt: games.deletedAt })
      .from(games)
      .where(and(isNotNull(games.deletedAt), isNull(games.worldDeletedAt)))
      .orderBy(asc(games.deletedAt))
      .limit(limit);
    return rows.map((row) => ({ id: row.id, deletedAt: row.deletedAt! }));
  }

  /**
   * Deletes a stopped game's world and what the driver keeps for it (its address and port free
   * again), then records it; idempotent, as the driver's `remove` is, so a round cut off in between
   * does it again.
   */
  async removeWorld(id: string): Promise<void> {
    const world = await this.of(id);
    await this.runtime.driver.remove(world.spec);
    await this.db
      .update(games)
      .set({ worldDeletedAt: this.runtime.clock(), updatedAt: this.runtime.clock() })
      .where(and(eq(games.id, id), isNull(games.worldDeletedAt)));
  }

  /**
   * Stops the game's server as its owner's stop does (the reconciler saves the world and stops it,
   * on whichever replica) and resolves with the stopped game. It waits for the reconciler's status
   * writes, heard on every replica, rather than reading the game again and again. The caller holds
   * the game's lock, so nothing starts the server again meanwhile.
   */
  async stopped(id: string): Promise<GameWorld> {
    const deadline = Date.now() + STOP_WAIT_MS;
    let wake = () => {};
    const unlisten = await this.database.listen(STATUS_CHANNEL, (gameId) => gameId === id && wake(), { onReconnect: () => wake() });
    try {
      for (;;) {
        const changed = new Promise<void>((resolve) => (wake = resolve));
        const [row] = await this.db.select().from(games).where(eq(games.id, id));
        if (!row) throw notFound('game');
        if (row.desiredState === 'stopped' && STOPPED.includes(row.status)) return await this.world(row);
        // Stopped already but wanted running, or running: asked to stop, then read again at once.
        if (row.desiredState === 'running' || row.status !== 'STOPPING') {
          await this.games.stopInternal(id);
          continue;
        }
        if (!(await within(changed, deadline - Date.now()))) throw new Error(`the server did not stop within ${STOP_WAIT_MS / 1000} s`);
      }
    } finally {
      await unlisten();
    }
  }

  /** Whether the game's owner wants its server running (its desired state). */
  async wantsRunning(id: string): Promise<boolean> {
    const [row] = await this.db.select({ desiredState: games.desiredState }).from(games).where(eq(games.id, id));
    return row?.desiredState === 'running';
  }

  /**
   * Starts a stopped game again, as its owner's start does; nothing for a game that runs or is gone.
   * Under the game's lock, the reconciler starts it once the lock is released.
   */
  async startAgain(id: string): Promise<void> {
    const [row] = await this.db
      .update(games)
      .set(actionWrite('start', this.runtime.clock()))
      .where(and(eq(games.id, id), inArray(games.status, ['CREATED', 'STOPPED'])))
      .returning();
    if (!row) return;
    await this.notifications.changed(row.ownerId, { resource: 'games', ids: [id], type: 'updated' });
    this.games.actionAsked(id);
  }
}

/** Whether `event` happened within `ms`. */
async function within(event: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, ms))));
  try {
    return await Promise.race([event.then(() => true as const), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
