import { describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../fixtures/app.ts';
import { buyGame, runGame, userId } from '../fixtures/games.ts';
import { befriend } from '../fixtures/social.ts';

const NOBODY = '00000000-0000-4000-8000-000000000000';

/** A group of `owner` holding bare Minecraft names. */
async function groupOf(t: TestApp, owner: string, name: string, mcNames: string[]): Promise<string> {
  const res = await t.as(owner, { method: 'POST', url: '/v1/friend/group', payload: { name } });
  if (res.statusCode !== 201) throw new Error(`group: ${res.body}`);
  const id = res.json().id as string;
  for (const mcName of mcNames) await t.as(owner, { method: 'POST', url: `/v1/friend/group/${id}/member/pseudo`, payload: { mcName } });
  return id;
}

/** A user's notifications about a game being open, read in `locale`. */
async function openNotices(t: TestApp, who: string, locale = 'fr') {
  const page = (await t.as(who, { method: 'GET', url: '/v1/user/notifications?size=100', headers: { cookie: `locale=${locale}` } })).json();
  return (page.data as { data: { title: string; description: string; link: string; key: string } }[]).map((n) => n.data).filter((n) => n.key === 'game.announced');
}

describe('games and friend groups', () => {
  const t = useTestApp();

  it('adds and removes a whole group on a player list, live when the server runs', async () => {
    const { gameId } = await buyGame(t.current);
    const builders = await groupOf(t.current, 'alice', 'Builders', ['Steve', 'Alex_2', 'Notch']);
    const patch = (groupId: string, type: string, action: string, who = 'alice', game = gameId) =>
      t.current.as(who, { method: 'POST', url: `/v1/game/${game}/minecraft/players`, payload: { groupId, type, action } });

    // Stopped: stored only, handed to the server at its start.
    const stored = await patch(builders, 'WHITELIST', 'ADD');
    expect(stored.statusCode).toBe(200);
    expect(
      stored
        .json()
        .players.map((p: { name: string }) => p.name)
        .sort(),
    ).toEqual(['Alex_2', 'Notch', 'Steve']);
    await runGame(t.current, gameId);
    expect(t.current.driver.servers.get(gameId)!.spec.whitelist.sort()).toEqual(['Alex_2', 'Notch', 'Steve']);
    expect(t.current.driver.commands(gameId)).toEqual([]);

    // Running: each change goes over RCON; names already there send nothing.
    const admins = await groupOf(t.current, 'alice', 'Admins', ['Notch', 'Herobrine']);
    const live = await patch(admins, 'WHITELIST', 'ADD');
    expect(live.json().players).toHaveLength(4);
    expect(t.current.driver.commands(gameId)).toEqual(['whitelist add Herobrine']);
    await patch(admins, 'OPS', 'ADD');
    await patch(builders, 'WHITELIST', 'REMOVE');
    expect(t.current.driver.commands(gameId).slice(1).sort()).toEqual(['op Herobrine', 'op Notch', 'whitelist remove Alex_2', 'whitelist remove Notch', 'whitelist remove Steve']);
    const whitelist = (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/minecraft/players?type=WHITELIST` })).json();
    expect(whitelist.players.map((p: { name: string }) => p.name)).toEqual(['Herobrine']);
  });

  it('stores the names when the server does not answer; its next start gets them', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    // The server died and the reconciler has not looked yet: the game still reads RUNNING.
    t.current.driver.crash(gameId);
    const builders = await groupOf(t.current, 'alice', 'Builders', ['Steve', 'Alex_2', 'Notch']);
    const res = await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/minecraft/players`, payload: { groupId: builders, type: 'OPS', action: 'ADD' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().players).toHaveLength(3);
    expect(t.current.driver.commands(gameId)).toEqual([]);
    await t.current.app.services.reconciler.tick();
    t.current.clock.advance(60_000);
    await t.current.app.services.reconciler.tick();
    await t.current.app.services.reconciler.tick();
    expect(t.current.driver.servers.get(gameId)!.spec.ops.sort()).toEqual(['Alex_2', 'Notch', 'Steve']);
  });

  it('answers 404 for another user’s group or game, and 400 naming the bad field', async () => {
    const { gameId } = await buyGame(t.current);
    const mine = await groupOf(t.current, 'alice', 'Builders', ['Steve']);
    const bobs = await groupOf(t.current, 'bob', 'Griefers', ['Troll']);
    const patch = (who: string, game: string, payload: object) => t.current.as(who, { method: 'POST', url: `/v1/game/${game}/minecraft/players`, payload });

    expect((await patch('alice', gameId, { groupId: bobs, type: 'BANNED', action: 'ADD' })).statusCode).toBe(404);
    expect((await patch('alice', gameId, { groupId: NOBODY, type: 'BANNED', action: 'ADD' })).statusCode).toBe(404);
    expect((await patch('bob', gameId, { groupId: bobs, type: 'BANNED', action: 'ADD' })).statusCode).toBe(404);
    expect((await patch('alice', NOBODY, { groupId: mine, type: 'BANNED', action: 'ADD' })).statusCode).toBe(404);
    const list = (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/minecraft/players?type=BANNED` })).json();
    expect(list.players).toEqual([]);

    const badType = await patch('alice', gameId, { groupId: mine, type: 'FRIENDS', action: 'ADD' });
    expect(badType.statusCode).toBe(400);
    expect(badType.json().errors.map((e: { field: string }) => e.field)).toContain('type');
    const badGroup = await patch('alice', gameId, { groupId: 'not-a-uuid', type: 'OPS', action: 'ADD' });
    expect(badGroup.statusCode).toBe(400);
    expect(badGroup.json().errors.map((e: { field: string }) => e.field)).toContain('groupId');
    const extra = await patch('alice', gameId, { groupId: mine, type: 'OPS', action: 'ADD', name: 'Steve' });
    expect(extra.statusCode).toBe(400);
    const noAction = await patch('alice', gameId, { groupId: mine, type: 'OPS' });
    expect(
      noAction
        .json()
        .errors.map((e: { field: string }) => e.field)
        .join(' '),
    ).toContain('action');
  });
});

describe('announce', () => {
  const t = useTestApp();
  const announce = (gameId: string, who = 'alice') => t.current.as(who, { method: 'POST', url: `/v1/game/${gameId}/announce` });

  it('tells the owner’s friends, not others, that the server is open, with its address', async () => {
    const { gameId } = await buyGame(t.current, 'alice', 'Castle');
    await befriend(t.current, 'alice', 'bob');
    await befriend(t.current, 'alice', 'carol');
    await userId(t.current, 'dave');
    // A pending request is not a friendship.
    await t.current.as('eve', { method: 'POST', url: '/v1/friend', payload: { userId: await userId(t.current, 'alice') } });

    const stopped = await announce(gameId);
    expect(stopped.statusCode).toBe(409);
    expect(stopped.json().detail).toContain('CREATED');

    await runGame(t.current, gameId);
    const res = await announce(gameId);
    expect(res.statusCode).toBe(200);
    const address = (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/status` })).json().address;
    expect(address).toBeTruthy();
    expect(res.json()).toEqual({ notified: 2, address });
    // Each friend reads it in their language: bob in French (the default), carol in the English her locale cookie names.
    for (const [friend, locale, title] of [
      ['bob', 'fr', 'Serveur « Castle » ouvert'],
      ['carol', 'en', '"Castle" is open'],
    ] as const) {
      const notices = await openNotices(t.current, friend, locale);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({ title, link: '/dashboard', key: 'game.announced', params: { name: 'Castle', owner: 'alice', address } });
      expect(notices[0]!.description).toContain(address);
    }
    for (const other of ['dave', 'eve', 'alice']) expect(await openNotices(t.current, other)).toEqual([]);
  });

  it('announces at most once per 10 minutes per game, with Retry-After', async () => {
    const { gameId } = await buyGame(t.current);
    await befriend(t.current, 'alice', 'bob');
    await runGame(t.current, gameId);
    expect((await announce(gameId)).statusCode).toBe(200);

    t.current.clock.advance(4 * 60_000);
    const early = await announce(gameId);
    expect(early.statusCode).toBe(429);
    expect(early.headers['retry-after']).toBe('360');
    expect(early.headers['content-type']).toContain('application/problem+json');
    // In words people use, and with the instants for a client to show in its reader's zone.
    const problem = early.json();
    expect(problem.detail).toMatch(/^Le serveur a été annoncé le .+ à \d\d:\d\d UTC ; il pourra l'être de nouveau le .+ à \d\d:\d\d UTC \(dans\s6\smin\)$/);
    expect(problem).toMatchObject({ code: 'games.announcedRecently', params: { at: expect.any(String), next: expect.any(String), seconds: 360 } });
    expect(Date.parse(problem.params.next) - Date.parse(problem.params.at)).toBe(10 * 60_000);
    expect(await openNotices(t.current, 'bob')).toHaveLength(1);

    t.current.clock.advance(6 * 60_000);
    expect((await announce(gameId)).statusCode).toBe(200);
    expect(await openNotices(t.current, 'bob')).toHaveLength(2);

    // The limit is per game: another game of the owner may be announced now.
    const other = await buyGame(t.current, 'alice', 'Second');
    await runGame(t.current, other.gameId);
    expect((await announce(other.gameId)).statusCode).toBe(200);
  });

  it('answers 404 for another user’s game and 409 naming the status when not running', async () => {
    const { gameId } = await buyGame(t.current);
    expect((await announce(gameId, 'bob')).statusCode).toBe(404);
    expect((await announce('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    await runGame(t.current, gameId);
    await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/stop` });
    const stopping = await announce(gameId);
    expect(stopping.statusCode).toBe(409);
    expect(stopping.json().detail).toMatch(/STOPPING|STOPPED/);
  });
});
