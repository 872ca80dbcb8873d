import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { startTestApp, useTestApp, type TestApp } from '../fixtures/app.ts';
import { createStore } from '../../src/server/storage/index.ts';
import { s3Env, startS3Server, type S3Server } from '../fixtures/s3-server.ts';
import { buyGame, catalogue, fund, runGame, userId } from '../fixtures/games.ts';

const NOBODY = '00000000-0000-4000-8000-000000000000';
const DAY_MS = 24 * 3600_000;
const definition = { name: { fr: 'Survie', en: 'Survival' }, description: { fr: 'Survivre', en: 'Survive' }, version: '1.21.4' };

type Method = NonNullable<InjectOptions['method']>;
/** A call as `who`: boss is staff, helper is support, anyone else a player. */
const as = (t: TestApp, who: string, method: Method, url: string, payload?: object) =>
  t.as(who, { method, url, roles: who === 'boss' ? ['staff'] : who === 'helper' ? ['support'] : [], ...(payload ? { payload } : {}) });

/** The audit rows of one entity, newest first. */
async function auditOf(t: TestApp, entity: string, entityId?: string) {
  const page = await t.app.services.audit.list({ entity, ...(entityId ? { entityId } : {}) }, { limit: 100, offset: 0, page: 0, size: 100 });
  return page.data;
}

/** A multipart/form-data body with one file part. */
function form(bytes: Buffer, { field = 'image', type = 'image/png', filename = 'picture.png' } = {}) {
  const boundary = `----blockhost${Math.random().toString(16).slice(2)}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
  return { payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const picture = (format: 'png' | 'jpeg' | 'webp', width = 400, height = 300, r = 40) =>
  sharp({ create: { width, height, channels: 3, background: { r, g: 160, b: 90 } } })
    .toFormat(format)
    .toBuffer();

describe('staff: roles on the catalogue, games and reviews calls', () => {
  const t = useTestApp();

  it('turns players away from every call, lets support read and not write, lets staff do both', async () => {
    const { definitionId, smallId, gameId } = await buyGame(t.current);
    const reads = ['/v1/staff/games', `/v1/staff/games/${gameId}`, '/v1/staff/reviews'];
    const writes: Array<[Method, string, object | undefined]> = [
      ['PUT', `/v1/definition/game/${definitionId}`, definition],
      ['DELETE', `/v1/definition/game/${NOBODY}`, undefined],
      ['POST', '/v1/definition/game', definition],
      ['POST', '/v1/definition/game/package', { definitionId, name: { fr: 'X', en: 'X' }, ramMb: 1024, maxPlayers: 5, periodDays: 30, priceCredits: 10 }],
      ['PUT', `/v1/definition/game/package?id=${smallId}`, { name: { fr: 'X', en: 'X' }, ramMb: 1024, maxPlayers: 5, periodDays: 30, priceCredits: 10 }],
      ['DELETE', `/v1/definition/game/package?id=${NOBODY}`, undefined],
      ['POST', `/v1/staff/games/${gameId}/stop`, { reason: 'Abuse' }],
      ['POST', `/v1/staff/games/${gameId}/extend`, { days: 3, reason: 'Outage' }],
      ['POST', `/v1/staff/games/${gameId}/delete`, { reason: 'Abuse' }],
      ['POST', `/v1/staff/reviews/${NOBODY}/hide`, { reason: 'Spam' }],
      ['POST', `/v1/staff/reviews/${NOBODY}/restore`, { reason: 'Fine' }],
    ];
    for (const url of reads) {
      expect((await t.current.app.inject({ url })).statusCode, url).toBe(401);
      expect((await as(t.current, 'alice', 'GET', url)).statusCode, url).toBe(403);
      expect((await as(t.current, 'helper', 'GET', url)).statusCode, url).toBe(200);
      expect((await as(t.current, 'boss', 'GET', url)).statusCode, url).toBe(200);
    }
    for (const [method, url, payload] of writes) {
      expect((await as(t.current, 'alice', method, url, payload)).statusCode, `${method} ${url}`).toBe(403);
      expect((await as(t.current, 'helper', method, url, payload)).statusCode, `${method} ${url}`).toBe(403);
    }
    const image = form(await picture('png'));
    for (const who of ['alice', 'helper'] as const) {
      const res = await t.current.as(who, { method: 'POST', url: `/v1/definition/game/${definitionId}/image`, roles: who === 'helper' ? ['support'] : [], ...image });
      expect(res.statusCode, who).toBe(403);
    }
    // Nothing a player or support tried was done or audited.
    expect((await as(t.current, 'boss', 'GET', `/v1/staff/games/${gameId}`)).json()).toMatchObject({
      status: 'CREATED',
      periodEnd: (await as(t.current, 'alice', 'GET', `/v1/game/${gameId}`)).json().periodEnd,
    });
    expect((await t.current.app.inject({ url: `/v1/definition/game/${definitionId}` })).json()).toMatchObject({
      name: { en: 'Survival' },
      image: null,
      packages: [{ priceCredits: 100 }, { priceCredits: 300 }],
    });
    const audited = await t.current.app.services.audit.list({}, { limit: 100, offset: 0, page: 0, size: 100 });
    // Only the fixture's own staff writes: one definition and two packages.
    expect(audited.data.map((a) => a.action).sort()).toEqual(['definition.create', 'package.create', 'package.create']);
  });
});

describe('staff: the catalogue', () => {
  const t = useTestApp();

  it('edits a definition, hides an unpublished one from players, deletes it only when no game was made from it, each write audited', async () => {
    const { definitionId, gameId } = await buyGame(t.current);
    const boss = await userId(t.current, 'boss');
    const put = await as(t.current, 'boss', 'PUT', `/v1/definition/game/${definitionId}`, { ...definition, name: { fr: 'Survie+', en: 'Survival+' }, published: false });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ name: { en: 'Survival+' }, published: false });
    const [edit] = await auditOf(t.current, 'definition', definitionId);
    expect(edit).toMatchObject({
      actorId: boss,
      actorName: 'boss',
      action: 'definition.update',
      before: { name: { en: 'Survival' }, published: true },
      after: { name: { en: 'Survival+' }, published: false },
    });

    // Unpublished: gone for visitors and players, still there for staff and support.
    expect((await t.current.app.inject({ url: `/v1/definition/game/${definitionId}` })).statusCode).toBe(404);
    expect((await as(t.current, 'alice', 'GET', `/v1/definition/game/${definitionId}`)).statusCode).toBe(404);
    expect((await as(t.current, 'alice', 'GET', '/v1/definition/game/list')).json().totalElements).toBe(0);
    expect((await as(t.current, 'helper', 'GET', `/v1/definition/game/${definitionId}`)).statusCode).toBe(200);
    expect((await as(t.current, 'boss', 'GET', '/v1/definition/game/list')).json().data.map((d: { id: string }) => d.id)).toEqual([definitionId]);
    // The game already bought runs on.
    expect((await as(t.current, 'alice', 'GET', `/v1/game/${gameId}`)).statusCode).toBe(200);

    const used = await as(t.current, 'boss', 'DELETE', `/v1/definition/game/${definitionId}`);
    expect(used.statusCode).toBe(409);
    expect(used.json().code).toBe('catalogue.definitionInUse');
    expect((await as(t.current, 'boss', 'GET', `/v1/definition/game/${definitionId}`)).statusCode).toBe(200);
    expect((await auditOf(t.current, 'definition', definitionId)).map((a) => a.action)).toEqual(['definition.update', 'definition.create']);

    const unused = await catalogue(t.current);
    expect((await as(t.current, 'boss', 'DELETE', `/v1/definition/game/${unused.definitionId}`)).statusCode).toBe(204);
    expect((await as(t.current, 'boss', 'GET', `/v1/definition/game/${unused.definitionId}`)).statusCode).toBe(404);
    const [deleted] = await auditOf(t.current, 'definition', unused.definitionId);
    expect(deleted).toMatchObject({ action: 'definition.delete', before: { id: unused.definitionId, packages: [{ name: { en: 'Small' } }, { name: { en: 'Big' } }] }, after: null });
    expect((await as(t.current, 'boss', 'DELETE', `/v1/definition/game/${unused.definitionId}`)).statusCode).toBe(404);
    const bad = await as(t.current, 'boss', 'PUT', `/v1/definition/game/${definitionId}`, { ...definition, version: '1.7.10' });
    expect(bad.statusCode).toBe(400);
    expect((await as(t.current, 'boss', 'PUT', `/v1/definition/game/${NOBODY}`, definition)).statusCode).toBe(404);
    // Failed writes left no trace.
    expect((await auditOf(t.current, 'definition', definitionId)).map((a) => a.action)).toEqual(['definition.update', 'definition.create']);
  });

  it('edits a package: the price shown changes, games bought keep what they paid and got; audited', async () => {
    const { definitionId, smallId, gameId, game } = await buyGame(t.current);
    const pkg = { name: { fr: 'Petit+', en: 'Small+' }, ramMb: 2048, maxPlayers: 20, periodDays: 15, priceCredits: 150 };
    const res = await as(t.current, 'boss', 'PUT', `/v1/definition/game/package?id=${smallId}`, pkg);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: smallId, definitionId, ...pkg });
    expect((await t.current.app.inject({ url: `/v1/definition/game/${definitionId}` })).json().packages[0]).toMatchObject({ id: smallId, ...pkg });
    const bought = (await as(t.current, 'alice', 'GET', `/v1/game/${gameId}`)).json();
    expect(bought).toMatchObject({ ramMb: 1024, maxPlayers: 10, periodEnd: game.periodEnd });
    expect((await as(t.current, 'alice', 'GET', `/v1/game/${gameId}/transactions`)).json().data[0].amount).toBe(-100);
    const [audit] = await auditOf(t.current, 'package', smallId);
    expect(audit).toMatchObject({ action: 'package.update', before: { name: { en: 'Small' }, priceCredits: 100 }, after: { name: { fr: 'Petit+', en: 'Small+' }, priceCredits: 150 } });

    expect((await as(t.current, 'boss', 'PUT', `/v1/definition/game/package?id=${NOBODY}`, pkg)).statusCode).toBe(404);
    expect((await as(t.current, 'boss', 'PUT', `/v1/definition/game/package?id=${smallId}`, { ...pkg, ramMb: 1 })).statusCode).toBe(400);
    expect((await as(t.current, 'boss', 'DELETE', `/v1/definition/game/package?id=${smallId}`)).statusCode).toBe(409);
    expect((await auditOf(t.current, 'package', smallId)).map((a) => a.action)).toEqual(['package.update', 'package.create']);
    // Named in the reader's language (French here), as it was written.
    const listed = await t.current.as('boss', { roles: ['staff'], url: `/v1/staff/audit?entity=package&entityId=${smallId}` });
    expect(listed.json().data.map((a: { entityName: string }) => a.entityName)).toEqual(['Petit+', 'Petit']);
  });
});

describe('staff: definition images', () => {
  const t = useTestApp();
  const upload = (definitionId: string, body: ReturnType<typeof form>) => t.current.as('boss', { method: 'POST', url: `/v1/definition/game/${definitionId}/image`, roles: ['staff'], ...body });
  const mediaDir = () => path.join(t.current.config.dataDir, 'media', 'definitions');
  const stored = () => (fs.existsSync(mediaDir()) ? fs.readdirSync(mediaDir()).sort() : []);

  it('stores PNG, JPEG and WebP as 16:9 WebP at 1x and 2x, served for good under a content-hashed name', async () => {
    const { definitionId } = await catalogue(t.current);
    const urls = new Set<string>();
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const res = await upload(definitionId, form(await picture(format, 400, 300, 40 + 80 * urls.size), { type: `image/${format}`, filename: `x.${format}` }));
      expect(res.statusCode, format).toBe(200);
      const { image, imageSrcSet } = res.json();
      expect(image).toMatch(/^\/media\/definitions\/[0-9a-f]{32}-1x\.webp$/);
      expect(imageSrcSet).toBe(`${image} 1x, ${image.replace('-1x.webp', '-2x.webp')} 2x`);
      urls.add(image);

      const served = await t.current.app.inject({ url: image });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 640, height: 360 });
      const dense = await t.current.app.inject({ url: image.replace('-1x.webp', '-2x.webp') });
      expect(await sharp(dense.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 1280, height: 720 });
    }
    expect(urls.size).toBe(3);
    expect(stored()).toHaveLength(6);
    const definitionNow = (await t.current.app.inject({ url: `/v1/definition/game/${definitionId}` })).json();
    expect(definitionNow.image).toBe([...urls][2]);
    const audits = await auditOf(t.current, 'definition', definitionId);
    expect(audits.filter((a) => a.action === 'definition.image')).toHaveLength(3);
    expect(audits[0]).toMatchObject({ action: 'definition.image', before: { image: [...urls][1] }, after: { image: [...urls][2] } });

    // The same picture again is the same file.
    const again = await upload(definitionId, form(await picture('webp', 400, 300, 200), { type: 'image/webp' }));
    expect(again.json().image).toBe([...urls][2]);
    expect(stored()).toHaveLength(6);
    expect((await t.current.app.inject({ url: '/media/definitions/0123456789abcdef0123456789abcdef-1x.webp' })).statusCode).toBe(404);
    expect((await t.current.app.inject({ url: '/media/definitions/..%2F..%2Foidc-keys.json' })).statusCode).toBe(404);
  });

  it('refuses other bytes (415), bigger files (413), unreadable images (422), a missing field (400) and unknown definitions (404), changing nothing', async () => {
    const { definitionId } = await catalogue(t.current);
    const png = await picture('png');
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;', 'latin1');
    const cases: Array<[string, ReturnType<typeof form>, number]> = [
      ['a GIF declared as PNG', form(gif, { type: 'image/png' }), 415],
      ['text declared as JPEG', form(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), { type: 'image/jpeg', filename: 'x.jpg' }), 415],
      ['6 MB', form(Buffer.concat([png.subarray(0, 8), Buffer.alloc(6 * 1024 * 1024)])), 413],
      ['a broken PNG', form(Buffer.concat([png.subarray(0, 8), Buffer.from('garbage'.repeat(50))])), 422],
      ['a truncated JPEG', form((await picture('jpeg')).subarray(0, 200), { type: 'image/jpeg' }), 422],
      ['another field name', form(png, { field: 'picture' }), 400],
    ];
    for (const [what, body, status] of cases) {
      const res = await upload(definitionId, body);
      expect(res.statusCode, what).toBe(status);
      expect(res.headers['content-type'], what).toContain('application/problem+json');
    }
    const json = await t.current.as('boss', { method: 'POST', url: `/v1/definition/game/${definitionId}/image`, roles: ['staff'], payload: { image: 'x' } });
    expect(json.statusCode).toBe(415);
    expect((await upload(NOBODY, form(png))).statusCode).toBe(404);

    expect((await t.current.app.inject({ url: `/v1/definition/game/${definitionId}` })).json()).toMatchObject({ image: null, imageSrcSet: null });
    expect(stored()).toEqual([]);
    expect((await auditOf(t.current, 'definition', definitionId)).map((a) => a.action)).toEqual(['definition.create']);
  });
});

describe('staff: definition images in an S3 bucket', () => {
  let s3: S3Server;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(() => s3.stop());

  it('stores them in the bucket, where another replica, on a disk of its own, serves them', async () => {
    const first = await startTestApp(s3Env(s3));
    const second = await startTestApp(s3Env(s3));
    try {
      const { definitionId } = await catalogue(first);
      const res = await first.as('boss', { method: 'POST', url: `/v1/definition/game/${definitionId}/image`, roles: ['staff'], ...form(await picture('png')) });
      expect(res.statusCode).toBe(200);
      const { image } = res.json();
      const key = image.slice(1);
      expect((await createStore(first.config.mediaStore).list('media/')).sort()).toEqual([key, key.replace('-1x', '-2x')].sort());
      expect(fs.existsSync(path.join(first.config.dataDir, 'media'))).toBe(false);

      const served = await second.app.inject({ url: image });
      expect(served.statusCode).toBe(200);
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 640, height: 360 });
    } finally {
      await second.close();
      await first.close();
    }
  });
});

describe('staff: games', () => {
  const t = useTestApp();

  it('lists every game with its owner and what it is, paged, sorted and filtered; shows one', async () => {
    const { definitionId, smallId, bigId } = await catalogue(t.current);
    await fund(t.current, 'alice', 1000);
    await fund(t.current, 'bob', 1000);
    const buy = async (owner: string, name: string, packageId = smallId) => {
      const res = await as(t.current, owner, 'POST', '/v1/game/create', { definitionId, packageId, name });
      t.current.clock.advance(60_000);
      return res.json().id as string;
    };
    const castle = await buy('alice', 'Castle');
    const farm = await buy('bob', 'Farm 100%', bigId);
    const arena = await buy('alice', 'arena');
    await runGame(t.current, farm, 'bob');
    const list = async (query = '') => {
      const res = await as(t.current, 'helper', 'GET', `/v1/staff/games${query}`);
      expect(res.statusCode, query).toBe(200);
      return res.json();
    };
    const names = async (query = '') => (await list(query)).data.map((g: { name: string }) => g.name);

    const all = await list();
    expect(all).toMatchObject({ totalElements: 3, page: 0, size: 20 });
    expect(all.data.map((g: { id: string }) => g.id)).toEqual([arena, farm, castle]);
    expect(all.data[1]).toMatchObject({
      id: farm,
      name: 'Farm 100%',
      status: 'RUNNING',
      ownerId: await userId(t.current, 'bob'),
      ownerName: 'bob',
      definitionId,
      definitionName: { fr: 'Survie', en: 'Survival' },
      packageName: { fr: 'Grand', en: 'Big' },
      autoRenew: false,
    });
    expect(await names('?sort=name,asc')).toEqual(['arena', 'Castle', 'Farm 100%']);
    expect(await names('?sort=name,desc')).toEqual(['Farm 100%', 'Castle', 'arena']);
    expect(await names('?sort=createdAt,asc')).toEqual(['Castle', 'Farm 100%', 'arena']);
    expect(await names('?sort=periodEnd,desc&size=1&page=1')).toEqual(['Farm 100%']);
    expect(await names('?sort=createdAt,desc&offset=2')).toEqual(['Castle']);
    expect(await names(`?ownerId=${await userId(t.current, 'alice')}`)).toEqual(['arena', 'Castle']);
    expect(await names('?status=RUNNING')).toEqual(['Farm 100%']);
    expect(await names('?status=CREATED,RUNNING&ignoredStatus=RUNNING')).toEqual(['arena', 'Castle']);
    expect(await names('?q=ARE')).toEqual(['arena']);
    expect(await names('?q=100%25')).toEqual(['Farm 100%']);
    expect(await names('?q=_')).toEqual([]);
    expect((await list('?ownerId=' + NOBODY)).totalElements).toBe(0);

    for (const query of ['?sort=owner,asc', '?sort=name', '?sort=name,up', '?status=BROKEN', '?ownerId=x', '?size=101', '?colour=red']) {
      const bad = await as(t.current, 'boss', 'GET', `/v1/staff/games${query}`);
      expect(bad.statusCode, query).toBe(400);
    }

    const one = await as(t.current, 'helper', 'GET', `/v1/staff/games/${castle}`);
    expect(one.json()).toMatchObject({ id: castle, ownerName: 'alice', packageName: { fr: 'Petit', en: 'Small' }, status: 'CREATED' });
    expect((await as(t.current, 'boss', 'GET', `/v1/staff/games/${NOBODY}`)).statusCode).toBe(404);
  });

  it('stops a running game cleanly with a reason: audited, its owner told; 409 when it cannot stop', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    const stop = (reason = 'Lag on the host') => as(t.current, 'boss', 'POST', `/v1/staff/games/${gameId}/stop`, { reason });
    expect((await as(t.current, 'boss', 'POST', `/v1/staff/games/${gameId}/stop`, {})).statusCode).toBe(400);
    expect((await stop('   ')).statusCode).toBe(400);

    const res = await stop();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: gameId, status: 'STOPPING', desiredState: 'stopped', ownerName: 'alice' });
    await t.current.app.services.reconciler.tick();
    expect((await as(t.current, 'alice', 'GET', `/v1/game/${gameId}`)).json()).toMatchObject({ status: 'STOPPED', desiredState: 'stopped' });
    expect((await as(t.current, 'alice', 'GET', `/v1/game/${gameId}/status`)).json()).toMatchObject({ status: 'STOPPED', address: null });

    const [audit] = await auditOf(t.current, 'game', gameId);
    expect(audit).toMatchObject({
      action: 'game.stop',
      actorName: 'boss',
      reason: 'Lag on the host',
      before: { status: 'RUNNING', desiredState: 'running' },
      after: { status: 'STOPPING', desiredState: 'stopped' },
    });
    // The back office's log names the game, not its id.
    const listed = await t.current.as('boss', { roles: ['staff'], url: `/v1/staff/audit?entity=game&entityId=${gameId}` });
    expect(listed.json().data[0]).toMatchObject({ action: 'game.stop', entityName: 'My world' });
    const notices = (await as(t.current, 'alice', 'GET', '/v1/user/notifications/unread')).json();
    expect(notices.data[0].data).toMatchObject({
      title: 'Serveur « My world » arrêté',
      key: 'game.stoppedByStaff',
      description: expect.stringContaining('Lag on the host'),
      link: `/dashboard/game/${gameId}`,
    });

    const again = await stop();
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'games.cannotStop', detail: expect.stringContaining('STOPPED') });
    expect((await as(t.current, 'boss', 'POST', `/v1/staff/games/${NOBODY}/stop`, { reason: 'x' })).statusCode).toBe(404);
    // The staff stop once; the owner's own start is audited beside it.
    expect((await auditOf(t.current, 'game', gameId)).map((entry) => entry.action)).toEqual(['game.stop', 'game.start']);
  });

  it('extends a period with a reason, moving the opened renewal with it; audited; 409 for an expired game', async () => {
    const { gameId, game } = await buyGame(t.current);
    const periodEnd = Date.parse(game.periodEnd);
    // 27 days on, the renewal of the next period is opened (RENEWAL_NOTICE_DAYS before its end).
    t.current.clock.advance(27.5 * DAY_MS);
    await t.current.app.services.renewals.tick();
    const [pending] = (await as(t.current, 'alice', 'GET', '/v1/game/payment?status=PENDING')).json().data;
    expect(Date.parse(pending.periodStart)).toBe(periodEnd);

    const extend = (payload: object) => as(t.current, 'boss', 'POST', `/v1/staff/games/${gameId}/extend`, payload);
    for (const payload of [{ days: 0, reason: 'x' }, { days: 367, reason: 'x' }, { days: 1.5, reason: 'x' }, { days: 3 }, { days: 3, reason: 'x'.repeat(501) }]) {
      expect((await extend(payload)).statusCode, JSON.stringify(payload).slice(0, 40)).toBe(400);
    }
    const res = await extend({ days: 10, reason: 'Outage on 3 March' });
    expect(res.statusCode).toBe(200);
    expect(Date.parse(res.json().periodEnd)).toBe(periodEnd + 10 * DAY_MS);
    expect(res.json().renewal).toMatchObject({ id: pending.id, status: 'PENDING' });
    expect(Date.parse(res.json().renewal.periodStart)).toBe(periodEnd + 10 * DAY_MS);
    expect(Date.parse(res.json().renewal.periodEnd)).toBe(Date.parse(pending.periodEnd) + 10 * DAY_MS);
    const [audit] = await auditOf(t.current, 'game', gameId);
    expect(audit).toMatchObject({ action: 'game.extend', reason: 'Outage on 3 March', before: { periodEnd: game.periodEnd }, after: { periodEnd: res.json().periodEnd } });
    expect((await as(t.current, 'alice', 'GET', '/v1/user/notifications/unread')).json().data[0].data.description).toContain('Outage on 3 March');

    // The old end passes: the game runs on, and its renewal is still the one to pay.
    t.current.clock.advance(3 * DAY_MS);
    await t.current.app.services.renewals.tick();
    expect((await as(t.current, 'alice', 'GET', `/v1/game/${gameId}`)).json()).toMatchObject({ status: 'CREATED', expiredAt: null });
    expect((await as(t.current, 'alice', 'GET', '/v1/game/payment?status=PENDING')).json().totalElements).toBe(1);

    // Unpaid at the new end, it expires; staff then cannot extend it.
    t.current.clock.advance(10 * DAY_MS);
    await t.current.app.services.renewals.tick();
    expect((await as(t.current, 'alice', 'GET', `/v1/game/${gameId}`)).json().status).toBe('EXPIRED');
    const expired = await extend({ days: 5, reason: 'Too late' });
    expect(expired.statusCode).toBe(409);
    expect((await as(t.current, 'boss', 'POST', `/v1/staff/games/${NOBODY}/extend`, { days: 5, reason: 'x' })).statusCode).toBe(404);
    expect((await auditOf(t.current, 'game', gameId)).map((a) => a.action)).toEqual(['game.extend']);
  });
});

describe('staff: reviews', () => {
  const t = useTestApp();

  it('hides a review from the public list, its count and the average, restores it; its author still sees it; audited', async () => {
    const { definitionId, smallId } = await buyGame(t.current);
    await fund(t.current, 'bob', 100);
    await as(t.current, 'bob', 'POST', '/v1/game/create', { definitionId, packageId: smallId, name: 'Bob land' });
    const alice = (await as(t.current, 'alice', 'POST', '/v1/game/review', { definitionId, rating: 1, comment: 'Buy my cheap gold at …' })).json();
    await t.current.as('bob', { method: 'POST', url: '/v1/game/review', payload: { definitionId, rating: 5 } });
    const rating = async () => (await t.current.app.inject({ url: `/v1/definition/game/${definitionId}` })).json().rating;
    const publicList = async () => (await t.current.as('carol', { method: 'GET', url: `/v1/game/review/${definitionId}` })).json();
    expect(await rating()).toEqual({ average: 3, count: 2 });

    const staffList = (await as(t.current, 'helper', 'GET', `/v1/staff/reviews?definitionId=${definitionId}&sort=rating,asc`)).json();
    expect(staffList).toMatchObject({ totalElements: 2 });
    expect(staffList.data[0]).toMatchObject({ id: alice.id, definitionId, definitionName: { en: 'Survival' }, userName: 'alice', rating: 1, hidden: false, hiddenReason: null });

    const hide = (reason = 'Advertising') => as(t.current, 'boss', 'POST', `/v1/staff/reviews/${alice.id}/hide`, { reason });
    const hidden = await hide();
    expect(hidden.statusCode).toBe(200);
    expect(hidden.json()).toMatchObject({ id: alice.id, hidden: true, hiddenReason: 'Advertising' });
    expect(await rating()).toEqual({ average: 5, count: 1 });
    expect(await publicList()).toMatchObject({ totalElements: 1, data: [{ author: { name: 'bob' } }] });
    // Its author sees it, marked hidden, and cannot write another.
    const own = (await as(t.current, 'alice', 'GET', `/v1/game/review/${definitionId}`)).json();
    expect(own).toMatchObject({ totalElements: 1, mine: { id: alice.id, hidden: true }, canReview: false });
    expect((await as(t.current, 'alice', 'POST', '/v1/game/review', { definitionId, rating: 2 })).statusCode).toBe(409);
    expect((await t.current.as('bob', { method: 'GET', url: `/v1/game/review/${definitionId}` })).json().mine).toMatchObject({ hidden: false });

    expect((await hide()).statusCode).toBe(409);
    expect((await as(t.current, 'helper', 'GET', '/v1/staff/reviews?hidden=true')).json().data.map((r: { id: string }) => r.id)).toEqual([alice.id]);
    expect((await as(t.current, 'helper', 'GET', '/v1/staff/reviews?hidden=false')).json().totalElements).toBe(1);
    expect(await rating()).toEqual({ average: 5, count: 1 });

    const restored = await as(t.current, 'boss', 'POST', `/v1/staff/reviews/${alice.id}/restore`, { reason: 'Appeal accepted' });
    expect(restored.json()).toMatchObject({ hidden: false, hiddenReason: null });
    expect(await rating()).toEqual({ average: 3, count: 2 });
    expect((await publicList()).totalElements).toBe(2);
    expect((await as(t.current, 'boss', 'POST', `/v1/staff/reviews/${alice.id}/restore`, { reason: 'Again' })).statusCode).toBe(409);
    expect((await as(t.current, 'boss', 'POST', `/v1/staff/reviews/${NOBODY}/hide`, { reason: 'x' })).statusCode).toBe(404);

    const audits = await auditOf(t.current, 'review', alice.id);
    expect(audits.map((a) => [a.action, a.reason])).toEqual([
      ['review.restore', 'Appeal accepted'],
      ['review.hide', 'Advertising'],
    ]);
    expect(audits[1]).toMatchObject({ before: { hidden: false, hiddenReason: null }, after: { hidden: true, hiddenReason: 'Advertising' } });

    for (const query of ['?sort=author,asc', '?hidden=maybe', '?definitionId=nope']) {
      expect((await as(t.current, 'boss', 'GET', `/v1/staff/reviews${query}`)).statusCode, query).toBe(400);
    }
  });
});
