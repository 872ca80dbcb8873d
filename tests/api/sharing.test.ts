import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import gameGuard from '../../src/server/modules/sharing/guard.ts';
import { gameAccessLevels, type GameAccessLevel } from '../../src/contract/sharing.ts';
import { startListeningApp, startReplica, type TestApp } from '../fixtures/app.ts';
import { buyGame, runGame, userId } from '../fixtures/games.ts';
import { befriend } from '../fixtures/social.ts';
import { openStream } from '../fixtures/sse.ts';
import { RESOURCE_CHANGE_EVENT, type ResourceChange } from '../../src/contract/live.ts';

const staff = { roles: ['staff'] };
const ZERO = '00000000-0000-4000-8000-000000000000';

type Json = Record<string, unknown>;

describe('sharing a game with friends and friend groups', { timeout: 60_000 }, () => {
  let t: TestApp & { origin: string };
  beforeEach(async () => {
    t = await startListeningApp();
  });
  afterEach(() => t.close());

  const share = async (owner: string, gameId: string, body: Json) => t.as(owner, { method: 'POST', url: `/v1/game/${gameId}/access`, payload: body });
  const group = async (owner: string, name: string, members: string[]) => {
    const id = (await t.as(owner, { method: 'POST', url: '/v1/friend/group', payload: { name } })).json().id as string;
    for (const member of members) expect((await t.as(owner, { method: 'POST', url: `/v1/friend/group/${id}/member`, payload: { userId: await userId(t, member) } })).statusCode).toBe(201);
    return id;
  };
  const level = async (who: string, gameId: string) => {
    const res = await t.as(who, { url: `/v1/game/${gameId}` });
    return res.statusCode === 200 ? (res.json().access as string) : res.statusCode;
  };
  const notices = async (who: string) => ((await t.as(who, { url: '/v1/user/notifications?size=100' })).json().data as Array<{ data: { key: string; description: string } }>).map((n) => n.data);

  it('grants friends and groups a role, takes the higher of two, follows the group, and is the owner’s alone', async () => {
    const { gameId } = await buyGame(t);
    await befriend(t, 'alice', 'bob');
    await befriend(t, 'alice', 'dave');
    await t.as('carol', { url: '/v1/user' });

    // Only friends, once each, one target at a time; nothing else is written.
    expect((await share('alice', gameId, { friendId: await userId(t, 'carol'), role: 'VIEWER' })).json()).toMatchObject({ code: 'sharing.friendsOnly' });
    const both = await share('alice', gameId, { friendId: await userId(t, 'bob'), groupId: ZERO, role: 'VIEWER' });
    expect(both.statusCode).toBe(400);
    expect((await share('alice', gameId, { friendId: await userId(t, 'bob'), role: 'OWNER' })).statusCode).toBe(400);
    expect((await t.as('alice', { url: `/v1/game/${gameId}/access` })).json().data).toEqual([]);

    const direct = await share('alice', gameId, { friendId: await userId(t, 'bob'), role: 'MODERATOR' });
    expect(direct.statusCode, direct.body).toBe(201);
    expect(direct.json()).toMatchObject({ role: 'MODERATOR', friend: { name: 'bob' }, group: null });
    expect((await share('alice', gameId, { friendId: await userId(t, 'bob'), role: 'VIEWER' })).json()).toMatchObject({ code: 'sharing.alreadyShared' });
    expect(await notices('bob')).toContainEqual(expect.objectContaining({ key: 'game.shared', description: expect.stringContaining('alice') }));

    // Bob sees it among the games shared with him, and the game itself, without its billing.
    expect((await t.as('bob', { url: '/v1/game/shared' })).json().data).toEqual([
      { id: gameId, name: 'My world', version: expect.any(String), status: 'CREATED', owner: { id: await userId(t, 'alice'), name: 'alice' }, role: 'MODERATOR' },
    ]);
    const seen = (await t.as('bob', { url: `/v1/game/${gameId}` })).json();
    expect(seen).toMatchObject({ id: gameId, access: 'MODERATOR', renewal: null });
    expect(await level('alice', gameId)).toBe('OWNER');
    // Carol, with no role, cannot tell the game exists.
    expect(await level('carol', gameId)).toBe(404);

    // A moderator cannot share, stop it, or pay for it.
    expect((await share('bob', gameId, { friendId: await userId(t, 'dave'), role: 'COADMIN' })).statusCode).toBe(403);
    expect((await t.as('bob', { method: 'PUT', url: `/v1/game/${gameId}/access/${direct.json().id}`, payload: { role: 'COADMIN' } })).statusCode).toBe(403);
    expect((await t.as('bob', { method: 'POST', url: `/v1/game/${gameId}/stop` })).json()).toMatchObject({ code: 'sharing.roleTooLow' });
    expect((await t.as('bob', { method: 'PATCH', url: `/v1/game/${gameId}`, payload: { autoRenew: false } })).statusCode).toBe(403);

    // A group's grant: its members have it, the higher role wins, a later member gets it, a removed one loses it.
    const potes = await group('alice', 'Potes', ['bob']);
    const viaGroup = await share('alice', gameId, { groupId: potes, role: 'COADMIN' });
    expect(viaGroup.json()).toMatchObject({ role: 'COADMIN', friend: null, group: { name: 'Potes', members: 1 } });
    expect(await level('bob', gameId)).toBe('COADMIN');
    expect(await level('dave', gameId)).toBe(404);
    await t.as('alice', { method: 'POST', url: `/v1/friend/group/${potes}/member`, payload: { userId: await userId(t, 'dave') } });
    expect(await level('dave', gameId)).toBe('COADMIN');
    expect(await notices('dave')).toContainEqual(expect.objectContaining({ key: 'game.shared' }));
    expect((await t.as('alice', { method: 'DELETE', url: `/v1/friend/group/${potes}/member`, payload: { userId: await userId(t, 'dave') } })).statusCode).toBe(204);
    expect(await level('dave', gameId)).toBe(404);
    expect(await notices('dave')).toContainEqual(expect.objectContaining({ key: 'game.unshared' }));
    await t.as('alice', { method: 'PUT', url: `/v1/game/${gameId}/access/${viaGroup.json().id}`, payload: { role: 'VIEWER' } });
    expect(await level('bob', gameId)).toBe('MODERATOR');

    // Revoked: bob keeps what the group gives him, and is not told he lost the game.
    expect((await t.as('alice', { method: 'DELETE', url: `/v1/game/${gameId}/access/${direct.json().id}` })).statusCode).toBe(204);
    expect(await level('bob', gameId)).toBe('VIEWER');
    expect((await notices('bob')).filter((n) => n.key === 'game.unshared')).toEqual([]);
    expect((await t.as('alice', { url: `/v1/game/${gameId}/access` })).json().data).toHaveLength(1);
  });

  it('records who acted on a shared game, and a block takes the grants away both ways', async () => {
    const { gameId } = await buyGame(t);
    const bobsGame = (await buyGame(t, 'bob', 'Bob world')).gameId;
    await befriend(t, 'alice', 'bob');
    await share('alice', gameId, { friendId: await userId(t, 'bob'), role: 'COADMIN' });
    await share('bob', bobsGame, { friendId: await userId(t, 'alice'), role: 'VIEWER' });

    const start = () => t.as('bob', { method: 'POST', url: `/v1/game/${gameId}/start`, headers: { 'idempotency-key': 'start-once' } });
    expect((await start()).statusCode).toBe(200);
    // The same call again is answered from the first and did nothing: it is not audited twice.
    expect((await start()).headers['idempotent-replayed']).toBe('true');
    // Audited before the answer: the log has it as soon as the caller has the answer.
    const audit = (await t.as('boss', { ...staff, url: `/v1/staff/audit?entity=game&entityId=${gameId}` })).json().data as Array<{ action: string; actorName: string; after: Json }>;
    expect(audit.filter((a) => a.action === 'game.start')).toEqual([expect.objectContaining({ action: 'game.start', actorName: 'bob', after: { as: 'COADMIN' } })]);

    expect((await t.as('alice', { method: 'POST', url: '/v1/blocklist', payload: { userId: await userId(t, 'bob') } })).statusCode).toBe(201);
    expect(await level('bob', gameId)).toBe(404);
    expect(await level('alice', bobsGame)).toBe(404);
  });

  it('tells who did what on the game, as what, to its moderators and up; staff act as the platform', async () => {
    const { gameId } = await buyGame(t);
    await befriend(t, 'alice', 'bob');
    await befriend(t, 'alice', 'carol');
    await share('alice', gameId, { friendId: await userId(t, 'bob'), role: 'COADMIN' });
    await share('alice', gameId, { friendId: await userId(t, 'carol'), role: 'VIEWER' });
    await runGame(t, gameId, 'bob');
    const listed = await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/minecraft/player`, payload: { name: 'Steve', type: 'WHITELIST', action: 'ADD' } });
    expect(listed.statusCode).toBe(200);
    expect((await t.as('bob', { method: 'POST', url: `/v1/game/${gameId}/console`, payload: { command: 'say hi' } })).statusCode).toBe(200);
    // A refused action is no activity.
    expect((await t.as('carol', { method: 'POST', url: `/v1/game/${gameId}/stop` })).statusCode).toBe(403);
    expect((await t.as('boss', { ...staff, method: 'POST', url: `/v1/staff/games/${gameId}/stop`, payload: { reason: 'Lag on the host' } })).statusCode).toBe(200);

    const res = await t.as('bob', { url: `/v1/game/${gameId}/activity` });
    expect(res.statusCode).toBe(200);
    const entries = (res.json().data as Array<{ action: string; actorName: string; by: string; detail: Json }>).map(({ action, actorName, by, detail }) => ({ action, actorName, by, detail }));
    expect(entries).toEqual([
      { action: 'game.stop', actorName: '', by: 'STAFF', detail: {} },
      { action: 'console.command', actorName: 'bob', by: 'COADMIN', detail: { command: 'say hi' } },
      { action: 'players.list', actorName: 'alice', by: 'OWNER', detail: { name: 'Steve', type: 'WHITELIST', action: 'ADD' } },
      { action: 'game.start', actorName: 'bob', by: 'COADMIN', detail: {} },
      { action: 'game.share', actorName: 'alice', by: 'OWNER', detail: { role: 'VIEWER' } },
      { action: 'game.share', actorName: 'alice', by: 'OWNER', detail: { role: 'COADMIN' } },
    ]);
    expect(res.json().totalElements).toBe(6);
    // A viewer may not read it; someone it is not shared with does not learn the game exists.
    expect((await t.as('carol', { url: `/v1/game/${gameId}/activity` })).json().code).toBe('sharing.roleTooLow');
    expect((await t.as('dave', { url: `/v1/game/${gameId}/activity` })).statusCode).toBe(404);
  });

  it('refuses a write route on a game that does not say what it does', async () => {
    const app = Fastify();
    await app.register(gameGuard, { sharing: t.app.services.sharing, audit: t.app.services.audit, db: t.app.services.db });
    expect(() => app.post('/v1/game/:id/unnamed', { config: { gameRole: 'COADMIN' } }, () => ({}))).toThrow(/declares a gameRole but no activity/);
    expect(() => app.get('/v1/game/:id/readable', { config: { gameRole: 'VIEWER' } }, () => ({}))).not.toThrow();
    // Nor one that asks less than its action needs elsewhere (the console's `stop` is a co-admin's too).
    expect(() => app.post('/v1/game/:id/halt', { config: { gameRole: 'MODERATOR', activity: 'game.stop' } }, () => ({}))).toThrow(/declares MODERATOR for game.stop, which needs COADMIN/);
    await app.close();
  });

  it('closes the console stream of someone whose access is revoked, within a second', async () => {
    const { gameId } = await buyGame(t);
    await befriend(t, 'alice', 'bob');
    const grant = (await share('alice', gameId, { friendId: await userId(t, 'bob'), role: 'VIEWER' })).json();
    await runGame(t, gameId);
    const bobs = await openStream(`${t.origin}/v1/game/${gameId}/console/stream`, await t.token('bob'));
    const alices = await openStream(`${t.origin}/v1/game/${gameId}/console/stream`, await t.token('alice'));
    expect(bobs.status).toBe(200);
    await bobs.waitFor('line');
    // A viewer reads the console but cannot type in it.
    expect((await t.as('bob', { method: 'POST', url: `/v1/game/${gameId}/console`, payload: { command: 'list' } })).statusCode).toBe(403);

    // Within a second of the revocation's answer: the request itself may be slow on a busy machine.
    await t.as('alice', { method: 'DELETE', url: `/v1/game/${gameId}/access/${grant.id}` });
    const revoked = Date.now();
    await bobs.closed;
    expect(Date.now() - revoked).toBeLessThan(1000);
    // The owner's stream stays open.
    t.driver.print(gameId, 'still here');
    expect((await alices.waitFor('line', 2)).at(-1)!.data).toContain('still here');
    alices.close();
    expect((await openStream(`${t.origin}/v1/game/${gameId}/console/stream`, await t.token('bob'))).status).toBe(404);
  });

  it("tells everyone the game is shared with of its backups' progress, as it tells the owner, and nobody else", async () => {
    const { gameId } = await buyGame(t);
    await befriend(t, 'alice', 'bob');
    expect((await share('alice', gameId, { friendId: await userId(t, 'bob'), role: 'COADMIN' })).statusCode).toBe(201);
    await runGame(t, gameId);
    const streams = Object.fromEntries(
      await Promise.all(['alice', 'bob', 'carol'].map(async (who) => [who, await openStream(`${t.origin}/v1/user/notifications/stream`, await t.token(who))] as const)),
    );
    const backupChanges = (who: string) =>
      streams[who]!.events.filter((e) => e.event === RESOURCE_CHANGE_EVENT)
        .map((e) => JSON.parse(e.data) as ResourceChange)
        .filter((c) => c.resource === 'backups');

    // The co-admin takes it; the one who asked and the owner both see it end.
    const taken = await t.as('bob', { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: {} });
    expect(taken.statusCode, taken.body).toBe(202);
    await t.app.services.backups.idle();
    const id = taken.json().id as string;
    for (const who of ['alice', 'bob']) {
      // Created, then RUNNING, then READY: at least three changes naming it.
      while (backupChanges(who).filter((c) => c.ids.includes(id)).length < 3)
        await streams[who]!.waitFor(RESOURCE_CHANGE_EVENT, streams[who]!.events.filter((e) => e.event === RESOURCE_CHANGE_EVENT).length + 1);
      expect(backupChanges(who)[0]).toEqual({ resource: 'backups', ids: [id], type: 'created' });
    }
    // Carol's own change comes after all of the backup's: had any reached her, it would be here by now.
    const sent = (await t.as('carol', { method: 'POST', url: '/v1/user/notification' })).json();
    expect((await t.as('carol', { method: 'PUT', url: `/v1/user/notification/${sent.id}` })).statusCode).toBe(204);
    await streams.carol!.waitFor(RESOURCE_CHANGE_EVENT);
    expect(streams.carol!.events.filter((e) => e.event === RESOURCE_CHANGE_EVENT).map((e) => JSON.parse(e.data))).toEqual([{ resource: 'notifications', ids: [sent.id], type: 'updated' }]);
    for (const s of Object.values(streams)) s.close();
  });

  it('closes a console stream within a second, on another replica too, whichever way access ends', async () => {
    const { gameId } = await buyGame(t);
    await runGame(t, gameId);
    // Bob watches through a second replica, started once the game runs; each change is made through the first.
    const replica = await startReplica(t);
    await replica.app.listen({ port: 0, host: '127.0.0.1' });
    const elsewhere = `http://127.0.0.1:${(replica.app.server.address() as AddressInfo).port}`;
    try {
      const [bob, alice] = [await userId(t, 'bob'), await userId(t, 'alice')];
      const watch = async () => {
        const s = await openStream(`${elsewhere}/v1/game/${gameId}/console/stream`, await t.token('bob'));
        expect(s.status).toBe(200);
        await s.waitFor('line');
        return s;
      };
      const endsWithinASecond = async (way: string, act: () => Promise<{ statusCode: number }>) => {
        const s = await watch();
        expect((await act()).statusCode, way).toBeLessThan(300);
        const answered = Date.now();
        await s.closed;
        expect(Date.now() - answered, way).toBeLessThan(1000);
        expect(await level('bob', gameId), way).toBe(404);
      };

      await befriend(t, 'alice', 'bob');
      const deleted = await group('alice', 'Crew', ['bob']);
      expect((await share('alice', gameId, { groupId: deleted, role: 'VIEWER' })).statusCode).toBe(201);
      await endsWithinASecond('group deleted', () => t.as('alice', { method: 'DELETE', url: `/v1/friend/group/${deleted}` }));

      const left = await group('alice', 'Crew again', ['bob']);
      expect((await share('alice', gameId, { groupId: left, role: 'VIEWER' })).statusCode).toBe(201);
      await endsWithinASecond('removed from the group', () => t.as('alice', { method: 'DELETE', url: `/v1/friend/group/${left}/member`, payload: { userId: bob } }));

      // Through the group and directly: an unfriending ends both.
      await t.as('alice', { method: 'POST', url: `/v1/friend/group/${left}/member`, payload: { userId: bob } });
      expect((await share('alice', gameId, { friendId: bob, role: 'MODERATOR' })).statusCode).toBe(201);
      await endsWithinASecond('unfriended', () => t.as('bob', { method: 'DELETE', url: `/v1/friend/${alice}` }));

      await befriend(t, 'alice', 'bob');
      expect((await share('alice', gameId, { friendId: bob, role: 'VIEWER' })).statusCode).toBe(201);
      await endsWithinASecond('blocked', () => t.as('alice', { method: 'POST', url: '/v1/blocklist', payload: { userId: bob } }));
    } finally {
      await replica.close();
    }
  });

  it('disables the schedules and voids the download links of a co-admin whose access ends, and theirs only', async () => {
    const { gameId } = await buyGame(t);
    await runGame(t, gameId);
    await befriend(t, 'alice', 'bob');
    await befriend(t, 'alice', 'carol');
    const crew = await group('alice', 'Admins', ['bob', 'carol']);
    expect((await share('alice', gameId, { groupId: crew, role: 'COADMIN' })).statusCode).toBe(201);
    const rule = (command: string) => ({ task: 'command', command, repeat: 'hours', everyHours: 1, timeZone: 'Europe/Paris' });
    const schedule = async (user: string) => {
      const res = await t.as(user, { method: 'POST', url: `/v1/game/${gameId}/schedules`, payload: rule(`say from ${user}`) });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    const [bobs, carols, alices] = [await schedule('bob'), await schedule('carol'), await schedule('alice')];
    const backup = await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: {} });
    expect(backup.statusCode, backup.body).toBe(202);
    await t.app.services.backups.idle();
    const link = async (user: string) => (await t.as(user, { method: 'POST', url: `/v1/game/${gameId}/backups/${backup.json().id}/link` })).json().url as string;
    const [bobsLink, carolsLink, alicesLink] = [await link('bob'), await link('carol'), await link('alice')];
    const downloads = async (url: string) => [200, 302].includes((await t.app.inject({ method: 'GET', url: new URL(url).pathname })).statusCode);
    const schedules = async () => new Map(((await t.as('alice', { url: `/v1/game/${gameId}/schedules` })).json().data as Json[]).map((s) => [s.id, s]));
    expect(await downloads(bobsLink)).toBe(true);

    // Bob leaves the group: his schedule stops, shown to the owner with the reason; his link dies.
    expect((await t.as('alice', { method: 'DELETE', url: `/v1/friend/group/${crew}/member`, payload: { userId: await userId(t, 'bob') } })).statusCode).toBe(204);
    let listed = await schedules();
    expect(listed.get(bobs)).toMatchObject({ enabled: false, disabledReason: 'authorAccessEnded', nextRunAt: null });
    expect(listed.get(carols)).toMatchObject({ enabled: true, disabledReason: null });
    expect(await downloads(bobsLink)).toBe(false);
    expect(await downloads(carolsLink)).toBe(true);

    // The owner may take it back: saved again, it runs and the reason goes.
    const resumed = await t.as('alice', { method: 'PUT', url: `/v1/game/${gameId}/schedules/${bobs}`, payload: { ...rule('say from bob'), enabled: true } });
    expect(resumed.json()).toMatchObject({ enabled: true, disabledReason: null });

    // The group deleted: Carol's go the same way; the owner's own stay.
    expect((await t.as('alice', { method: 'DELETE', url: `/v1/friend/group/${crew}` })).statusCode).toBe(204);
    listed = await schedules();
    expect(listed.get(carols)).toMatchObject({ enabled: false, disabledReason: 'authorAccessEnded' });
    expect(listed.get(alices)).toMatchObject({ enabled: true, disabledReason: null });
    expect(await downloads(carolsLink)).toBe(false);
    expect(await downloads(alicesLink)).toBe(true);
  });

  /**
   * Every game operation of the OpenAPI document declares the level it needs, and each level is
   * checked: the operations are read from the document, so a new route cannot be forgotten.
   */
  it('checks every game operation against every role, from the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json() as { paths: Record<string, Record<string, Json>> };
    const { gameId } = await buyGame(t);
    await befriend(t, 'alice', 'bob');
    const grant = (await share('alice', gameId, { friendId: await userId(t, 'bob'), role: 'VIEWER' })).json();
    const people: Array<[GameAccessLevel | 'NONE', string]> = [
      ['NONE', 'carol'],
      ['VIEWER', 'bob'],
      ['MODERATOR', 'bob'],
      ['COADMIN', 'bob'],
      ['OWNER', 'alice'],
    ];
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      path.startsWith('/v1/game/{id}') ? Object.entries(item).map(([method, op]) => ({ path, method: method.toUpperCase(), needed: op['x-game-role'] as GameAccessLevel | undefined })) : [],
    );
    expect(operations.length).toBeGreaterThan(30);
    expect(operations.filter((o) => !o.needed).map((o) => `${o.method} ${o.path}`)).toEqual([]);

    const wrong: string[] = [];
    for (const [as, who] of people) {
      if (as !== 'NONE' && as !== 'OWNER') await t.as('alice', { method: 'PUT', url: `/v1/game/${gameId}/access/${grant.id}`, payload: { role: as } });
      for (const { path, method, needed } of operations) {
        const url = path.replace('{id}', gameId).replace(/\{\w+\}/g, ZERO);
        // Streams answer and stay open: their check is the console test's.
        if (url.endsWith('/stream')) continue;
        const res = await t.as(who, { method: method as 'GET', url, ...(['POST', 'PUT', 'PATCH'].includes(method) ? { payload: {} } : {}) });
        const code = res.headers['content-type']?.includes('json') ? (res.json() as { code?: string }).code : undefined;
        const expected = as === 'NONE' ? 'notFound.game' : gameAccessLevels.indexOf(as) < gameAccessLevels.indexOf(needed!) ? 'sharing.roleTooLow' : 'allowed';
        const got = code === 'notFound.game' || code === 'sharing.roleTooLow' ? code : 'allowed';
        if (got !== expected) wrong.push(`${as} ${method} ${path}: ${res.statusCode} ${code ?? ''}, expected ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
