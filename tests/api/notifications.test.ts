import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startListeningApp, startReplica, useTestApp, type TestApp } from '../fixtures/app.ts';
import { openStream } from '../fixtures/sse.ts';
import { buyGame, fund, userId } from '../fixtures/games.ts';
import { RESOURCE_CHANGE_EVENT, type ResourceChange } from '../../src/contract/live.ts';

describe('notifications', () => {
  const t = useTestApp();

  async function notify(name: string, title: string) {
    const id = (await t.current.as(name, { method: 'GET', url: '/v1/user' })).json().id;
    return t.current.app.services.notifications.notify(id, { key: 'text', params: { title, description: `about ${title}` }, link: '/dashboard/social' });
  }

  it('lists all and unread notifications newest first, and marks one read', async () => {
    const first = await notify('alice', 'first');
    await notify('alice', 'second');
    const all = (await t.current.as('alice', { method: 'GET', url: '/v1/user/notifications' })).json();
    expect(all.totalElements).toBe(2);
    expect(all.data.map((n: { data: { title: string } }) => n.data.title)).toEqual(['second', 'first']);
    expect(all.data[0]).toMatchObject({ event: 'basic-link-event', read: false, data: { description: 'about second', link: '/dashboard/social' } });

    const put = await t.current.as('alice', { method: 'PUT', url: `/v1/user/notification/${first.id}` });
    expect(put.statusCode).toBe(204);
    const unread = (await t.current.as('alice', { method: 'GET', url: '/v1/user/notifications/unread?page=0&size=20' })).json();
    expect(unread).toMatchObject({ totalElements: 1, page: 0, size: 20 });
    expect(unread.data[0].data.title).toBe('second');
  });

  it('never lets one user see or mark another’s notification (404), and checks input', async () => {
    const mine = await notify('alice', 'private');
    expect((await t.current.as('bob', { method: 'PUT', url: `/v1/user/notification/${mine.id}` })).statusCode).toBe(404);
    expect((await t.current.as('bob', { method: 'GET', url: '/v1/user/notifications' })).json().totalElements).toBe(0);
    const stillUnread = (await t.current.as('alice', { method: 'GET', url: '/v1/user/notifications/unread' })).json();
    expect(stillUnread.totalElements).toBe(1);
    const bad = await t.current.as('alice', { method: 'PUT', url: '/v1/user/notification/not-a-uuid' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('params.uuid');
    for (const [url, field] of [
      ['/v1/user/notifications?size=500', 'querystring.size'],
      ['/v1/user/notifications/unread?page=-1', 'querystring.page'],
      ['/v1/user/notifications/unread?size=0', 'querystring.size'],
    ] as const) {
      const badPage = await t.current.as('alice', { method: 'GET', url });
      expect(badPage.statusCode, url).toBe(400);
      expect(badPage.json().errors[0].field, url).toBe(field);
    }
  });

  it('needs a token on every call', async () => {
    for (const [method, url] of [
      ['GET', '/v1/user/notifications'],
      ['GET', '/v1/user/notifications/unread'],
      ['GET', '/v1/user/notifications/stream'],
      ['PUT', '/v1/user/notification/00000000-0000-4000-8000-000000000000'],
      ['POST', '/v1/user/notification'],
    ] as const) {
      expect((await t.current.app.inject({ method, url })).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('sends the caller a test notification', async () => {
    const res = await t.current.as('alice', { method: 'POST', url: '/v1/user/notification' });
    expect(res.statusCode).toBe(201);
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/user/notifications/unread' })).json().totalElements).toBe(1);
  });
});

describe('notification stream', () => {
  let t: TestApp & { origin: string };
  beforeEach(async () => {
    t = await startListeningApp();
  });
  afterEach(() => t.close());

  it('delivers a notification live as basic-link-event with its id, only to its user', async () => {
    const alice = await t.token('alice');
    const bob = await t.token('bob');
    const a = await openStream(`${t.origin}/v1/user/notifications/stream`, alice);
    const b = await openStream(`${t.origin}/v1/user/notifications/stream`, bob);
    expect(a.status).toBe(200);
    const sent = (await t.as('alice', { method: 'POST', url: '/v1/user/notification' })).json();
    const [ev] = await a.waitFor('basic-link-event');
    expect(ev!.id).toBe(sent.id);
    expect(JSON.parse(ev!.data)).toEqual(sent.data);
    await new Promise((r) => setTimeout(r, 200));
    expect(b.events.filter((e) => e.event === 'basic-link-event')).toHaveLength(0);
    a.close();
    b.close();
  });

  it('replays what was missed after Last-Event-ID, in order', async () => {
    const alice = await t.token('alice');
    const sent = [];
    for (let i = 0; i < 3; i++) sent.push((await t.as('alice', { method: 'POST', url: '/v1/user/notification' })).json().id);
    const s = await openStream(`${t.origin}/v1/user/notifications/stream`, alice, { 'last-event-id': sent[0] });
    const events = await s.waitFor('basic-link-event', 2);
    expect(events.map((e) => e.id)).toEqual([sent[1], sent[2]]);
    s.close();
  });

  it('does not notify when the cause’s transaction rolls back', async () => {
    const alice = await t.token('alice');
    const id = (await t.as('alice', { method: 'GET', url: '/v1/user' })).json().id;
    const s = await openStream(`${t.origin}/v1/user/notifications/stream`, alice);
    const { db, notifications } = t.app.services;
    await db
      .transaction(async (tx) => {
        await notifications.notify(id, { key: 'text', params: { title: 'ghost', description: 'never' }, link: null }, tx);
        throw new Error('rollback');
      })
      .catch(() => {});
    await notifications.notify(id, { key: 'text', params: { title: 'real', description: 'yes' }, link: null });
    const [ev] = await s.waitFor('basic-link-event');
    expect(JSON.parse(ev!.data).title).toBe('real');
    expect((await t.as('alice', { method: 'GET', url: '/v1/user/notifications' })).json().totalElements).toBe(1);
    s.close();
  });

  it('ends open streams on shutdown so close() does not hang', async () => {
    const s = await openStream(`${t.origin}/v1/user/notifications/stream`, await t.token('alice'));
    await t.app.close();
    await s.closed;
    expect(s.events.length).toBe(0);
  });
});

describe('notification fan-out across replicas', () => {
  it('reaches a stream on another app instance through LISTEN/NOTIFY', async () => {
    const t = await startListeningApp();
    const replica = await startReplica(t);
    await replica.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const port = (replica.app.server.address() as { port: number }).port;
      const token = await t.token('alice');
      const s = await openStream(`http://127.0.0.1:${port}/v1/user/notifications/stream`, token);
      const sent = (await t.as('alice', { method: 'POST', url: '/v1/user/notification' })).json();
      const [ev] = await s.waitFor('basic-link-event');
      expect(ev!.id).toBe(sent.id);
      s.close();
    } finally {
      await replica.close();
      await t.close();
    }
  });
});

describe('notification stream limits', () => {
  it('closes a user’s oldest stream past their limit, and refuses streams past an address’s limit', async () => {
    const t = await startListeningApp({ STREAMS_PER_USER: '3', STREAMS_PER_ADDRESS: '5' });
    const url = `${t.origin}/v1/user/notifications/stream`;
    const opened: Array<Awaited<ReturnType<typeof openStream>>> = [];
    try {
      const alice = await t.token('alice');
      for (let i = 0; i < 4; i++) opened.push(await openStream(url, alice));
      expect(opened.map((s) => s.status)).toEqual([200, 200, 200, 200]);
      // The first one was closed for the fourth; the other three stay.
      await opened[0]!.closed;
      expect(t.app.services.notifications.hub.count).toBe(3);
      const sent = (await t.as('alice', { method: 'POST', url: '/v1/user/notification' })).json();
      for (const s of opened.slice(1)) expect((await s.waitFor('basic-link-event'))[0]!.id).toBe(sent.id);

      // Two more from bob fill the address (3 + 2); a third is refused, and alice's stay open.
      const bob = await t.token('bob');
      for (let i = 0; i < 2; i++) opened.push(await openStream(url, bob));
      const refused = await fetch(url, { headers: { authorization: `Bearer ${bob}` } });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(t.app.services.notifications.hub.count).toBe(5);
      // Closing one frees a place.
      opened[1]!.close();
      while (t.app.services.notifications.hub.count > 4) await new Promise((r) => setTimeout(r, 10));
      const again = await openStream(url, bob);
      opened.push(again);
      expect(again.status).toBe(200);
    } finally {
      for (const s of opened) s.close();
      await t.close();
    }
  });
});

describe('resource changes on the stream', () => {
  let t: TestApp & { origin: string };
  beforeEach(async () => {
    t = await startListeningApp();
  });
  afterEach(() => t.close());

  const stream = async (name: string) => openStream(`${t.origin}/v1/user/notifications/stream`, await t.token(name));
  type Stream = Awaited<ReturnType<typeof stream>>;
  const changes = (s: Stream): ResourceChange[] => s.events.filter((e) => e.event === RESOURCE_CHANGE_EVENT).map((e) => JSON.parse(e.data) as ResourceChange);
  /** Waits for a change like `like` on `s`. */
  async function seen(s: Stream, like: Partial<ResourceChange>) {
    const deadline = Date.now() + 5000;
    while (!changes(s).some((c) => Object.entries(like).every(([k, v]) => JSON.stringify(c[k as keyof ResourceChange]) === JSON.stringify(v)))) {
      if (Date.now() > deadline) throw new Error(`no change like ${JSON.stringify(like)}; got ${JSON.stringify(changes(s))}`);
      await s.waitFor(RESOURCE_CHANGE_EVENT, changes(s).length + 1, 5000).catch(() => {});
    }
  }

  it("tells a game's owner of its status, player lists and balance, and never another user", async () => {
    const { gameId } = await buyGame(t);
    const alice = await stream('alice');
    const bob = await stream('bob');
    const game: ResourceChange = { resource: 'games', ids: [gameId], type: 'updated' };

    expect((await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/start` })).statusCode).toBe(200);
    await seen(alice, game);
    const beforeRunning = changes(alice).length;
    await t.app.services.reconciler.tick();
    await t.app.services.reconciler.tick();
    expect((await t.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json().status).toBe('RUNNING');
    await alice.waitFor(RESOURCE_CHANGE_EVENT, beforeRunning + 1);

    // A player joining is seen at the reconciler's next look.
    const beforeJoin = changes(alice).length;
    t.driver.join(gameId, 'Steve');
    await t.app.services.reconciler.tick();
    await alice.waitFor(RESOURCE_CHANGE_EVENT, beforeJoin + 1);
    expect(changes(alice).slice(beforeJoin)).toContainEqual(game);

    const beforeList = changes(alice).length;
    const added = await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/minecraft/player`, payload: { name: 'Alex', type: 'WHITELIST', action: 'ADD' } });
    expect(added.statusCode).toBe(200);
    await alice.waitFor(RESOURCE_CHANGE_EVENT, beforeList + 1);
    expect(changes(alice)[beforeList]).toEqual(game);

    await fund(t, 'alice', 50);
    await seen(alice, { resource: 'transactions', type: 'created' });

    // Bob's own change comes after all of alice's: had any of hers reached him, it would be here by now.
    await fund(t, 'bob', 5);
    await seen(bob, { resource: 'transactions' });
    expect(changes(bob)).toEqual([{ resource: 'transactions', ids: [], type: 'created' }]);
    // Changes carry no id: the bell's Last-Event-ID stays the last notification's.
    expect(alice.events.filter((e) => e.event === RESOURCE_CHANGE_EVENT && e.id !== undefined)).toEqual([]);
    alice.close();
    bob.close();
  });

  it('tells both sides of a friend request when it arrives and when it is answered, and nobody else', async () => {
    const bobId = await userId(t, 'bob');
    const alice = await stream('alice');
    const bob = await stream('bob');
    const carol = await stream('carol');
    const sent = await t.as('alice', { method: 'POST', url: '/v1/friend', payload: { userId: bobId } });
    expect(sent.statusCode).toBe(201);
    const requestId = sent.json().requestId as string;
    const arrived: ResourceChange = { resource: 'friendRequests', ids: [requestId], type: 'created' };
    await seen(bob, arrived);
    await seen(alice, arrived);

    const answer = await t.as('bob', { method: 'PUT', url: '/v1/friend/request', payload: { requestId, accept: true } });
    expect(answer.statusCode).toBe(200);
    for (const s of [alice, bob]) {
      await seen(s, { resource: 'friendRequests', ids: [requestId], type: 'deleted' });
      await seen(s, { resource: 'friends', type: 'created' });
    }

    const group = (await t.as('alice', { method: 'POST', url: '/v1/friend/group', payload: { name: 'Builders' } })).json();
    await seen(alice, { resource: 'friendGroups', ids: [group.id], type: 'created' });
    expect((await t.as('alice', { method: 'POST', url: `/v1/friend/group/${group.id}/member`, payload: { userId: bobId } })).statusCode).toBe(201);
    await seen(alice, { resource: 'friendGroups', ids: [group.id], type: 'updated' });

    await fund(t, 'carol', 5);
    await seen(carol, { resource: 'transactions' });
    expect(changes(carol)).toEqual([{ resource: 'transactions', ids: [], type: 'created' }]);
    expect(changes(bob).filter((c) => c.resource === 'friendGroups')).toEqual([]);
    for (const s of [alice, bob, carol]) s.close();
  });

  it('is sent at commit only, and a notification read on one tab is told to the others', async () => {
    const id = await userId(t, 'alice');
    const alice = await stream('alice');
    const { db, notifications } = t.app.services;
    const ghost = '00000000-0000-4000-8000-000000000000';
    await db
      .transaction(async (tx) => {
        await notifications.changed(id, { resource: 'games', ids: [ghost], type: 'updated' }, tx);
        throw new Error('rollback');
      })
      .catch(() => {});
    const sent = (await t.as('alice', { method: 'POST', url: '/v1/user/notification' })).json();
    expect((await t.as('alice', { method: 'PUT', url: `/v1/user/notification/${sent.id}` })).statusCode).toBe(204);
    await seen(alice, { resource: 'notifications', ids: [sent.id], type: 'updated' });
    expect(changes(alice)).toEqual([{ resource: 'notifications', ids: [sent.id], type: 'updated' }]);
    alice.close();
  });
});
