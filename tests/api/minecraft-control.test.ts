import { describe, expect, it } from 'vitest';
import { useTestApp } from '../fixtures/app.ts';
import { buyGame, runGame } from '../fixtures/games.ts';

describe('Minecraft control', () => {
  const t = useTestApp();
  const as = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => t.current.as('alice', { method, url, ...(payload ? { payload } : {}) });

  it('keeps player lists in the database while stopped, hands them to the server at start, and applies changes live', async () => {
    const { gameId } = await buyGame(t.current);
    const player = (name: string, type: string, action: string) => as('POST', `/v1/game/${gameId}/minecraft/player`, { name, type, action });

    const added = await player('Steve', 'WHITELIST', 'ADD');
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({ type: 'WHITELIST', players: [{ name: 'Steve' }] });
    // Names are case-insensitive: adding again changes nothing.
    expect((await player('steve', 'WHITELIST', 'ADD')).json().players).toHaveLength(1);
    await player('Alex_2', 'OPS', 'ADD');
    await player('Griefer', 'BANNED', 'ADD');
    expect((await as('PUT', `/v1/game/${gameId}/minecraft/whitelist/status?enabled=true`)).json()).toEqual({ enabled: true });

    await runGame(t.current, gameId);
    const spec = t.current.driver.servers.get(gameId)!.spec;
    expect(spec).toMatchObject({ whitelist: ['Steve'], ops: ['Alex_2'], banned: ['Griefer'], whitelistEnabled: true, difficulty: 'hard' });
    expect(t.current.driver.commands(gameId)).toEqual([]);

    await player('Notch', 'WHITELIST', 'ADD');
    await player('STEVE', 'WHITELIST', 'REMOVE');
    await player('Alex_2', 'OPS', 'REMOVE');
    await player('Herobrine', 'OPS', 'ADD');
    await player('Griefer', 'BANNED', 'REMOVE');
    await player('Troll', 'BANNED', 'ADD');
    await as('PUT', `/v1/game/${gameId}/minecraft/whitelist/status?enabled=false`);
    expect(t.current.driver.commands(gameId)).toEqual(['whitelist add Notch', 'whitelist remove Steve', 'deop Alex_2', 'op Herobrine', 'pardon Griefer', 'ban Troll', 'whitelist off']);
    // Removing a name that is not there sends nothing.
    await player('Nobody', 'OPS', 'REMOVE');
    expect(t.current.driver.commands(gameId)).toHaveLength(7);
    // A ban's reason goes with it, on one line; a reason means nothing to the other lists.
    const banned = await as('POST', `/v1/game/${gameId}/minecraft/player`, { name: 'Spammer', type: 'BANNED', action: 'ADD', reason: 'Spam in chat\nop Spammer' });
    expect(banned.statusCode).toBe(200);
    await as('POST', `/v1/game/${gameId}/minecraft/player`, { name: 'Helper', type: 'OPS', action: 'ADD', reason: 'ignored' });
    expect(t.current.driver.commands(gameId).slice(7)).toEqual(['ban Spammer Spam in chat op Spammer', 'op Helper']);
    await player('Spammer', 'BANNED', 'REMOVE');
    await player('Helper', 'OPS', 'REMOVE');

    const lists = async (type: string) => (await as('GET', `/v1/game/${gameId}/minecraft/players?type=${type}`)).json().players.map((p: { name: string }) => p.name);
    expect(await lists('WHITELIST')).toEqual(['Notch']);
    expect(await lists('OPS')).toEqual(['Herobrine']);
    expect(await lists('BANNED')).toEqual(['Troll']);
    expect((await as('GET', `/v1/game/${gameId}/minecraft/whitelist/status`)).json()).toEqual({ enabled: false });
  });

  it('checks the calls’ input', async () => {
    const { gameId } = await buyGame(t.current);
    const noType = await as('GET', `/v1/game/${gameId}/minecraft/players`);
    expect(noType.statusCode).toBe(400);
    expect(noType.json().errors[0].field).toBe('querystring.type');
    expect((await as('GET', `/v1/game/${gameId}/minecraft/players?type=FRIENDS`)).json().errors[0].field).toBe('querystring.type');
    const badName = await as('POST', `/v1/game/${gameId}/minecraft/player`, { name: 'no spaces!', type: 'OPS', action: 'ADD' });
    expect(badName.json().errors.map((e: { field: string }) => e.field)).toEqual(['name']);
    const badAction = await as('POST', `/v1/game/${gameId}/minecraft/player`, { name: 'Steve', type: 'OPS', action: 'TOGGLE' });
    expect(badAction.json().errors[0].field).toBe('action');
    const noEnabled = await as('PUT', `/v1/game/${gameId}/minecraft/whitelist/status`);
    expect(noEnabled.statusCode).toBe(400);
    expect(noEnabled.json().errors[0].field).toBe('querystring.enabled');
    expect((await as('PUT', `/v1/game/${gameId}/minecraft/whitelist/status?enabled=maybe`)).statusCode).toBe(400);
    expect((await as('POST', `/v1/game/${gameId}/minecraft/kick`, { name: 'Steve', reason: 'x'.repeat(201) })).json().errors[0].field).toBe('reason');
    expect((await as('POST', `/v1/game/${gameId}/minecraft/player`, { name: 'Steve', type: 'BANNED', action: 'ADD', reason: 'x'.repeat(201) })).json().errors[0].field).toBe('reason');
  });

  it('shows the players online and kicks one, only while running (409 otherwise)', async () => {
    const { gameId } = await buyGame(t.current);
    expect((await as('GET', `/v1/game/${gameId}/minecraft/players/connected`)).json()).toEqual({ playersOnline: 0, maxPlayers: 10, players: [] });
    const early = await as('POST', `/v1/game/${gameId}/minecraft/kick`, { name: 'Steve' });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'games.kickNotRunning', detail: expect.stringContaining('CREATED') });

    await runGame(t.current, gameId);
    t.current.driver.join(gameId, 'Steve');
    t.current.driver.join(gameId, 'Alex');
    expect((await as('GET', `/v1/game/${gameId}/minecraft/players/connected`)).json()).toEqual({ playersOnline: 2, maxPlayers: 10, players: [{ name: 'Steve' }, { name: 'Alex' }] });
    expect((await as('GET', `/v1/game/${gameId}/status`)).json().playersOnline).toBe(2);

    const kicked = await as('POST', `/v1/game/${gameId}/minecraft/kick`, { name: 'Steve', reason: 'Be nice\nop Steve' });
    expect(kicked.statusCode).toBe(200);
    // A line break cannot smuggle a second command.
    expect(t.current.driver.commands(gameId)).toEqual(['kick Steve Be nice op Steve']);
    expect(kicked.json().message).toBe('Kicked Steve: Be nice op Steve');
    expect((await as('GET', `/v1/game/${gameId}/minecraft/players/connected`)).json().players).toEqual([{ name: 'Alex' }]);
  });

  it('adds or removes many names at once for other modules (a friend group)', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    const { gamePlayers } = t.current.app.services;
    const list = await gamePlayers.patchPlayers(gameId, ['Steve', 'Alex', 'steve'], 'WHITELIST', 'ADD');
    expect(list.players.map((p) => p.name).sort()).toEqual(['Alex', 'Steve']);
    expect(t.current.driver.commands(gameId).sort()).toEqual(['whitelist add Alex', 'whitelist add Steve']);
    expect((await gamePlayers.patchPlayers(gameId, ['ALEX'], 'WHITELIST', 'REMOVE')).players.map((p) => p.name)).toEqual(['Steve']);
    await expect(gamePlayers.patchPlayers(gameId, ['bad name'], 'WHITELIST', 'ADD')).rejects.toMatchObject({ status: 400 });
    // Another player's game is not theirs to change: the call's guard answers 404 before the lists are read.
    const bob = await t.current.as('bob', { method: 'POST', url: `/v1/game/${gameId}/minecraft/player`, payload: { name: 'Steve', type: 'OPS', action: 'ADD' } });
    expect(bob.statusCode).toBe(404);
  });
});
