import { describe, expect, it } from 'vitest';
import { useTestApp } from '../fixtures/app.ts';
import { befriend } from '../fixtures/social.ts';
import { userId } from '../fixtures/games.ts';

const NOBODY = '00000000-0000-4000-8000-000000000000';

describe('friend groups', () => {
  const t = useTestApp();
  const create = (who: string, name: string) => t.current.as(who, { method: 'POST', url: '/v1/friend/group', payload: { name } });
  const group = (who: string, id: string) => t.current.as(who, { method: 'GET', url: `/v1/friend/group/${id}` });

  it('creates, lists with member counts, renames and deletes groups; names are unique per owner', async () => {
    const created = await create('alice', 'Builders');
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Builders', memberCount: 0 });
    const id = created.json().id;
    expect((await create('alice', 'builders')).statusCode).toBe(409);
    expect((await create('bob', 'Builders')).statusCode).toBe(201);
    await create('alice', 'Admins');
    await t.current.as('alice', { method: 'POST', url: `/v1/friend/group/${id}/member/pseudo`, payload: { mcName: 'Notch' } });

    const list = (await t.current.as('alice', { method: 'GET', url: '/v1/friend/group' })).json();
    expect(list).toMatchObject({ totalElements: 2, page: 0, size: 20 });
    expect(list.data.map((g: { name: string; memberCount: number }) => [g.name, g.memberCount])).toEqual([
      ['Admins', 0],
      ['Builders', 1],
    ]);

    const renamed = await t.current.as('alice', { method: 'PUT', url: `/v1/friend/group/${id}`, payload: { name: 'Master builders' } });
    expect(renamed.json()).toMatchObject({ id, name: 'Master builders', memberCount: 1 });
    expect((await t.current.as('alice', { method: 'PUT', url: `/v1/friend/group/${id}`, payload: { name: 'Admins' } })).statusCode).toBe(409);
    expect((await t.current.as('alice', { method: 'DELETE', url: `/v1/friend/group/${id}` })).statusCode).toBe(204);
    expect((await group('alice', id)).statusCode).toBe(404);
  });

  it('answers 404 for another user’s group on every call', async () => {
    const id = (await create('alice', 'Mine')).json().id;
    const bob = await userId(t.current, 'bob');
    for (const [method, url, payload] of [
      ['GET', `/v1/friend/group/${id}`, undefined],
      ['PUT', `/v1/friend/group/${id}`, { name: 'Stolen' }],
      ['DELETE', `/v1/friend/group/${id}`, undefined],
      ['POST', `/v1/friend/group/${id}/member`, { userId: bob }],
      ['DELETE', `/v1/friend/group/${id}/member`, { userId: bob }],
      ['POST', `/v1/friend/group/${id}/member/pseudo`, { mcName: 'Notch' }],
      ['POST', `/v1/friend/group/${id}/member/import`, { mcNames: ['Notch'] }],
    ] as const) {
      expect((await t.current.as('bob', { method, url, ...(payload ? { payload } : {}) })).statusCode, `${method} ${url}`).toBe(404);
    }
    await expect(t.current.app.services.friendGroups.memberNames(bob, id)).rejects.toMatchObject({ status: 404 });
    expect((await group('alice', id)).json()).toMatchObject({ name: 'Mine', members: [] });
  });

  it('holds friends by account and anyone by Minecraft name; memberNames gives every Minecraft name', async () => {
    const [alice, bob, carol] = [await userId(t.current, 'alice'), await userId(t.current, 'bob'), await userId(t.current, 'carol')];
    await befriend(t.current, 'alice', 'bob');
    await t.current.as('bob', { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: 'BobMC' } });
    const id = (await create('alice', 'Crew')).json().id;

    const added = await t.current.as('alice', { method: 'POST', url: `/v1/friend/group/${id}/member`, payload: { userId: bob } });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ userId: bob, name: 'bob', mcName: 'BobMC' });
    expect((await t.current.as('alice', { method: 'POST', url: `/v1/friend/group/${id}/member`, payload: { userId: bob } })).statusCode).toBe(409);
    expect((await t.current.as('alice', { method: 'POST', url: `/v1/friend/group/${id}/member`, payload: { userId: carol } })).statusCode).toBe(409);
    const self = await t.current.as('alice', { method: 'POST', url: `/v1/friend/group/${id}/member`, payload: { userId: alice } });
    expect(self.statusCode).toBe(400);
    expect(self.json().errors[0].field).toBe('userId');

    const pseudo = await t.current.as('alice', { method: 'POST', url: `/v1/friend/group/${id}/member/pseudo`, payload: { mcName: 'Steve_01' } });
    expect(pseudo.json()).toMatchObject({ userId: null, name: null, mcName: 'Steve_01' });
    expect((await t.current.as('alice', { method: 'POST', url: `/v1/friend/group/${id}/member/pseudo`, payload: { mcName: 'steve_01' } })).statusCode).toBe(409);
    const bad = await t.current.as('alice', { method: 'POST', url: `/v1/friend/group/${id}/member/pseudo`, payload: { mcName: 'ab' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('mcName');

    const detail = (await group('alice', id)).json();
    expect(detail.memberCount).toBe(2);
    expect(detail.members.map((m: { mcName: string }) => m.mcName).sort()).toEqual(['BobMC', 'Steve_01']);
    expect((await t.current.app.services.friendGroups.memberNames(alice, id)).sort()).toEqual(['BobMC', 'Steve_01']);

    expect((await t.current.as('alice', { method: 'DELETE', url: `/v1/friend/group/${id}/member`, payload: { userId: bob } })).statusCode).toBe(204);
    expect((await t.current.as('alice', { method: 'DELETE', url: `/v1/friend/group/${id}/member`, payload: { userId: bob } })).statusCode).toBe(404);
    expect((await t.current.as('alice', { method: 'DELETE', url: `/v1/friend/group/${id}/member/pseudo`, payload: { mcName: 'STEVE_01' } })).statusCode).toBe(204);
    expect(await t.current.app.services.friendGroups.memberNames(alice, id)).toEqual([]);
  });

  it('drops a former friend from both sides’ groups when the friendship ends, and keeps names added by hand', async () => {
    const [alice, bob] = [await userId(t.current, 'alice'), await userId(t.current, 'bob')];
    await befriend(t.current, 'alice', 'bob');
    const crew = (await create('alice', 'Crew')).json().id;
    const mates = (await create('bob', 'Mates')).json().id;
    await t.current.as('alice', { method: 'POST', url: `/v1/friend/group/${crew}/member`, payload: { userId: bob } });
    await t.current.as('alice', { method: 'POST', url: `/v1/friend/group/${crew}/member/pseudo`, payload: { mcName: 'Steve_01' } });
    await t.current.as('bob', { method: 'POST', url: `/v1/friend/group/${mates}/member`, payload: { userId: alice } });

    expect((await t.current.as('alice', { method: 'DELETE', url: `/v1/friend/${bob}` })).statusCode).toBe(204);
    expect((await group('alice', crew)).json().members.map((m: { userId: string | null; mcName: string }) => [m.userId, m.mcName])).toEqual([[null, 'Steve_01']]);
    expect((await group('bob', mates)).json().memberCount).toBe(0);
    // A group holds friends only: the former friend cannot be put back until they are friends again.
    expect((await t.current.as('alice', { method: 'POST', url: `/v1/friend/group/${crew}/member`, payload: { userId: bob } })).statusCode).toBe(409);
  });

  it('imports names with a result per name: added, already there, invalid, blocked', async () => {
    await userId(t.current, 'alice');
    const mallory = await userId(t.current, 'mallory');
    await t.current.as('mallory', { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: 'Griefer' } });
    await t.current.as('alice', { method: 'POST', url: '/v1/blocklist', payload: { userId: mallory } });
    const id = (await create('alice', 'Server')).json().id;
    await t.current.as('alice', { method: 'POST', url: `/v1/friend/group/${id}/member/pseudo`, payload: { mcName: 'Already' } });

    const res = await t.current.as('alice', {
      method: 'POST',
      url: `/v1/friend/group/${id}/member/import`,
      payload: { mcNames: ['Alex', 'already', 'bad name', 'x', 'griefer', 'Alex', 'New_One'] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      added: 2,
      results: [
        { mcName: 'Alex', result: 'ADDED' },
        { mcName: 'already', result: 'ALREADY_MEMBER' },
        { mcName: 'bad name', result: 'INVALID' },
        { mcName: 'x', result: 'INVALID' },
        { mcName: 'griefer', result: 'BLOCKED' },
        { mcName: 'Alex', result: 'ALREADY_MEMBER' },
        { mcName: 'New_One', result: 'ADDED' },
      ],
    });
    expect((await group('alice', id)).json().memberCount).toBe(3);

    const many = Array.from({ length: 200 }, (_, i) => `Player_${i}`);
    const big = await t.current.as('alice', { method: 'POST', url: `/v1/friend/group/${id}/member/import`, payload: { mcNames: many } });
    expect(big.json().added).toBe(200);
    const tooMany = await t.current.as('alice', { method: 'POST', url: `/v1/friend/group/${id}/member/import`, payload: { mcNames: [...many, 'One_more'] } });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().errors[0].field).toBe('mcNames');
    const empty = await t.current.as('alice', { method: 'POST', url: `/v1/friend/group/${id}/member/import`, payload: { mcNames: [] } });
    expect(empty.json().errors[0].field).toBe('mcNames');
  });

  it('checks bodies and needs a token', async () => {
    const long = await create('alice', 'x'.repeat(51));
    expect(long.statusCode).toBe(400);
    expect(long.json().errors[0].field).toBe('name');
    const extra = await t.current.as('alice', { method: 'POST', url: '/v1/friend/group', payload: { name: 'ok', colour: 'red' } });
    expect(extra.json().errors[0]).toEqual({ field: 'colour', code: 'validation.additionalProperties', message: expect.any(String) });
    for (const [method, url] of [
      ['POST', '/v1/friend/group'],
      ['GET', '/v1/friend/group'],
      ['GET', `/v1/friend/group/${NOBODY}`],
      ['PUT', `/v1/friend/group/${NOBODY}`],
      ['DELETE', `/v1/friend/group/${NOBODY}`],
      ['POST', `/v1/friend/group/${NOBODY}/member`],
      ['DELETE', `/v1/friend/group/${NOBODY}/member`],
      ['POST', `/v1/friend/group/${NOBODY}/member/pseudo`],
      ['POST', `/v1/friend/group/${NOBODY}/member/import`],
    ] as const) {
      expect((await t.current.app.inject({ method, url })).statusCode, `${method} ${url}`).toBe(401);
    }
  });
});
