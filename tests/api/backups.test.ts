import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { CreateMultipartUploadCommand, ListMultipartUploadsCommand, S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { backups as backupsTable, backupSettings } from '../../src/server/db/schema/backups.ts';
import { games } from '../../src/server/db/schema/games.ts';
import { createStore } from '../../src/server/storage/index.ts';
import { startTestApp, type TestApp } from '../fixtures/app.ts';
import { buyGame, finishBackups, runGame } from '../fixtures/games.ts';
import { s3Env, startS3Server, type S3Server } from '../fixtures/s3-server.ts';
import { contents, declaring, renamed, worldEntries, zipOf } from '../fixtures/worlds.ts';

/** The entries of a zip, names only. */
function zipEntries(zip: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err || !file) return reject(err ?? new Error('no zip'));
      const names: string[] = [];
      file.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        file.readEntry();
      });
      file.on('end', () => resolve(names));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A zip bomb for real, 100 MB of zeros in 100 KB: made once for the file, since deflating it takes over a second. */
let bombZip: Promise<Buffer> | undefined;
const bomb = () => (bombZip ??= zipOf([...worldEntries(), { name: 'world/region/r.1.1.mca', data: Buffer.alloc(100 * 1024 * 1024) }]));

/** The same suite on the embedded store (a folder) and on a real S3-compatible server. */
// Each test runs real child processes (the world tool) several times: slow on a loaded machine.
describe.each(['local', 's3'] as const)('backups on the %s store', { timeout: 180_000 }, (store) => {
  let s3: S3Server | undefined;
  let t: TestApp;
  const env = (): Record<string, string> => (s3 ? s3Env(s3) : {});

  beforeAll(async () => {
    if (store === 's3') s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3?.stop();
  });

  const fresh = async () => {
    t = await startTestApp(env());
    return t;
  };
  const close = () => t.close();
  /** The store the app keeps its archives in, seen from outside. */
  const objects = () => createStore(t.config.backupStore);
  /**
   * What a writer of `key` killed half-way leaves: locally a temp file of the size it wrote, on S3 a
   * multipart upload. Answers what of it is still there, by key.
   */
  const killedWrite = async (key: string): Promise<() => Promise<string[]>> => {
    const half = Buffer.alloc(6 * 1024 * 1024, 7);
    if (s3) {
      const client = new S3Client({ endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: s3 });
      const bucket = s3.bucket;
      const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
      await client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: 1, Body: half }));
      return async () => ((await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: key }))).Uploads ?? []).map((u) => u.Key!);
    }
    const location = await objects().writeLocation(key, 60);
    fs.writeFileSync((location as { path: string }).path, half);
    const dir = path.dirname((location as { path: string }).path);
    return async () =>
      fs
        .readdirSync(dir)
        .filter((name) => name.endsWith('.partial'))
        .map(() => key);
  };

  /** Takes a backup and waits for it to end; the backup as listed then. */
  const backUp = async (gameId: string, note?: string) => {
    // The test clock stands still: each backup a second after the one before, as in life.
    t.clock.advance(1000);
    const res = await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: note ? { note } : {} });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ status: 'PENDING', kind: 'MANUAL' });
    await t.app.services.backups.idle();
    const list = await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}/backups` });
    return list.json().data.find((b: { id: string }) => b.id === res.json().id);
  };

  /** Uploads a world; waits for its restore when accepted. */
  const upload = async (gameId: string, zip: Buffer) => {
    const res = await t.as('alice', { method: 'PUT', url: `/v1/game/${gameId}/world`, payload: zip, headers: { 'content-type': 'application/zip' } });
    if (res.statusCode === 202) await finish();
    return res;
  };
  const finish = () => finishBackups(t);

  /** Follows a download link as a browser would: no token, redirects followed. */
  const download = async (url: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ method: 'GET', url: new URL(url).pathname + new URL(url).search, headers });
    if (res.statusCode !== 302) return { status: res.statusCode, headers: res.headers, body: res.rawPayload };
    const redirected = await fetch(String(res.headers.location), { headers });
    return { status: redirected.status, headers: Object.fromEntries(redirected.headers), body: Buffer.from(await redirected.arrayBuffer()) };
  };

  it('backs up a running world: READY with its size and sha256, listed newest first, downloadable as a zip Minecraft opens', async () => {
    await fresh();
    try {
      const { gameId } = await buyGame(t);
      await runGame(t, gameId);
      const first = await backUp(gameId, 'Before the castle');
      expect(first).toMatchObject({ kind: 'MANUAL', status: 'READY', pinned: false, note: 'Before the castle', createdBy: 'alice', error: null });
      expect(first.sizeBytes).toBeGreaterThan(100);
      const second = await backUp(gameId);
      const list = (await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}/backups` })).json();
      expect(list.data.map((b: { id: string }) => b.id)).toEqual([second.id, first.id]);
      // Still running: players stay connected through a backup.
      expect((await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json().status).toBe('RUNNING');

      const link = await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups/${first.id}/link` });
      expect(link.statusCode, link.body).toBe(200);
      expect(new Date(link.json().expiresAt).getTime() - t.clock.now.getTime()).toBe(10 * 60_000);
      const zip = await download(link.json().url);
      expect(zip.status).toBe(200);
      expect(String(zip.headers['content-disposition'])).toMatch(/^attachment; filename="My-world-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}\.zip"/);
      // Named after the backup's time on the downloader's clock: Tokyo's is nine hours ahead of UTC's.
      const stamp = (d: Date) => `${d.toISOString().slice(0, 16).replace(/[T:]/g, '-')}`;
      const tokyo = await download(`${link.json().url}?tz=Asia%2FTokyo`);
      expect(String(tokyo.headers['content-disposition'])).toContain(`filename="My-world-${stamp(new Date(Date.parse(first.createdAt) + 9 * 3600_000))}.zip"`);
      const unknownZone = await download(`${link.json().url}?tz=Mars%2FOlympus`);
      expect(unknownZone.status).toBe(400);
      expect(zip.body.length).toBe(first.sizeBytes);
      expect(sha256(zip.body)).toBe(first.sha256);
      expect(await zipEntries(zip.body)).toEqual(expect.arrayContaining(['world/level.dat', 'world/region/r.0.0.mca']));

      // A range, as a resumed download asks for it.
      const part = await download(link.json().url, { range: 'bytes=10-19' });
      expect(part.status).toBe(206);
      expect(part.body).toEqual(zip.body.subarray(10, 20));
      if (store === 'local') {
        expect(part.headers['content-range']).toBe(`bytes 10-19/${first.sizeBytes}`);
        expect((await download(link.json().url, { range: `bytes=${first.sizeBytes + 5}-` })).status).toBe(416);
      }
    } finally {
      await close();
    }
  });

  it('refuses a second backup while one runs, and a backup of a world never started fails without keeping anything', async () => {
    await fresh();
    try {
      const { gameId } = await buyGame(t);
      const never = await backUp(gameId);
      expect(never).toMatchObject({ status: 'FAILED', sizeBytes: null });
      expect(never.error).toMatch(/pas encore de monde|no world yet/);

      await runGame(t, gameId);
      const first = await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: {} });
      const second = await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: {} });
      expect(first.statusCode).toBe(202);
      expect(second.statusCode).toBe(409);
      expect(second.json().code).toBe('backups.busy');
      await t.app.services.backups.idle();
      expect((await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: {} })).statusCode).toBe(202);
      await t.app.services.backups.idle();
    } finally {
      await close();
    }
  });

  it('restores a backup: the current world is backed up first, the server stopped, the old world put back and the server started again', async () => {
    await fresh();
    try {
      const { gameId } = await buyGame(t);
      await runGame(t, gameId);
      const world = t.driver.worldDir(gameId);
      fs.writeFileSync(path.join(world, 'castle.txt'), 'before');
      const backup = await backUp(gameId);
      fs.writeFileSync(path.join(world, 'castle.txt'), 'after');
      fs.writeFileSync(path.join(world, 'griefed.txt'), 'oops');
      t.clock.advance(1000);

      const res = await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups/${backup.id}/restore` });
      expect(res.statusCode, res.body).toBe(202);
      // A second restore or a backup meanwhile is refused.
      expect((await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: {} })).json().code).toBe('backups.busy');
      // The reconciler stops the server for the restore, then starts it again.
      await finish();
      await t.app.services.reconciler.tick();
      await t.app.services.reconciler.tick();

      expect(fs.readFileSync(path.join(world, 'castle.txt'), 'utf8')).toBe('before');
      expect(fs.existsSync(path.join(world, 'griefed.txt'))).toBe(false);
      const calls = t.driver.calls.filter((c) => /^(backup|stop|restore|start) /.test(c)).map((c) => c.split(' ')[0]);
      expect(calls.slice(-4)).toEqual(['backup', 'stop', 'restore', 'start']);
      expect((await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json().status).toBe('RUNNING');

      const list = (await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}/backups` })).json().data;
      expect(list[0]).toMatchObject({ kind: 'AUTOMATIC', status: 'READY', createdBy: null });
      const notices = (await t.as('alice', { method: 'GET', url: '/v1/user/notifications' })).json().data;
      expect(notices[0].data).toMatchObject({ key: 'backup.restored', title: '« My world » restauré' });
    } finally {
      await close();
    }
  });

  it('refuses power actions while a backup or a restore holds the game, saying which, and takes them again once it ended', async () => {
    await fresh();
    let release = () => {};
    try {
      const { gameId } = await buyGame(t);
      await runGame(t, gameId);
      const act = (action: string) => t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/${action}` });
      // A backup of the running world, held half way.
      t.driver.backupGate = new Promise((resolve) => (release = resolve));
      expect((await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: {} })).statusCode).toBe(202);
      expect((await act('stop')).json()).toMatchObject({ status: 409, code: 'games.busyBackingUp', detail: 'Une sauvegarde de ce serveur est en cours : réessayez une fois terminée' });
      expect((await act('restart')).json()).toMatchObject({ status: 409, code: 'games.busyBackingUp' });
      release();
      t.driver.backupGate = undefined;
      await finish();
      const [backup] = (await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}/backups` })).json().data;
      expect((await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json().status).toBe('RUNNING');

      // A restore: until its world is back, neither the owner's stop nor a start goes through.
      expect((await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups/${backup.id}/restore` })).statusCode).toBe(202);
      expect((await act('stop')).json()).toMatchObject({ status: 409, code: 'games.busyRestoring' });
      expect((await act('start')).json()).toMatchObject({ status: 409, code: 'games.busyRestoring' });
      await finish();
      await t.app.services.reconciler.tick();
      await t.app.services.reconciler.tick();
      expect((await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json().status).toBe('RUNNING');
      expect((await act('stop')).statusCode).toBe(200);
    } finally {
      release();
      t.driver.backupGate = undefined;
      await close();
    }
  });

  it('frees the game as its backup turns READY: a restore asked the moment it shows READY is taken', async () => {
    await fresh();
    try {
      const { gameId } = await buyGame(t);
      await runGame(t, gameId);
      const taken = await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: {} });
      expect(taken.statusCode).toBe(202);
      const listed = async () => (await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}/backups` })).json().data[0];
      await expect.poll(listed, { interval: 5, timeout: 20_000 }).toMatchObject({ id: taken.json().id, status: 'READY' });
      const restore = await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups/${taken.json().id}/restore` });
      expect(restore.statusCode, restore.body).toBe(202);
      await finish();
    } finally {
      await close();
    }
  });

  it('resumes a restore whose process died half-way: the world put back, the server started again, the owner told', async () => {
    await fresh();
    try {
      const { gameId } = await buyGame(t);
      await runGame(t, gameId);
      const world = t.driver.worldDir(gameId);
      fs.writeFileSync(path.join(world, 'castle.txt'), 'before');
      const backup = await backUp(gameId);
      fs.writeFileSync(path.join(world, 'castle.txt'), 'after');
      const { db } = t.app.services;
      // What a restore leaves when its process is killed once it stopped the server: the game's lock
      // held by the dead process, the server stopped, the journal written.
      expect((await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/stop` })).statusCode).toBe(200);
      await t.app.services.reconciler.tick();
      await t.app.services.reconciler.tick();
      expect((await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json().status).toBe('STOPPED');
      const heldUntil = new Date(t.clock.now.getTime() + 60_000);
      await db
        .update(backupSettings)
        .set({
          restoreFrom: (await db.select().from(backupsTable).where(eq(backupsTable.id, backup.id)))[0]!.objectKey,
          restoreAt: new Date(backup.createdAt),
          restoreRestart: true,
        })
        .where(eq(backupSettings.gameId, gameId));
      await db.update(games).set({ lockedFor: 'RESTORE', lockedUntil: heldUntil }).where(eq(games.id, gameId));

      // Within the minute the dead process's lock holds: nothing is resumed, nothing else may start.
      await t.app.services.backupRounds.sweep();
      expect((await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: {} })).json().code).toBe('backups.busy');
      // Once it lapsed, the next sweep (at start, or each minute) takes it up again.
      t.clock.advance(61_000);
      await t.app.services.backupRounds.sweep();
      await finish();
      await t.app.services.reconciler.tick();
      await t.app.services.reconciler.tick();

      expect(fs.readFileSync(path.join(world, 'castle.txt'), 'utf8')).toBe('before');
      expect((await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json().status).toBe('RUNNING');
      const notices = (await t.as('alice', { method: 'GET', url: '/v1/user/notifications' })).json().data;
      expect(notices[0].data).toMatchObject({ key: 'backup.restoreResumed', title: '« My world » restauré après une interruption', params: { name: 'My world', at: backup.createdAt } });
      // Done once: the game is free again, and a later sweep resumes nothing.
      t.clock.advance(61_000);
      await t.app.services.backupRounds.sweep();
      expect(t.driver.calls.filter((c) => c.startsWith('restore ')).length).toBe(1);
      expect((await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: {} })).statusCode).toBe(202);
      await finish();
    } finally {
      await close();
    }
  });

  it('refuses a broken archive at restore and leaves the world exactly as it was', async () => {
    await fresh();
    try {
      const { gameId } = await buyGame(t);
      await runGame(t, gameId);
      const backup = await backUp(gameId);
      const row = (await t.app.services.db.select().from(backupsTable)).find((b) => b.id === backup.id)!;
      // The stored archive is damaged (a disk error, a bad upload): it is no zip any more.
      await objects().put(row.objectKey, fsStream('not a zip at all'));
      const world = t.driver.worldDir(gameId);
      fs.writeFileSync(path.join(world, 'castle.txt'), 'now');
      const before = contents(world);
      expect((await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups/${backup.id}/restore` })).statusCode).toBe(202);
      await finish();
      expect(contents(world)).toEqual(before);
      const notices = (await t.as('alice', { method: 'GET', url: '/v1/user/notifications' })).json().data;
      expect(notices[0].data).toMatchObject({ key: 'backup.restoreFailed' });
    } finally {
      await close();
    }
  });

  it('prunes the oldest unpinned backups beyond the package quota, pinned ones counted but never pruned, and refuses pinning beyond it', async () => {
    await fresh();
    try {
      const { gameId, smallId, definitionId } = await buyGame(t);
      const pkg = await t.as('boss', {
        roles: ['staff'],
        method: 'PUT',
        url: `/v1/definition/game/package?id=${smallId}`,
        payload: { name: { fr: 'Petit', en: 'Small' }, ramMb: 1024, maxPlayers: 10, periodDays: 30, priceCredits: 100, backupsKept: 2 },
      });
      expect(pkg.statusCode, pkg.body).toBe(200);
      expect(pkg.json()).toMatchObject({ backupsKept: 2, definitionId });
      await runGame(t, gameId);
      const a = await backUp(gameId);
      const pin = await t.as('alice', { method: 'PATCH', url: `/v1/game/${gameId}/backups/${a.id}`, payload: { pinned: true } });
      expect(pin.json()).toMatchObject({ pinned: true });
      const b = await backUp(gameId);
      const c = await backUp(gameId);
      const d = await backUp(gameId);
      const ids = async () => (await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}/backups` })).json().data.map((x: { id: string }) => x.id);
      // Two kept by the quota: the pinned one and the newest.
      expect(await ids()).toEqual([d.id, a.id]);
      expect([b.id, c.id]).not.toContain(d.id);
      expect((await t.as('alice', { method: 'PATCH', url: `/v1/game/${gameId}/backups/${d.id}`, payload: { pinned: true } })).statusCode).toBe(200);
      // Every place pinned: the new backup stays over the quota, and cannot be pinned.
      const e = await backUp(gameId);
      expect(await ids()).toEqual([e.id, d.id, a.id]);
      const refused = await t.as('alice', { method: 'PATCH', url: `/v1/game/${gameId}/backups/${e.id}`, payload: { pinned: true } });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().code).toBe('backups.pinQuota');
      expect(refused.json().detail).toContain('2');
    } finally {
      await close();
    }
  });

  it('deletes a backup and its archive; its link stops working; links expire after 10 minutes', async () => {
    await fresh();
    try {
      const { gameId } = await buyGame(t);
      await runGame(t, gameId);
      const a = await backUp(gameId);
      const b = await backUp(gameId);
      const linkB = (await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups/${b.id}/link` })).json().url;
      t.clock.advance(11 * 60_000);
      expect((await download(linkB)).status).toBe(404);

      const linkA = (await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups/${a.id}/link` })).json().url;
      const [row] = (await t.app.services.db.select().from(backupsTable)).filter((r) => r.id === a.id);
      expect((await t.as('alice', { method: 'DELETE', url: `/v1/game/${gameId}/backups/${a.id}` })).statusCode).toBe(204);
      expect(await objects().stat(row!.objectKey)).toBeNull();
      expect((await download(linkA)).status).toBe(404);
      expect((await t.as('alice', { method: 'DELETE', url: `/v1/game/${gameId}/backups/${a.id}` })).statusCode).toBe(404);
    } finally {
      await close();
    }
  });

  it('replaces the world by an uploaded .zip, after an automatic backup of the current one', async () => {
    await fresh();
    try {
      const { gameId } = await buyGame(t);
      await runGame(t, gameId);
      const res = await upload(gameId, await zipOf(worldEntries('My Single Player World')));
      expect(res.statusCode, res.body).toBe(202);
      await t.app.services.reconciler.tick();
      await t.app.services.reconciler.tick();
      expect(fs.readFileSync(path.join(t.driver.worldDir(gameId), 'marker.txt'), 'utf8')).toBe('restored');
      expect((await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json().status).toBe('RUNNING');
      const list = (await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}/backups` })).json().data;
      expect(list).toEqual([expect.objectContaining({ kind: 'AUTOMATIC', status: 'READY' })]);
      // The uploaded archive is not kept beside the backups.
      expect(await objects().list(`games/${gameId}/uploads/`)).toEqual([]);
    } finally {
      await close();
    }
  });

  it('keeps the game locked while a slow upload still streams, past a minute: a restore asked meanwhile is refused', async () => {
    await fresh();
    try {
      const { gameId } = await buyGame(t);
      await runGame(t, gameId);
      const backup = await backUp(gameId);
      const zip = await zipOf(worldEntries('Uploaded'));
      const uploads = path.join(t.config.dataDir, 'uploads');
      /** Resolves once the API has written `bytes` of the upload to its temporary file. */
      const received = (bytes: number) => until(() => fs.existsSync(uploads) && fs.readdirSync(uploads).some((name) => fs.statSync(path.join(uploads, name)).size >= bytes));
      const body = new PassThrough();
      const uploading = t.as('alice', { method: 'PUT', url: `/v1/game/${gameId}/world`, payload: body, headers: { 'content-type': 'application/zip' } });
      body.write(zip.subarray(0, 100));
      await received(100);
      // The player's connection is slow: 45 s between parts, 90 s in all.
      t.clock.advance(45_000);
      body.write(zip.subarray(100, 200));
      await received(200);
      t.clock.advance(45_000);
      const restore = await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups/${backup.id}/restore` });
      expect([restore.statusCode, restore.json().code]).toEqual([409, 'backups.busy']);

      body.end(zip.subarray(200));
      const res = await uploading;
      expect(res.statusCode, res.body).toBe(202);
      await finish();
      await t.app.services.reconciler.tick();
      await t.app.services.reconciler.tick();
      // The uploaded world is the one in place, and nothing else ran beside it.
      expect(fs.readFileSync(path.join(t.driver.worldDir(gameId), 'marker.txt'), 'utf8')).toBe('restored');
      expect(t.driver.calls.filter((c) => c.startsWith('restore ')).length).toBe(1);
    } finally {
      await close();
    }
  });

  it('refuses an upload that is no world or is unsafe with a clear reason, and changes nothing', async () => {
    await fresh();
    try {
      const { gameId } = await buyGame(t);
      await runGame(t, gameId);
      const world = t.driver.worldDir(gameId);
      const before = contents(world);
      const entries = worldEntries();
      for (const [zip, code] of [
        [Buffer.from('this is not a zip'), 'archive.not-zip'],
        [renamed(await zipOf([...entries, { name: 'world/aa/evil', data: 'x' }]), 'aa/evil', '../evil'), 'archive.unsafe-path'],
        [renamed(await zipOf([...entries, { name: 'xetc/evil', data: 'x' }]), 'xetc/evil', '/etc/evil'), 'archive.unsafe-path'],
        [await zipOf([{ name: 'world/region/r.0.0.mca', data: 'x' }]), 'archive.no-level-dat'],
        // Zip bombs: three entries declaring 4 GB each, 12 GB in all; 100 MB of zeros in 100 KB, for real.
        [['world/level.dat', 'world/region/r.0.0.mca', 'world/marker.txt'].reduce((zip, name) => declaring(zip, name, 0xffffffff), await zipOf(entries)), 'archive.ratio'],
        [await bomb(), 'archive.ratio'],
      ] as const) {
        const res = await upload(gameId, zip);
        expect(res.statusCode, code).toBe(422);
        expect(res.json().code).toBe(code);
        expect(res.json().detail).not.toMatch(/^archive\./);
      }
      // Said in the caller's language: French by default, English when asked.
      const fr = await t.as('alice', { method: 'PUT', url: `/v1/game/${gameId}/world`, payload: await bomb(), headers: { 'content-type': 'application/zip' } });
      expect(fr.json().detail).toBe('L’archive ferait plus de 20 fois sa taille une fois décompressée, ce qu’aucun monde ne fait : elle est refusée');
      const en = await t.as('alice', { method: 'PUT', url: `/v1/game/${gameId}/world`, payload: await bomb(), headers: { 'content-type': 'application/zip', cookie: 'locale=en' } });
      expect(en.json().detail).toBe('The archive would unpack to more than 20 times its size, which no world does: it is refused');
      expect(contents(world)).toEqual(before);
      expect((await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}/backups` })).json().data).toEqual([]);
      expect(await objects().list(`games/${gameId}/`)).toEqual([]);
      expect((await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json().status).toBe('RUNNING');
      // Another player's game: 404, nothing read.
      expect((await t.as('bob', { method: 'PUT', url: `/v1/game/${gameId}/world`, payload: await zipOf(entries), headers: { 'content-type': 'application/zip' } })).statusCode).toBe(404);
    } finally {
      await close();
    }
  });

  it('shows nothing of another player’s game or backups: 404 everywhere', async () => {
    await fresh();
    try {
      const { gameId } = await buyGame(t);
      await runGame(t, gameId);
      const backup = await backUp(gameId);
      const other = await buyGame(t, 'bob', 'Bob world');
      for (const [method, url] of [
        ['GET', `/v1/game/${gameId}/backups`],
        ['POST', `/v1/game/${gameId}/backups`],
        ['POST', `/v1/game/${gameId}/backups/${backup.id}/link`],
        ['POST', `/v1/game/${gameId}/backups/${backup.id}/restore`],
        ['PATCH', `/v1/game/${gameId}/backups/${backup.id}`],
        ['DELETE', `/v1/game/${gameId}/backups/${backup.id}`],
        ['GET', `/v1/game/${gameId}/backup-settings`],
        // Alice's backup under Bob's game.
        ['POST', `/v1/game/${other.gameId}/backups/${backup.id}/link`],
      ] as const) {
        const payload = method === 'PATCH' ? { pinned: true } : method === 'POST' ? {} : undefined;
        const res = await t.as('bob', { method, url, ...(payload ? { payload } : {}) });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
      expect((await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}/backups` })).json().data).toHaveLength(1);
    } finally {
      await close();
    }
  });

  it('ends a backup cut off by a crash FAILED and deletes its partial archive', async () => {
    await fresh();
    try {
      const { gameId } = await buyGame(t);
      const { db } = t.app.services;
      const objectKey = `games/${gameId}/partial.zip`;
      await objects().put(objectKey, fsStream('half a zip'));
      const unfinished = `games/${gameId}/killed.zip`;
      const leftovers = await killedWrite(unfinished);
      expect(await leftovers()).toHaveLength(1);
      const stale = new Date(t.clock.now.getTime() - 5 * 60_000);
      const [row] = await db.insert(backupsTable).values({ gameId, kind: 'MANUAL', status: 'RUNNING', objectKey, heartbeatAt: stale }).returning();
      const [killed] = await db.insert(backupsTable).values({ gameId, kind: 'NIGHTLY', status: 'RUNNING', objectKey: unfinished, heartbeatAt: stale }).returning();
      expect(await t.app.services.backupRounds.sweep()).toBe(2);
      const listed = (await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}/backups` })).json().data;
      expect(listed).toEqual(expect.arrayContaining([expect.objectContaining({ id: row!.id, status: 'FAILED' }), expect.objectContaining({ id: killed!.id, status: 'FAILED' })]));
      expect(await objects().stat(objectKey)).toBeNull();
      expect(await leftovers()).toEqual([]);
    } finally {
      await close();
    }
  });

  it('deletes what an upload cut off by a crash left, locally and in storage, and frees the game', async () => {
    await fresh();
    try {
      const { gameId } = await buyGame(t);
      const { db, backupRounds } = t.app.services;
      // A process killed mid-upload: its local copy, its stored copy half written, and its lock never released.
      const uploads = path.join(t.config.dataDir, 'uploads');
      fs.mkdirSync(uploads, { recursive: true });
      fs.writeFileSync(path.join(uploads, `${gameId}.zip`), Buffer.alloc(1024 * 1024, 1));
      const leftovers = await killedWrite(`games/${gameId}/uploads/world.zip`);
      expect(await leftovers()).toHaveLength(1);
      const lapsed = new Date(t.clock.now.getTime() - 5 * 60_000);
      await db.update(games).set({ lockedFor: 'RESTORE', lockedUntil: lapsed }).where(eq(games.id, gameId));

      await backupRounds.sweep();
      expect(await leftovers()).toEqual([]);
      expect(fs.readdirSync(uploads)).toEqual([]);
      const [game] = await db.select().from(games).where(eq(games.id, gameId));
      expect(game).toMatchObject({ lockedFor: null, lockedUntil: null });
    } finally {
      await close();
    }
  });

  it('keeps the nightly backup settings in the owner’s time zone and refuses an unknown zone', async () => {
    await fresh();
    try {
      const { gameId } = await buyGame(t);
      expect((await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}/backup-settings` })).json()).toEqual({ nightly: true, hour: 4, timeZone: 'Europe/Paris' });
      const bad = await t.as('alice', { method: 'PUT', url: `/v1/game/${gameId}/backup-settings`, payload: { nightly: true, hour: 3, timeZone: 'Mars/Olympus' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors).toEqual([expect.objectContaining({ field: '/timeZone', code: 'backups.timeZone' })]);
      const saved = await t.as('alice', { method: 'PUT', url: `/v1/game/${gameId}/backup-settings`, payload: { nightly: true, hour: 3, timeZone: 'America/New_York' } });
      expect(saved.json()).toEqual({ nightly: true, hour: 3, timeZone: 'America/New_York' });
      expect((await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}/backup-settings` })).json()).toEqual({ nightly: true, hour: 3, timeZone: 'America/New_York' });
    } finally {
      await close();
    }
  });

  it('takes the nightly backup once at the owner’s hour, on running and stopped games, not on a game never started', async () => {
    await fresh();
    try {
      const { gameId } = await buyGame(t);
      const never = await buyGame(t, 'alice', 'Never started');
      await runGame(t, gameId);
      t.clock.now = new Date('2026-07-10T12:00:00Z');
      for (const id of [gameId, never.gameId]) {
        await t.as('alice', { method: 'PUT', url: `/v1/game/${id}/backup-settings`, payload: { nightly: true, hour: 3, timeZone: 'Europe/Paris' } });
      }
      const { backupRounds } = t.app.services;
      expect(await backupRounds.nightlyRound()).toBe(0);
      t.clock.now = new Date('2026-07-11T01:00:00Z');
      expect(await backupRounds.nightlyRound()).toBe(1);
      expect(await backupRounds.nightlyRound()).toBe(0);
      const list = (await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}/backups` })).json().data;
      expect(list).toEqual([expect.objectContaining({ kind: 'NIGHTLY', reason: 'nightly', status: 'READY' })]);
      expect((await t.as('alice', { method: 'GET', url: `/v1/game/${never.gameId}/backups` })).json().data).toEqual([]);
      t.clock.now = new Date('2026-07-12T01:00:00Z');
      expect(await backupRounds.nightlyRound()).toBe(1);
    } finally {
      await close();
    }
  });

  it('shows a running backup’s progress in the list, and none once it is READY', async () => {
    await fresh();
    try {
      const { gameId } = await buyGame(t);
      await runGame(t, gameId);
      let release!: () => void;
      t.driver.backupGate = new Promise((resolve) => (release = resolve));
      const res = await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: {} });
      expect(res.statusCode).toBe(202);
      const listed = async () => (await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}/backups` })).json().data[0];
      await expect.poll(listed, { timeout: 20_000 }).toMatchObject({ id: res.json().id, status: 'RUNNING', progress: 50 });
      release();
      t.driver.backupGate = undefined;
      await t.app.services.backups.idle();
      expect(await listed()).toMatchObject({ status: 'READY', progress: null, expiresAt: null });
    } finally {
      await close();
    }
  });

  it('backs an expired game’s world up once; past its retention only its last backup stays, to download, GAME_RETENTION_DAYS more', async () => {
    await fresh();
    try {
      const DAY = 24 * 3600_000;
      const { gameId, game } = await buyGame(t);
      await runGame(t, gameId);
      const older = await backUp(gameId);
      const olderKey = (await t.app.services.db.select().from(backupsTable)).find((b) => b.id === older.id)!.objectKey;
      const list = async () => (await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}/backups` })).json().data;
      const { backupRounds, renewals, reconciler } = t.app.services;

      // Unpaid at periodEnd (no credits left): the server is stopped and the game expires.
      t.clock.now = new Date(new Date(game.periodEnd).getTime() - 3 * DAY);
      await renewals.tick();
      t.clock.now = new Date(game.periodEnd);
      await renewals.tick();
      await reconciler.tick();
      await reconciler.tick();
      expect((await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json().status).toBe('EXPIRED');
      const expiredAt = t.clock.now.getTime();

      // One backup of the stopped world, once, however many rounds.
      expect(await backupRounds.expiryRound()).toBe(1);
      expect(await backupRounds.expiryRound()).toBe(0);
      const [last] = await list();
      expect(last).toMatchObject({ kind: 'AUTOMATIC', reason: 'expiry', status: 'READY', expiresAt: null });
      expect((await list()).map((b: { id: string }) => b.id)).toEqual([last.id, older.id]);

      // Past the retention (and a week after the notice), the world is deleted: only the last backup stays.
      t.clock.now = new Date(expiredAt + 23 * DAY);
      await renewals.tick();
      t.clock.now = new Date(expiredAt + 30 * DAY);
      await renewals.tick();
      expect(t.driver.calls).toContain(`remove ${gameId}`);
      const kept = await list();
      expect(kept).toEqual([expect.objectContaining({ id: last.id, expiresAt: new Date(expiredAt + 60 * DAY).toISOString() })]);
      await expect(objects().read(olderKey)).rejects.toThrow();
      // Downloadable, not restorable; no new backup of a world that is gone.
      expect((await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups/${last.id}/link` })).statusCode).toBe(200);
      const restore = await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups/${last.id}/restore` });
      expect([restore.statusCode, restore.json().code]).toEqual([409, 'backups.worldDeleted']);
      expect((await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: {} })).json().code).toBe('backups.worldDeleted');

      // GAME_RETENTION_DAYS later it goes too.
      t.clock.now = new Date(expiredAt + 60 * DAY - 1000);
      await backupRounds.expiryRound();
      expect(await list()).toHaveLength(1);
      t.clock.now = new Date(expiredAt + 60 * DAY);
      await backupRounds.expiryRound();
      expect(await list()).toEqual([]);
    } finally {
      await close();
    }
  });
});

/** Resolves once `condition` holds, checked every 20 ms (the API's work runs meanwhile). */
async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function fsStream(text: string): NodeJS.ReadableStream {
  return Readable.from([Buffer.from(text)]);
}
