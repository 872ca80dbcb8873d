import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { gamePlayers, games } from '../../db/schema/games.ts';
import { conflict, invalidField, notFound } from '../../lib/problems.ts';
import type { AuditService } from '../audit/service.ts';
import type { NotificationsService } from '../notifications/service.ts';
import type { EventBus } from '../../events.ts';
import type { GameStatus } from '../../../contract/values.ts';
import { GameLock } from './lock.ts';
import { lockRefusals, toGame } from './service.ts';
import type { GameRuntime } from './runtime.ts';

/** The statuses a deletion stops the server from, as the owner's stop does. */
const RUNNING: GameStatus[] = ['STARTING', 'RUNNING', 'CRASHED'];

/** Who deletes: the owner, who typed the game's name, staff, with their reason, or the owner's account deletion. */
export type Deleter = { owner: string; typedName: string } | { staff: string; reason: string } | { deletedAccount: string };

/**
 * Deleting a game (docs/architecture.md, "Deleting a game"). One transaction hides it: `deletedAt`
 * set, its server wanted stopped, its player lists gone, and what other modules keep for it gone
 * with it (`games.deleted`: shares, schedules, the renewal waiting, the nightly backup). So a
 * process killed at any point leaves the game whole or deleted, never half. What needs the driver
 * (the stop, one last backup kept GAME_RETENTION_DAYS, the world and its address freed) is the
 * backup rounds' (`BackupRounds.deletionRound`), which do it again until it is done. Nothing paid
 * is refunded.
 */
export class GameDeletion {
  private readonly db: Db;
  private readonly deps: { notifications: NotificationsService; audit: AuditService; events: EventBus; runtime: GameRuntime };

  constructor(db: Db, deps: { notifications: NotificationsService; audit: AuditService; events: EventBus; runtime: GameRuntime }) {
    this.db = db;
    this.deps = deps;
  }

  /**
   * Deletes the game: 400 when the owner's typed name is not the game's, 409 while a backup or a
   * restore holds its lock (the world must not be deleted under them: asked again once they end),
   * 404 when it is gone already.
   */
  async delete(gameId: string, by: Deleter): Promise<void> {
    const { notifications, audit, events, runtime } = this.deps;
    const now = runtime.clock();
    await this.db.transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(games)
        .where(and(eq(games.id, gameId), isNull(games.deletedAt)))
        .for('update');
      if (!before) throw notFound('game');
      if ('typedName' in by && by.typedName.trim() !== before.name.trim()) throw invalidField('name', 'games.deleteNameMismatch', { name: before.name });
      const held = GameLock.heldFor(before, now);
      if (held) throw conflict(lockRefusals[held], { status: before.status });
      const stopping = RUNNING.includes(before.status);
      const [after] = await tx
        .update(games)
        .set({
          deletedAt: now,
          desiredState: 'stopped',
          autoRenew: false,
          nextAttemptAt: null,
          ...(stopping ? { status: 'STOPPING' as const, statusReason: null, statusChangedAt: now, launchedAt: null } : {}),
          // A sleeping server is stopped already, its world saved.
          ...(before.status === 'SLEEPING' ? { status: 'STOPPED' as const, statusChangedAt: now } : {}),
          stateVersion: sql`${games.stateVersion} + 1`,
          updatedAt: now,
        })
        .where(eq(games.id, gameId))
        .returning();
      // Told while the shares still say who has it open: their pages drop it too.
      await notifications.changed(before.ownerId, { resource: 'games', ids: [gameId], type: 'deleted' }, tx);
      await tx.delete(gamePlayers).where(eq(gamePlayers.gameId, gameId));
      await events.emit('games.deleted', { tx, gameId, ownerId: before.ownerId });
      if ('staff' in by) {
        await audit.record(tx, { actorId: by.staff, action: 'game.delete', entity: 'game', entityId: gameId, reason: by.reason, before: toGame(before), after: toGame(after!) });
        // The staff's reason is their own words, passed on as they wrote it.
        await notifications.notify(before.ownerId, { key: 'game.deletedByStaff', params: { name: before.name, reason: by.reason }, link: '/dashboard/account' }, tx);
      }
    });
    void events.emit('games.actionAsked', { gameId });
    void events.emit('games.deletionCommitted', { gameId });
  }

  /**
   * Every game of an account being deleted (docs/architecture.md, "Deleting an account"), one at a
   * time as its owner would: a game whose backup holds its lock stops the run (409), which the
   * account deletion's next round resumes.
   */
  async deleteAllOf(ownerId: string): Promise<void> {
    const owned = await this.db
      .select({ id: games.id })
      .from(games)
      .where(and(eq(games.ownerId, ownerId), isNull(games.deletedAt)));
    for (const { id } of owned) await this.delete(id, { deletedAccount: ownerId });
  }
}
