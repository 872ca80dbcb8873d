import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { backups as backupsTable } from '../../src/server/db/schema/backups.ts';
import { useTestApp, type TestApp } from '../fixtures/app.ts';
import { buyGame, finishBackups, runGame, userId } from '../fixtures/games.ts';
import { befriend } from '../fixtures/social.ts';
import { worldEntries, zipOf } from '../fixtures/worlds.ts';

type Listed = { id: string; kind: string; reason: string | null; pinned: boolean };

/** The package of the game keeps `kept` backups. */
async function keeping(t: TestApp, packageId: string, kept: number) {
  const res = await t.as('boss', {
    roles: ['staff'],
    method: 'PUT',
    url: `/v1/definition/game/package?id=${packageId}`,
    payload: { name: { fr: 'Petit', en: 'Small' }, ramMb: 1024, maxPlayers: 10, periodDays: 30, priceCredits: 100, backupsKept: kept },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Takes a backup by hand and waits for it; its id. */
async function backUp(t: TestApp, gameId: string, who = 'alice'): Promise<string> {
  // The test clock stands still: each backup a second after the one before, as in life.
  t.clock.advance(1000);
  const res = await t.as(who, { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: {} });
  expect(res.statusCode, res.body).toBe(202);
  await t.app.services.backups.idle();
  return res.json().id as string;
}

/** Restores a backup and waits for the restore and the server's restart. */
async function restore(t: TestApp, gameId: string, backupId: string) {
  t.clock.advance(1000);
  const res = await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups/${backupId}/restore` });
  expect(res.statusCode, res.body).toBe(202);
  await finishBackups(t);
  await t.app.services.reconciler.tick();
  await t.app.services.reconciler.tick();
}

const list = async (t: TestApp, gameId: string) => (await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}/backups` })).json() as { data: Listed[]; quota: Record<string, number> };
const nextPrune = async (t: TestApp, gameId: string, restoring?: string) => {
  const res = await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}/backups/next-prune${restoring ? `?restoring=${restoring}` : ''}` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as Listed[]).map((b) => b.id);
};
const lastNotice = async (t: TestApp) => (await t.as('alice', { method: 'GET', url: '/v1/user/notifications' })).json().data[0].data as { key: string };

/** READY backups written straight to the database, oldest first: no archive is read by what uses them. */
async function readyRows(t: TestApp, gameId: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const [row] = await t.app.services.db
      .insert(backupsTable)
      .values({ gameId, kind: 'MANUAL', status: 'READY', objectKey: `games/${gameId}/row-${i}.zip`, sizeBytes: 1000, createdAt: new Date(t.clock.now.getTime() + i * 1000) })
      .returning();
    ids.push(row!.id);
  }
  return ids;
}

// Real backups and restores run child processes (the world tool): slow on a loaded machine.
describe('the backup quota, pins and who may remove a backup', { timeout: 300_000 }, () => {
  const t = useTestApp();

  it('prunes automatic backups before manual ones, says why each automatic one was taken, shows the quota and names what the next backup would prune', async () => {
    const { gameId, smallId } = await buyGame(t.current);
    await keeping(t.current, smallId, 3);
    await runGame(t.current, gameId);
    const manual = await backUp(t.current, gameId);
    // Two restores and an upload: an automatic backup before each, a second apart (the test's clock
    // stands still otherwise, and backups of one instant would be ordered by their random ids).
    t.current.clock.advance(1000);
    await restore(t.current, gameId, manual);
    t.current.clock.advance(1000);
    await restore(t.current, gameId, manual);
    const before = await list(t.current, gameId);
    const [second, first] = before.data;
    expect(before.quota).toMatchObject({ kept: 3, count: 3 });
    // The next backup would prune the oldest automatic one, not the manual one.
    expect(await nextPrune(t.current, gameId)).toEqual([first!.id]);

    t.current.clock.advance(1000);
    const upload = await t.current.as('alice', { method: 'PUT', url: `/v1/game/${gameId}/world`, payload: await zipOf(worldEntries()), headers: { 'content-type': 'application/zip' } });
    expect(upload.statusCode, upload.body).toBe(202);
    await finishBackups(t.current);

    const after = await list(t.current, gameId);
    expect(after.data.map((b) => [b.kind, b.reason])).toEqual([
      ['AUTOMATIC', 'beforeUpload'],
      ['AUTOMATIC', 'beforeRestore'],
      ['MANUAL', null],
    ]);
    expect(after.data.map((b) => b.id)).toEqual([after.data[0]!.id, second!.id, manual]);
    expect(after.quota).toMatchObject({ kept: 3, count: 3 });
    expect(after.quota.sizeBytes).toBeGreaterThan(0);
    // Restoring the older automatic one would prune the newer one instead of it.
    expect(await nextPrune(t.current, gameId)).toEqual([second!.id]);
    expect(await nextPrune(t.current, gameId, second!.id)).toEqual([after.data[0]!.id]);
  });

  it('never prunes the backup being restored, nor one a download link is valid for', async () => {
    const { gameId, smallId } = await buyGame(t.current);
    await keeping(t.current, smallId, 3);
    await runGame(t.current, gameId);
    const world = t.current.driver.worldDir(gameId);
    fs.writeFileSync(path.join(world, 'castle.txt'), 'oldest');
    const oldest = await backUp(t.current, gameId);
    fs.writeFileSync(path.join(world, 'castle.txt'), 'newer');
    const middle = await backUp(t.current, gameId);
    const newest = await backUp(t.current, gameId);

    // The quota is full: the backup before the restore prunes the next oldest, never the one restored.
    expect(await nextPrune(t.current, gameId, oldest)).toEqual([middle]);
    await restore(t.current, gameId, oldest);
    expect(await lastNotice(t.current)).toMatchObject({ key: 'backup.restored' });
    expect(fs.readFileSync(path.join(world, 'castle.txt'), 'utf8')).toBe('oldest');
    const [automatic] = (await list(t.current, gameId)).data;
    expect((await list(t.current, gameId)).data.map((b) => b.id)).toEqual([automatic!.id, newest, oldest]);

    // A link to the oldest keeps it while the link is valid: the next backup prunes another.
    const link = await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups/${oldest}/link` });
    expect(link.statusCode).toBe(200);
    expect(await nextPrune(t.current, gameId)).toEqual([automatic!.id]);
    const next = await backUp(t.current, gameId);
    expect(await nextPrune(t.current, gameId)).toEqual([newest]);
    const last = await backUp(t.current, gameId);
    expect((await list(t.current, gameId)).data.map((b) => b.id)).toEqual([last, next, oldest]);
    // Once the link is over, it may go.
    t.current.clock.advance(11 * 60_000);
    expect(await nextPrune(t.current, gameId)).toEqual([oldest]);
  });

  it('lets a co-admin take, pin and note backups, but only the owner unpins or deletes one', async () => {
    const { gameId } = await buyGame(t.current);
    await befriend(t.current, 'alice', 'bob');
    const share = await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/access`, payload: { friendId: await userId(t.current, 'bob'), role: 'COADMIN' } });
    expect(share.statusCode, share.body).toBe(201);
    const [owners, other] = await readyRows(t.current, gameId, 2);
    const patch = (who: string, id: string, payload: object) => t.current.as(who, { method: 'PATCH', url: `/v1/game/${gameId}/backups/${id}`, payload });
    expect((await patch('alice', owners!, { pinned: true })).statusCode).toBe(200);

    // The co-admin cannot make the owner's pinned backup prunable, nor delete any.
    const unpin = await patch('bob', owners!, { pinned: false });
    expect(unpin.statusCode).toBe(403);
    expect(unpin.json()).toMatchObject({ code: 'backups.ownerUnpins' });
    expect(unpin.json().detail).toMatch(/propriétaire/);
    const del = await t.current.as('bob', { method: 'DELETE', url: `/v1/game/${gameId}/backups/${other}` });
    expect(del.statusCode).toBe(403);
    expect(del.json()).toMatchObject({ code: 'sharing.roleTooLow' });
    const rows = await t.current.app.services.db.select().from(backupsTable).where(eq(backupsTable.gameId, gameId));
    expect(rows.map((r) => [r.id, r.pinned]).sort()).toEqual(
      [
        [owners, true],
        [other, false],
      ].sort(),
    );

    // What the co-admin may do.
    expect((await patch('bob', other!, { pinned: true, note: 'Avant le château' })).json()).toMatchObject({ pinned: true, note: 'Avant le château' });
    expect((await patch('bob', owners!, { note: 'Le bon' })).json()).toMatchObject({ pinned: true, note: 'Le bon' });
    // The owner may do everything.
    expect((await patch('alice', owners!, { pinned: false })).json()).toMatchObject({ pinned: false });
    expect((await t.current.as('alice', { method: 'DELETE', url: `/v1/game/${gameId}/backups/${owners}` })).statusCode).toBe(204);
  });

  it('never pins beyond the quota, even with two pins at once for the last place', async () => {
    const { gameId, smallId } = await buyGame(t.current);
    await keeping(t.current, smallId, 3);
    const ids = await readyRows(t.current, gameId, 5);
    const pin = (id: string) => t.current.as('alice', { method: 'PATCH', url: `/v1/game/${gameId}/backups/${id}`, payload: { pinned: true } });
    for (let round = 0; round < 6; round++) {
      await t.current.app.services.db.update(backupsTable).set({ pinned: false }).where(eq(backupsTable.gameId, gameId));
      expect((await pin(ids[0]!)).statusCode).toBe(200);
      expect((await pin(ids[1]!)).statusCode).toBe(200);
      const answers = await Promise.all([pin(ids[2]!), pin(ids[3]!), pin(ids[4]!)]);
      expect(answers.map((res) => res.statusCode).sort(), `round ${round}`).toEqual([200, 409, 409]);
      const pinned = (await t.current.app.services.db.select().from(backupsTable).where(eq(backupsTable.gameId, gameId))).filter((r) => r.pinned);
      expect(pinned, `round ${round}`).toHaveLength(3);
    }
  });
});
