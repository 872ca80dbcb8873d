import { describe, expect, it } from 'vitest';
import { useTestApp } from '../fixtures/app.ts';
import { befriend } from '../fixtures/social.ts';
import { userId } from '../fixtures/games.ts';

const NOBODY = '00000000-0000-4000-8000-000000000000';

describe('block list', () => {
  const t = useTestApp();

  it('blocking ends friendship, requests both ways and group places, in one go', async () => {
    const [alice, bob] = [await userId(t.current, 'alice'), await userId(t.current, 'bob')];
    await befriend(t.current, 'alice', 'bob');
    await t.current.as('bob', { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: 'BobMC' } });
    const groupId = (await t.current.as('alice', { method: 'POST', url: '/v1/friend/group', payload: { name: 'Crew' } })).json().id;
    await t.current.as('alice', { method: 'POST', url: `/v1/friend/group/${groupId}/member`, payload: { userId: bob } });
    await t.current.as('alice', { method: 'POST', url: `/v1/friend/group/${groupId}/member/pseudo`, payload: { mcName: 'bobmc' } });
    await t.current.as('alice', { method: 'POST', url: `/v1/friend/group/${groupId}/member/pseudo`, payload: { mcName: 'Other' } });

    const blocked = await t.current.as('alice', { method: 'POST', url: '/v1/blocklist', payload: { userId: bob } });
    expect(blocked.statusCode).toBe(201);
    expect(blocked.json()).toMatchObject({ id: bob, name: 'bob', mcName: 'BobMC', blockId: expect.any(String) });
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/friend' })).json().totalElements).toBe(0);
    expect((await t.current.as('bob', { method: 'GET', url: '/v1/friend' })).json().totalElements).toBe(0);
    expect(await t.current.app.services.friendGroups.memberNames(alice, groupId)).toEqual(['Other']);
    expect((await t.current.as('alice', { method: 'POST', url: '/v1/blocklist', payload: { userId: bob } })).statusCode).toBe(409);

    const list = (await t.current.as('alice', { method: 'GET', url: '/v1/blocklist' })).json();
    expect(list).toMatchObject({ totalElements: 1, data: [{ id: bob, name: 'bob' }] });
    expect((await t.current.as('bob', { method: 'GET', url: '/v1/blocklist' })).json().totalElements).toBe(0);
  });

  it('refuses requests either way as if the user did not exist, and removes pending ones', async () => {
    const [alice, bob, carol] = [await userId(t.current, 'alice'), await userId(t.current, 'bob'), await userId(t.current, 'carol')];
    await t.current.as('bob', { method: 'POST', url: '/v1/friend', payload: { userId: alice } });
    await t.current.as('alice', { method: 'POST', url: '/v1/friend', payload: { userId: carol } });
    await t.current.as('alice', { method: 'POST', url: '/v1/blocklist', payload: { userId: bob } });
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/friend/request' })).json().totalElements).toBe(1);
    expect((await t.current.as('bob', { method: 'GET', url: '/v1/friend/request' })).json().totalElements).toBe(0);

    const fromBlocked = await t.current.as('bob', { method: 'POST', url: '/v1/friend', payload: { userId: alice } });
    const toUnknown = await t.current.as('bob', { method: 'POST', url: '/v1/friend', payload: { userId: NOBODY } });
    expect(fromBlocked.statusCode).toBe(404);
    expect(fromBlocked.json()).toEqual(toUnknown.json());
    expect((await t.current.as('alice', { method: 'POST', url: '/v1/friend', payload: { userId: bob } })).statusCode).toBe(404);
    await t.current.as('alice', { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: 'AliceMC' } });
    const byName = await t.current.as('bob', { method: 'POST', url: '/v1/friend/mcname', payload: { mcName: 'AliceMC' } });
    const unlinked = await t.current.as('bob', { method: 'POST', url: '/v1/friend/mcname', payload: { mcName: 'NobodyMC' } });
    expect(byName.statusCode).toBe(404);
    expect(byName.json()).toEqual(unlinked.json());

    const blockId = (await t.current.as('alice', { method: 'GET', url: '/v1/blocklist' })).json().data[0].blockId;
    expect((await t.current.as('bob', { method: 'DELETE', url: `/v1/blocklist/${blockId}` })).statusCode).toBe(404);
    expect((await t.current.as('alice', { method: 'DELETE', url: `/v1/blocklist/${blockId}` })).statusCode).toBe(204);
    expect((await t.current.as('bob', { method: 'POST', url: '/v1/friend', payload: { userId: alice } })).statusCode).toBe(201);
    await t.current.as('alice', { method: 'POST', url: '/v1/blocklist', payload: { userId: bob } });
    expect((await t.current.as('alice', { method: 'DELETE', url: `/v1/blocklist/${bob}` })).statusCode).toBe(204);
  });

  it('blocks all or nothing: a failing cleanup leaves the friendship and no block', async () => {
    const bob = await userId(t.current, 'bob');
    await befriend(t.current, 'alice', 'bob');
    t.current.app.services.events.on('blocklist.blocked', async () => {
      throw new Error('cleanup failed');
    });
    expect((await t.current.as('alice', { method: 'POST', url: '/v1/blocklist', payload: { userId: bob } })).statusCode).toBe(500);
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/friend' })).json().totalElements).toBe(1);
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/blocklist' })).json().totalElements).toBe(0);
  });

  it('checks input and needs a token', async () => {
    const alice = await userId(t.current, 'alice');
    const self = await t.current.as('alice', { method: 'POST', url: '/v1/blocklist', payload: { userId: alice } });
    expect(self.statusCode).toBe(400);
    expect(self.json().errors[0].field).toBe('userId');
    expect((await t.current.as('alice', { method: 'POST', url: '/v1/blocklist', payload: { userId: NOBODY } })).statusCode).toBe(404);
    expect((await t.current.as('alice', { method: 'POST', url: '/v1/blocklist', payload: {} })).json().errors[0].field).toBe('userId');
    for (const [method, url] of [
      ['POST', '/v1/blocklist'],
      ['GET', '/v1/blocklist'],
      ['DELETE', `/v1/blocklist/${NOBODY}`],
    ] as const) {
      expect((await t.current.app.inject({ method, url })).statusCode, `${method} ${url}`).toBe(401);
    }
  });
});
