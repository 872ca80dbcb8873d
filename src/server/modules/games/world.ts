import { randomUUID } from 'node:crypto';
import { and, eq, gt, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { games } from '../../db/schema/games.ts';
import { notFound } from '../../lib/problems.ts';
import type { GameSpec } from '../../../runtime/driver.ts';
import type { GameStatus } from '../../../contract/games.ts';
import type { NotificationsService } from '../notifications/service.ts';
import { actionWrite, type GamesService } from './service.ts';
import { specOf, type GameRow, type GameRuntime } from './runtime.ts';

/** How long to wait for the server to stop before giving up. */
const STOP_WAIT_MS = 3 * 60_000;
const POLL_MS = 250;
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

/**
 * Work on a game's world files: what the backups need from the games module. A restore swaps the
 * world while the server is stopped: the game is stopped through the reconciler (as the owner's
 * stop does, saving the world), then leased so no replica's reconciler starts it during the work,
 * and started again afterwards if its owner wanted it running (docs/architecture.md, "Backups").
 */
export class GameWorlds {
  private readonly db: Db;
  private readonly runtime: GameRuntime;
  private readonly games: GamesService;
  private readonly notifications: NotificationsService;
  private readonly replica = `world-${randomUUID()}`;
  /**
   * A world's work (a restore) holds its game this long, renewed every third of it while it runs:
   * the backups' claim (BACKUP_CLAIM_SECONDS), so a restore whose process died is resumed at the
   * first round after its claim lapsed, not kept off its game longer by the dead process's lease.
   */
  private readonly leaseMs: number;

  constructor(db: Db, runtime: GameRuntime, games: GamesService, notifications: NotificationsService, leaseMs: number) {
    this.db = db;
    this.runtime = runtime;
    this.games = games;
    this.notifications = notifications;
    this.leaseMs = leaseMs;
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
      .where(and(eq(games.status, 'EXPIRED'), isNull(games.worldDeletedAt), gt(games.expiredAt, since)));
    return rows.map((row) => ({ id: row.id, expiredAt: row.expiredAt! }));
  }

  /**
   * Runs `work` on the game's world with its server stopped: stops it if it runs, holds it off
   * every reconciler while `work` runs, then starts it again if its owner wanted it running. The
   * owner may still ask for a start meanwhile: it is recorded and happens once the work is done.
   */
  async whileStopped<T>(id: string, work: (world: GameWorld) => Promise<T>, options: { restart?: boolean } = {}): Promise<T> {
    const deadline = this.runtime.clock().getTime() + STOP_WAIT_MS;
    // A resumed restore says itself: the process that stopped the server died with what it knew.
    let wasRunning: boolean | undefined = options.restart;
    for (;;) {
      const [row] = await this.db.select().from(games).where(eq(games.id, id));
      if (!row) throw notFound('game');
      wasRunning ??= row.desiredState === 'running';
      if (this.runtime.clock().getTime() > deadline) throw new Error(`the server did not stop within ${STOP_WAIT_MS / 1000} s`);
      if (row.desiredState === 'running' || !STOPPED.includes(row.status)) {
        if (row.desiredState === 'running' || row.status !== 'STOPPING') await this.games.stopInternal(id);
        await new Promise((r) => setTimeout(r, POLL_MS));
        continue;
      }
      const leased = await this.lease(id);
      if (!leased) {
        await new Promise((r) => setTimeout(r, POLL_MS));
        continue;
      }
      const renew = setInterval(() => void this.lease(id, true).catch(() => {}), this.leaseMs / 3);
      try {
        return await work(await this.world(leased));
      } finally {
        clearInterval(renew);
        await this.db
          .update(games)
          .set({ leaseOwner: null, leaseUntil: null })
          .where(and(eq(games.id, id), eq(games.leaseOwner, this.replica)));
        if (wasRunning) await this.startAgain(id);
      }
    }
  }

  /** Takes (or, with `renew`, extends) this replica's lease on a stopped game. */
  private async lease(id: string, renew = false): Promise<GameRow | undefined> {
    const now = this.runtime.clock();
    const free = renew ? eq(games.leaseOwner, this.replica) : or(isNull(games.leaseUntil), lt(games.leaseUntil, now));
    const [row] = await this.db
      .update(games)
      .set({ leaseOwner: this.replica, leaseUntil: new Date(now.getTime() + this.leaseMs) })
      .where(and(eq(games.id, id), free, renew ? undefined : and(eq(games.desiredState, 'stopped'), inArray(games.status, STOPPED))))
      .returning();
    return row;
  }

  /** Whether the game's owner wants its server running (its desired state). */
  async wantsRunning(id: string): Promise<boolean> {
    const [row] = await this.db.select({ desiredState: games.desiredState }).from(games).where(eq(games.id, id));
    return row?.desiredState === 'running';
  }

  /** Starts a stopped game again, as its owner's start does; nothing for a game that runs or is gone. */
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
