import { describe, expect, it } from 'vitest';
import { useTestApp } from '../fixtures/app.ts';
import { buyGame, catalogue, fund, runGame, userId } from '../fixtures/games.ts';

const NOBODY = '00000000-0000-4000-8000-000000000000';

describe('buying a game', () => {
  const t = useTestApp();

  it('charges the first period in the game’s transaction, provisions it and lists its ledger entry', async () => {
    const { definitionId, bigId } = await catalogue(t.current);
    await fund(t.current, 'alice', 350);
    const res = await t.current.as('alice', {
      method: 'POST',
      url: '/v1/game/create',
      payload: { definitionId, packageId: bigId, name: 'Castle', settings: { motd: 'Welcome', gameMode: 'creative' }, autoRenew: true },
    });
    expect(res.statusCode).toBe(201);
    const game = res.json();
    expect(game).toMatchObject({
      name: 'Castle',
      definitionId,
      packageId: bigId,
      version: '1.21.4',
      ramMb: 1024,
      maxPlayers: 10,
      status: 'CREATED',
      desiredState: 'stopped',
      autoRenew: true,
      whitelistEnabled: false,
      // The definition's defaults fill what the buyer left out.
      settings: { motd: 'Welcome', gameMode: 'creative', difficulty: 'hard', seed: null },
    });
    const days = (Date.parse(game.periodEnd) - Date.parse(game.createdAt)) / 86_400_000;
    expect(Math.round(days)).toBe(30);
    expect(t.current.driver.provisioned.has(game.id)).toBe(true);
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/user' })).json().balance).toBe(50);

    const ledger = (await t.current.as('alice', { method: 'GET', url: `/v1/game/${game.id}/transactions` })).json();
    expect(ledger).toMatchObject({ totalElements: 1, page: 0, size: 20 });
    expect(ledger.data[0]).toMatchObject({ amount: -300, balanceAfter: 50, kind: 'GAME_CHARGE', refType: 'game', refId: game.id });
    // The line names the package in the owner's saved language: French until they read the site in English.
    expect(ledger.data[0].reason).toBe('Serveur « Castle » : Grand, 30 premiers jours');
    await t.current.as('alice', { method: 'GET', url: '/v1/user', headers: { cookie: 'locale=en' } });
    const english = (await t.current.as('alice', { method: 'GET', url: `/v1/game/${game.id}/transactions` })).json();
    expect(english.data[0].reason).toBe('Game "Castle": Big, first 30 days');
  });

  it('answers 402 when the balance is short, leaving the balance and the games untouched', async () => {
    const { definitionId, bigId } = await catalogue(t.current);
    await fund(t.current, 'alice', 299);
    const res = await t.current.as('alice', { method: 'POST', url: '/v1/game/create', payload: { definitionId, packageId: bigId, name: 'Too dear' } });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ code: 'credits.notEnough', detail: 'Crédits insuffisants : il en faut 300 et le solde est de 299' });
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/user' })).json().balance).toBe(299);
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/game' })).json().totalElements).toBe(0);
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/purchase/transactions' })).json().totalElements).toBe(1);
    expect(t.current.driver.provisioned.size).toBe(0);
  });

  it('checks the body, the offer and the promo code', async () => {
    const { definitionId, smallId } = await catalogue(t.current);
    const other = await catalogue(t.current);
    await fund(t.current, 'alice', 1000);
    const body = { definitionId, packageId: smallId, name: 'World' };
    expect((await t.current.app.inject({ method: 'POST', url: '/v1/game/create', payload: body })).statusCode).toBe(401);
    const bad = await t.current.as('alice', { method: 'POST', url: '/v1/game/create', payload: { ...body, name: '', settings: { difficulty: 'insane' }, owner: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['name', 'owner', 'settings.difficulty']);
    const motd = await t.current.as('alice', { method: 'POST', url: '/v1/game/create', payload: { ...body, settings: { motd: 'm'.repeat(60) } } });
    expect(motd.json().errors[0].field).toBe('settings.motd');
    // A package of another definition is not on offer here.
    expect((await t.current.as('alice', { method: 'POST', url: '/v1/game/create', payload: { ...body, packageId: other.smallId } })).statusCode).toBe(404);
    expect((await t.current.as('alice', { method: 'POST', url: '/v1/game/create', payload: { ...body, definitionId: NOBODY } })).statusCode).toBe(404);
    const promo = await t.current.as('alice', { method: 'POST', url: '/v1/game/create', payload: { ...body, promoCode: 'SUMMER' } });
    expect(promo.statusCode).toBe(404);
    expect(promo.json()).toMatchObject({ code: 'promoCode.doesNotExist', detail: expect.stringContaining('SUMMER'), errors: [{ field: 'promoCode', code: 'field.doesNotExist' }] });
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/user' })).json().balance).toBe(1000);
  });

  it('does not sell a draft definition', async () => {
    const { definitionId, smallId } = await catalogue(t.current, { published: false });
    await fund(t.current, 'alice', 1000);
    expect((await t.current.as('alice', { method: 'POST', url: '/v1/game/create', payload: { definitionId, packageId: smallId, name: 'x' } })).statusCode).toBe(404);
  });
});

describe('games of their owner only', () => {
  const t = useTestApp();

  it('hides another user’s game (404) on every call, and needs a token (401)', async () => {
    const { gameId } = await buyGame(t.current);
    const calls = [
      ['GET', `/v1/game/${gameId}`],
      ['GET', `/v1/game/${gameId}/status`],
      ['GET', `/v1/game/${gameId}/transactions`],
      ['POST', `/v1/game/${gameId}/start`],
      ['POST', `/v1/game/${gameId}/stop`],
      ['POST', `/v1/game/${gameId}/restart`],
      ['GET', `/v1/game/${gameId}/minecraft/players/connected`],
      ['GET', `/v1/game/${gameId}/minecraft/players?type=OPS`],
      ['GET', `/v1/game/${gameId}/minecraft/whitelist/status`],
      ['PUT', `/v1/game/${gameId}/minecraft/whitelist/status?enabled=true`],
    ] as const;
    for (const [method, url] of calls) {
      expect((await t.current.app.inject({ method, url })).statusCode, `${method} ${url}`).toBe(401);
      const res = await t.current.as('bob', { method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().code).toBe('notFound.game');
    }
    for (const [url, payload] of [
      [`/v1/game/${gameId}/minecraft/player`, { name: 'Steve', type: 'OPS', action: 'ADD' }],
      [`/v1/game/${gameId}/minecraft/kick`, { name: 'Steve' }],
    ] as const) {
      expect((await t.current.app.inject({ method: 'POST', url, payload })).statusCode, url).toBe(401);
      expect((await t.current.as('bob', { method: 'POST', url, payload })).statusCode, url).toBe(404);
    }
    expect((await t.current.as('bob', { method: 'GET', url: '/v1/game' })).json().totalElements).toBe(0);
    // Nothing bob did reached the game.
    expect((await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json()).toMatchObject({ status: 'CREATED', whitelistEnabled: false });
    expect((await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/minecraft/players?type=OPS` })).json().players).toEqual([]);
  });

  it('lists the caller’s games, filtered by status and ignoredStatus (repeated or comma lists), paged', async () => {
    const { definitionId, smallId } = await catalogue(t.current);
    await fund(t.current, 'alice', 1000);
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three']) {
      ids.push((await t.current.as('alice', { method: 'POST', url: '/v1/game/create', payload: { definitionId, packageId: smallId, name } })).json().id);
    }
    await runGame(t.current, ids[0]!);
    await t.current.as('alice', { method: 'POST', url: `/v1/game/${ids[1]}/start` });
    const names = async (query: string) => (await t.current.as('alice', { method: 'GET', url: `/v1/game${query}` })).json().data.map((g: { name: string }) => g.name);
    expect(await names('')).toEqual(['three', 'two', 'one']);
    expect(await names('?status=RUNNING')).toEqual(['one']);
    expect(await names('?status=RUNNING&status=STARTING')).toEqual(['two', 'one']);
    expect(await names('?status=RUNNING,CREATED')).toEqual(['three', 'one']);
    expect(await names('?ignoredStatus=CREATED,STARTING')).toEqual(['one']);
    expect(await names('?ignoredStatus=CREATED&ignoredStatus=RUNNING')).toEqual(['two']);
    expect(await names('?size=1&page=1')).toEqual(['two']);
    expect(await names('?offset=2')).toEqual(['one']);
    const bad = await t.current.as('alice', { method: 'GET', url: '/v1/game?status=RUNNING,BROKEN' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toMatch(/^querystring\.status/);
  });
});

describe('back office', () => {
  const t = useTestApp();

  it('lists everyone’s games with their owners for staff and support; 403 for players', async () => {
    const { gameId } = await buyGame(t.current);
    expect((await t.current.app.inject({ url: '/v1/staff/games' })).statusCode).toBe(401);
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/staff/games' })).statusCode).toBe(403);
    for (const roles of [['staff'], ['support']]) {
      const list = (await t.current.as('boss', { roles, method: 'GET', url: '/v1/staff/games?status=CREATED' })).json();
      expect(list).toMatchObject({ totalElements: 1, data: [{ id: gameId, ownerId: await userId(t.current, 'alice') }] });
    }
    expect((await t.current.as('boss', { roles: ['staff'], method: 'GET', url: '/v1/staff/games?ignoredStatus=CREATED' })).json().totalElements).toBe(0);
  });
});

describe('lifecycle actions', () => {
  const t = useTestApp();

  it('starts, stops and restarts through the reconciler; 409 with the current status otherwise', async () => {
    const { gameId } = await buyGame(t.current);
    const act = (action: string) => t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/${action}` });
    const tick = () => t.current.app.services.reconciler.tick();
    const get = async () => (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json();

    for (const action of ['stop', 'restart']) {
      const res = await act(action);
      expect(res.statusCode, action).toBe(409);
      expect(res.json()).toMatchObject({ code: expect.stringMatching(/^games\.cannot(Stop|Restart)$/), detail: expect.stringContaining('CREATED') });
    }

    const started = await act('start');
    expect(started.statusCode).toBe(200);
    expect(started.json()).toMatchObject({ status: 'STARTING', desiredState: 'running' });
    expect((await act('start')).json()).toMatchObject({ code: 'games.cannotStart', detail: expect.stringContaining('STARTING') });
    await tick();
    expect((await get()).status).toBe('STARTING');
    await tick();
    expect(await get()).toMatchObject({ status: 'RUNNING' });

    const status = (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/status` })).json();
    expect(status).toMatchObject({ status: 'RUNNING', playersOnline: 0, maxPlayers: 10, version: '1.21.4', motd: 'My world' });
    expect(status.address).toMatch(/^127\.0\.0\.1:\d+$/);

    const restarted = await act('restart');
    expect(restarted.json()).toMatchObject({ status: 'STOPPING', desiredState: 'running' });
    // Stops, then launches again; that a stop saves the world is the runtime's to prove (tests/real: a block outlives it).
    await tick();
    expect((await get()).status).toBe('STARTING');
    await tick();
    expect((await get()).status).toBe('RUNNING');

    expect((await act('stop')).json()).toMatchObject({ status: 'STOPPING', desiredState: 'stopped' });
    expect((await act('stop')).statusCode).toBe(409);
    expect((await act('start')).json()).toMatchObject({ code: 'games.cannotStart', detail: expect.stringContaining('STOPPING') });
    await tick();
    expect(await get()).toMatchObject({ status: 'STOPPED', desiredState: 'stopped' });
    const stopped = (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/status` })).json();
    expect(stopped).toEqual({ status: 'STOPPED', playersOnline: 0, maxPlayers: 10, version: '1.21.4', motd: 'My world', address: null });
    await tick();
    expect((await get()).status).toBe('STOPPED');
    expect((await t.current.as('alice', { method: 'POST', url: `/v1/game/not-an-id/start` })).json().errors[0].field).toBe('params.id');
  });

  it('gives the live status: recorded RUNNING but answering nothing shows STARTING, without an address', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    const live = async () => (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/status` })).json();
    expect((await live()).address).not.toBeNull();
    t.current.driver.freeze(gameId);
    expect(await live()).toMatchObject({ status: 'STARTING', address: null, playersOnline: 0 });
    t.current.driver.crash(gameId);
    expect(await live()).toMatchObject({ status: 'CRASHED', address: null });
  });

  it('answers 503 with Retry-After to a start the host has no room for, and changes nothing', async () => {
    const { gameId } = await buyGame(t.current);
    const act = (action: string) => t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/${action}` });
    const get = async () => (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json();
    const noRoom = (res: Awaited<ReturnType<typeof act>>) => {
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('30');
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json().code).toBe('games.noCapacity');
    };
    const created = await get();
    t.current.driver.capacity = 0;
    noRoom(await act('start'));
    expect(await get()).toEqual(created);
    // An action that does not apply still says why.
    expect((await act('restart')).statusCode).toBe(409);

    t.current.driver.capacity = 1;
    await runGame(t.current, gameId);
    // A running game's restart gives its own slot back first.
    expect((await act('restart')).statusCode).toBe(200);
    await t.current.app.services.reconciler.tick();
    await t.current.app.services.reconciler.tick();
    expect((await get()).status).toBe('RUNNING');

    t.current.driver.crash(gameId);
    await t.current.app.services.reconciler.tick();
    const crashed = await get();
    expect(crashed.status).toBe('CRASHED');
    t.current.driver.capacity = 0;
    noRoom(await act('restart'));
    noRoom(await act('start'));
    expect(await get()).toEqual(crashed);
    t.current.driver.capacity = 1;
    expect((await act('restart')).statusCode).toBe(200);
  });

  it('takes two clicks racing for one start as one', async () => {
    const { gameId } = await buyGame(t.current);
    const results = await Promise.all([1, 2, 3].map(() => t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/start` })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
  });
});

describe('internal stop', () => {
  it('is off (404) while INTERNAL_TOKEN is unset', async () => {
    const { startTestApp } = await import('../fixtures/app.ts');
    const t = await startTestApp();
    try {
      const { gameId } = await buyGame(t);
      const res = await t.app.inject({ method: 'DELETE', url: `/v1/internal/game/stop/${gameId}`, headers: { 'x-internal-token': 'anything-at-all-16' } });
      expect(res.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  describe('with INTERNAL_TOKEN', () => {
    const token = 'internal-secret-0123456789';
    const t = useTestApp({ INTERNAL_TOKEN: token });

    it('stops a game without a bearer token when the header matches, and refuses otherwise', async () => {
      const { gameId } = await buyGame(t.current);
      await runGame(t.current, gameId);
      const call = (headers: Record<string, string>, id = gameId) => t.current.app.inject({ method: 'DELETE', url: `/v1/internal/game/stop/${id}`, headers });
      expect((await call({})).statusCode).toBe(403);
      expect((await call({ 'x-internal-token': `${token}x` })).statusCode).toBe(403);
      expect((await call({ 'x-internal-token': token }, NOBODY)).statusCode).toBe(404);
      expect((await call({ 'x-internal-token': token })).statusCode).toBe(204);
      const game = (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json();
      expect(game).toMatchObject({ status: 'STOPPING', desiredState: 'stopped' });
      await t.current.app.services.reconciler.tick();
      expect((await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json().status).toBe('STOPPED');
      // Idempotent: a stopped game stays stopped.
      expect((await call({ 'x-internal-token': token })).statusCode).toBe(204);
    });
  });
});

describe('GamesService for other modules', () => {
  const t = useTestApp();

  it('knows who created a game of a definition', async () => {
    const { definitionId } = await buyGame(t.current);
    const { games } = t.current.app.services;
    expect(await games.hasCreatedGameOf(await userId(t.current, 'alice'), definitionId)).toBe(true);
    expect(await games.hasCreatedGameOf(await userId(t.current, 'bob'), definitionId)).toBe(false);
  });
});
