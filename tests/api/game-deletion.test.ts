import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog } from '../../src/server/db/schema/audit.ts';
import { backups as backupsTable } from '../../src/server/db/schema/backups.ts';
import { gamePlayers, games } from '../../src/server/db/schema/games.ts';
import { gamePayments } from '../../src/server/db/schema/renewals.ts';
import { gameSchedules } from '../../src/server/db/schema/schedules.ts';
import { gameAccess } from '../../src/server/db/schema/sharing.ts';
import { useTestApp, type TestApp } from '../fixtures/app.ts';
import { buyGame, finishBackups, fund, runGame, userId } from '../fixtures/games.ts';
import { befriend } from '../fixtures/social.ts';

const DAY = 24 * 3600_000;

describe('deleting a game', { timeout: 60_000 }, () => {
  const t = useTestApp();

  /** A running game of alice's, shared with bob as co-admin, with a schedule, a whitelisted player and a backup. */
  async function furnished(app: TestApp) {
    const bought = await buyGame(app);
    const { gameId } = bought;
    await befriend(app, 'alice', 'bob');
    const share = await app.as('alice', { method: 'POST', url: `/v1/game/${gameId}/access`, payload: { friendId: await userId(app, 'bob'), role: 'COADMIN' } });
    expect(share.statusCode, share.body).toBe(201);
    const schedule = await app.as('alice', { method: 'POST', url: `/v1/game/${gameId}/schedules`, payload: { task: 'restart', repeat: 'hours', everyHours: 1, timeZone: 'Europe/Paris' } });
    expect(schedule.statusCode, schedule.body).toBe(201);
    const listed = await app.as('alice', { method: 'POST', url: `/v1/game/${gameId}/minecraft/player`, payload: { name: 'Steve', type: 'WHITELIST', action: 'ADD' } });
    expect(listed.statusCode, listed.body).toBe(200);
    await runGame(app, gameId);
    expect((await app.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: {} })).statusCode).toBe(202);
    await finishBackups(app);
    return bought;
  }

  const rowsOf = async (app: TestApp, gameId: string) => {
    const { db } = app.app.services;
    return {
      game: (await db.select().from(games).where(eq(games.id, gameId)))[0]!,
      shares: await db.select().from(gameAccess).where(eq(gameAccess.gameId, gameId)),
      schedules: await db.select().from(gameSchedules).where(eq(gameSchedules.gameId, gameId)),
      players: await db.select().from(gamePlayers).where(eq(gamePlayers.gameId, gameId)),
    };
  };

  it('is the owner’s alone, by its name: the game is gone at once, then stopped, backed up one last time and its world freed; renewals stop', async () => {
    const app = t.current;
    const { gameId, game } = await furnished(app);
    const remove = (who: string, name: string) => app.as(who, { method: 'POST', url: `/v1/game/${gameId}/delete`, payload: { name } });

    // A co-admin may do much, not this; a wrong name changes nothing.
    const coadmin = await remove('bob', 'My world');
    expect([coadmin.statusCode, coadmin.json().code]).toEqual([403, 'sharing.roleTooLow']);
    const mistyped = await remove('alice', 'My wrld');
    expect(mistyped.statusCode).toBe(400);
    expect(mistyped.json().errors).toEqual([expect.objectContaining({ field: 'name', code: 'games.deleteNameMismatch' })]);
    expect((await rowsOf(app, gameId)).game.deletedAt).toBeNull();

    // Its renewal is open (within the notice) when it is deleted: it is canceled, nothing refunded.
    await fund(app, 'alice', 500);
    await app.app.services.db.update(games).set({ autoRenew: true }).where(eq(games.id, gameId));
    app.clock.now = new Date(Date.parse(game.periodEnd) - 2 * DAY);
    await app.app.services.renewals.tick();
    const balance = async () => (await app.as('alice', { method: 'GET', url: '/v1/user' })).json().balance as number;
    expect(await balance()).toBe(500);

    const res = await remove('alice', 'My world');
    expect(res.statusCode, res.body).toBe(204);
    const after = await rowsOf(app, gameId);
    expect(after.game).toMatchObject({ desiredState: 'stopped', status: 'STOPPING', autoRenew: false, worldDeletedAt: null });
    expect(after.game.deletedAt).not.toBeNull();
    expect([after.shares, after.schedules, after.players]).toEqual([[], [], []]);
    expect((await app.app.services.db.select().from(gamePayments).where(eq(gamePayments.gameId, gameId))).map((p) => p.status)).toEqual(['PAID', 'CANCELED']);
    // Gone from every list and call, for its owner and whoever it was shared with.
    expect((await app.as('alice', { method: 'GET', url: '/v1/game' })).json().totalElements).toBe(0);
    expect((await app.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).statusCode).toBe(404);
    expect((await app.as('bob', { method: 'GET', url: `/v1/game/${gameId}` })).statusCode).toBe(404);
    expect((await app.as('bob', { method: 'GET', url: '/v1/game/shared' })).json().data).toEqual([]);
    expect((await remove('alice', 'My world')).statusCode).toBe(404);
    const audited = await app.app.services.db.select().from(auditLog).where(eq(auditLog.action, 'game.delete'));
    expect(audited).toEqual([expect.objectContaining({ entityId: gameId, actorId: await userId(app, 'alice') })]);

    // The round: stopped by the reconciler, one last backup, the world and its address freed.
    app.clock.advance(60_000);
    await app.app.services.reconciler.tick();
    await app.app.services.reconciler.tick();
    expect(await app.app.services.backupRounds.deletionRound()).toBe(1);
    expect(await app.app.services.backupRounds.deletionRound()).toBe(0);
    expect(app.driver.calls).toContain(`stop ${gameId}`);
    expect(app.driver.calls).toContain(`remove ${gameId}`);
    expect(app.driver.provisioned.has(gameId)).toBe(false);
    const stored = await app.app.services.db.select().from(backupsTable).where(eq(backupsTable.gameId, gameId));
    expect(stored).toEqual([expect.objectContaining({ reason: 'deletion', status: 'READY', expiresAt: new Date(after.game.deletedAt!.getTime() + 30 * DAY) })]);

    // Downloadable from the account page, by its owner alone.
    const kept = (await app.as('alice', { method: 'GET', url: '/v1/backups/kept' })).json();
    expect(kept).toEqual([expect.objectContaining({ id: stored[0]!.id, gameId, gameName: 'My world' })]);
    expect((await app.as('bob', { method: 'GET', url: '/v1/backups/kept' })).json()).toEqual([]);
    expect((await app.as('bob', { method: 'POST', url: `/v1/backups/kept/${stored[0]!.id}/link` })).statusCode).toBe(404);
    const link = await app.as('alice', { method: 'POST', url: `/v1/backups/kept/${stored[0]!.id}/link` });
    expect(link.statusCode).toBe(200);
    const download = await app.app.inject({ method: 'GET', url: new URL(link.json().url).pathname });
    expect([download.statusCode, download.headers['content-type']]).toEqual([200, 'application/zip']);

    // Renewals stop: nothing opened, charged or expired past its period.
    app.clock.now = new Date(Date.parse(game.periodEnd) + DAY);
    await app.app.services.renewals.tick();
    expect(await balance()).toBe(500);
    expect((await rowsOf(app, gameId)).game.status).toBe('STOPPED');
    expect((await app.app.services.db.select().from(gamePayments).where(eq(gamePayments.gameId, gameId))).map((p) => p.status)).toEqual(['PAID', 'CANCELED']);
  });

  it('is finished at once by the backup rounds running on the replica that took it, not at their next round', async () => {
    const app = t.current;
    const s = app.app.services;
    const { gameId } = await buyGame(app);
    await runGame(app, gameId);
    // The rounds started now come a minute apart: only the deletion's wake can finish it within 40 s.
    s.reconciler.start();
    s.backupRounds.start();
    try {
      expect((await app.as('alice', { method: 'POST', url: `/v1/game/${gameId}/delete`, payload: { name: 'My world' } })).statusCode).toBe(204);
      await expect.poll(async () => (await rowsOf(app, gameId)).game.worldDeletedAt, { timeout: 40_000 }).not.toBeNull();
      const stored = await s.db.select().from(backupsTable).where(eq(backupsTable.gameId, gameId));
      expect(stored.map((b) => [b.reason, b.status])).toEqual([['deletion', 'READY']]);
    } finally {
      await s.backupRounds.stop();
      await s.reconciler.stop();
    }
  });

  it('waits for a backup under way: 409 with why, deleted once it ended', async () => {
    const app = t.current;
    const { gameId } = await buyGame(app);
    await runGame(app, gameId);
    let release!: () => void;
    app.driver.backupGate = new Promise((resolve) => (release = resolve));
    expect((await app.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: {} })).statusCode).toBe(202);
    const busy = await app.as('alice', { method: 'POST', url: `/v1/game/${gameId}/delete`, payload: { name: 'My world' } });
    expect([busy.statusCode, busy.json().code]).toEqual([409, 'games.busyBackingUp']);
    expect((await rowsOf(app, gameId)).game.deletedAt).toBeNull();
    release();
    app.driver.backupGate = undefined;
    await finishBackups(app);
    expect((await app.as('alice', { method: 'POST', url: `/v1/game/${gameId}/delete`, payload: { name: 'My world' } })).statusCode).toBe(204);
  });

  it('by staff, with a reason: audited and told to the owner', async () => {
    const app = t.current;
    const { gameId } = await buyGame(app);
    const staff = (who: string, roles: string[]) => app.as(who, { roles, method: 'POST', url: `/v1/staff/games/${gameId}/delete`, payload: { reason: 'Phishing page in the MOTD' } });
    expect((await staff('sam', ['support'])).statusCode).toBe(403);
    const res = await staff('boss', ['staff']);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().deletedAt).not.toBeNull();
    const [entry] = await app.app.services.db.select().from(auditLog).where(eq(auditLog.action, 'game.delete'));
    expect(entry).toMatchObject({ entityId: gameId, reason: 'Phishing page in the MOTD', actorId: await userId(app, 'boss') });
    const notices = (await app.as('alice', { method: 'GET', url: '/v1/user/notifications/unread' })).json().data;
    expect(notices[0].data.description).toContain('Phishing page in the MOTD');
    expect((await app.as('alice', { method: 'GET', url: '/v1/game' })).json().totalElements).toBe(0);
  });

  it('never half-happens: a failure in its write changes nothing; a round cut off is done again by the next', async () => {
    const app = t.current;
    const { gameId } = await furnished(app);
    const before = await rowsOf(app, gameId);

    // A failure after part of the deletion's write (the shares gone): all of it rolls back.
    let failing = true;
    app.app.services.events.on('games.deleted', () => {
      if (failing) throw new Error('killed half-way');
    });
    expect((await app.as('alice', { method: 'POST', url: `/v1/game/${gameId}/delete`, payload: { name: 'My world' } })).statusCode).toBe(500);
    const unchanged = await rowsOf(app, gameId);
    expect(unchanged.game).toMatchObject({ deletedAt: null, status: 'RUNNING', desiredState: 'running' });
    expect([unchanged.shares.length, unchanged.schedules.length, unchanged.players.length]).toEqual([before.shares.length, before.schedules.length, before.players.length]);
    failing = false;

    // The round dies after its backup, before the world is removed: the next one does it all again.
    expect((await app.as('alice', { method: 'POST', url: `/v1/game/${gameId}/delete`, payload: { name: 'My world' } })).statusCode).toBe(204);
    await app.app.services.reconciler.tick();
    await app.app.services.reconciler.tick();
    const remove = app.driver.remove.bind(app.driver);
    app.driver.remove = () => Promise.reject(new Error('killed half-way'));
    app.clock.advance(60_000);
    expect(await app.app.services.backupRounds.deletionRound()).toBe(0);
    expect((await rowsOf(app, gameId)).game.worldDeletedAt).toBeNull();
    app.driver.remove = remove;
    app.clock.advance(60_000);
    expect(await app.app.services.backupRounds.deletionRound()).toBe(1);
    expect((await rowsOf(app, gameId)).game.worldDeletedAt).not.toBeNull();
    // Only the newest of the round's backups stays.
    const stored = await app.app.services.db.select().from(backupsTable).where(eq(backupsTable.gameId, gameId));
    expect(stored.map((b) => [b.reason, b.status])).toEqual([['deletion', 'READY']]);
  });
});
