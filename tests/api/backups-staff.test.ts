import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../fixtures/app.ts';
import { buyGame, finishBackups, runGame } from '../fixtures/games.ts';

const staff = { roles: ['staff'] };
const support = { roles: ['support'] };

/** Takes a backup as the game's owner and waits for it to end; the backup as listed then. */
async function backUp(t: TestApp, gameId: string, owner = 'alice') {
  // The test clock stands still: each backup a second after the one before, as in life.
  t.clock.advance(1000);
  const res = await t.as(owner, { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: {} });
  expect(res.statusCode, res.body).toBe(202);
  await t.app.services.backups.idle();
  const list = await t.as(owner, { method: 'GET', url: `/v1/game/${gameId}/backups` });
  return list.json().data.find((b: { id: string }) => b.id === res.json().id) as { id: string; status: string; createdAt: string };
}

/** The audit log's entries about a game by staff (its owner's own actions, audited with the level they acted as, are left out). */
async function auditOf(t: TestApp, gameId: string) {
  const res = await t.as('boss', { ...staff, method: 'GET', url: `/v1/staff/audit?entity=game&entityId=${gameId}` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as Array<{ action: string; reason: string | null; actorName: string; after: unknown }>).filter(
    (entry) => !(entry.after && typeof entry.after === 'object' && 'as' in entry.after),
  );
}

// Each test runs the world tool as a child process several times: slow on a loaded machine.
describe('staff and a game’s backups', { timeout: 180_000 }, () => {
  const t = useTestApp();

  it('lets staff and support list another player’s backups, and refuses players the staff routes', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    const first = await backUp(t.current, gameId);
    const second = await backUp(t.current, gameId);

    for (const [name, as] of [
      ['boss', staff],
      ['helper', support],
    ] as const) {
      const res = await t.current.as(name, { ...as, method: 'GET', url: `/v1/staff/games/${gameId}/backups?size=1` });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ totalElements: 2, page: 0, size: 1, data: [{ id: second.id, status: 'READY', kind: 'MANUAL', createdBy: 'alice' }] });
      const next = (await t.current.as(name, { ...as, method: 'GET', url: `/v1/staff/games/${gameId}/backups?size=1&page=1` })).json();
      expect(next.data.map((b: { id: string }) => b.id)).toEqual([first.id]);
    }
    expect((await t.current.as('boss', { ...staff, method: 'GET', url: `/v1/staff/games/${randomUUID()}/backups` })).statusCode).toBe(404);

    // A player, even the owner, has no staff call: 403 before anything is looked at.
    for (const name of ['alice', 'bob']) {
      expect((await t.current.as(name, { method: 'GET', url: `/v1/staff/games/${gameId}/backups` })).statusCode).toBe(403);
      expect((await t.current.as(name, { method: 'POST', url: `/v1/staff/games/${gameId}/backups/${first.id}/restore`, payload: { reason: 'Mine' } })).statusCode).toBe(403);
    }
    // Support reads, never writes.
    const refused = await t.current.as('helper', { ...support, method: 'POST', url: `/v1/staff/games/${gameId}/backups/${first.id}/restore`, payload: { reason: 'Asked by the player' } });
    expect(refused.statusCode).toBe(403);
    expect(await auditOf(t.current, gameId)).toEqual([]);
  });

  it('restores a backup for its owner: 202, the old world back and the server running again, the reason in the audit log', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    const world = t.current.driver.worldDir(gameId);
    fs.writeFileSync(path.join(world, 'castle.txt'), 'before');
    const backup = await backUp(t.current, gameId);
    fs.writeFileSync(path.join(world, 'castle.txt'), 'after');
    fs.writeFileSync(path.join(world, 'griefed.txt'), 'oops');
    t.current.clock.advance(1000);

    // A reason is required.
    const url = `/v1/staff/games/${gameId}/backups/${backup.id}/restore`;
    expect((await t.current.as('boss', { ...staff, method: 'POST', url, payload: {} })).statusCode).toBe(400);
    expect((await t.current.as('boss', { ...staff, method: 'POST', url, payload: { reason: '   ' } })).statusCode).toBe(400);

    const send = () => t.current.as('boss', { ...staff, method: 'POST', url, payload: { reason: 'Griefed while away, ticket 42' }, headers: { 'idempotency-key': 'restore-42' } });
    const res = await send();
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ id: backup.id, gameId, status: 'READY' });
    // A retry with the same key answers the same, and neither restores nor records twice.
    const again = await send();
    expect(again.statusCode).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    await finishBackups(t.current);
    await t.current.app.services.reconciler.tick();
    await t.current.app.services.reconciler.tick();

    expect(fs.readFileSync(path.join(world, 'castle.txt'), 'utf8')).toBe('before');
    expect(fs.existsSync(path.join(world, 'griefed.txt'))).toBe(false);
    expect((await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json().status).toBe('RUNNING');
    // The owner's world was backed up first, and they are told it is back.
    const list = (await t.current.as('boss', { ...staff, method: 'GET', url: `/v1/staff/games/${gameId}/backups` })).json().data;
    expect(list[0]).toMatchObject({ kind: 'AUTOMATIC', status: 'READY', createdBy: null });
    const notices = (await t.current.as('alice', { method: 'GET', url: '/v1/user/notifications' })).json().data;
    expect(notices[0].data).toMatchObject({ key: 'backup.restored' });

    expect(await auditOf(t.current, gameId)).toEqual([
      expect.objectContaining({ action: 'backup.restore', actorName: 'boss', reason: 'Griefed while away, ticket 42', after: { backupId: backup.id, backupCreatedAt: backup.createdAt } }),
    ]);
  });

  it('answers 404 for an unknown game or backup and 409 while a backup runs, and records nothing for a refusal', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    const backup = await backUp(t.current, gameId);
    const other = await buyGame(t.current, 'bob', 'Bob world');
    const restore = (game: string, id: string) => t.current.as('boss', { ...staff, method: 'POST', url: `/v1/staff/games/${game}/backups/${id}/restore`, payload: { reason: 'Asked by the player' } });

    expect((await restore(gameId, randomUUID())).statusCode).toBe(404);
    expect((await restore(randomUUID(), backup.id)).statusCode).toBe(404);
    // Alice's backup under Bob's game.
    expect((await restore(other.gameId, backup.id)).statusCode).toBe(404);

    // The owner's backup is running: staff wait for it.
    expect((await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: {} })).statusCode).toBe(202);
    const busy = await restore(gameId, backup.id);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().code).toBe('backups.busy');
    await t.current.app.services.backups.idle();

    // A backup that is not READY cannot be put back: Bob's server never ran, so it has no world to keep.
    const failed = await backUp(t.current, other.gameId, 'bob');
    expect(failed.status).toBe('FAILED');
    expect((await restore(other.gameId, failed.id)).json()).toMatchObject({ status: 409, code: 'backups.notReady' });

    expect(await auditOf(t.current, gameId)).toEqual([]);
    expect(await auditOf(t.current, other.gameId)).toEqual([]);
  });
});
