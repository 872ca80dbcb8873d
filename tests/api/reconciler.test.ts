import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { WAITING_FOR_CAPACITY } from '../../src/server/modules/games/reconciler.ts';
import { useTestApp } from '../fixtures/app.ts';
import { buyGame, runGame } from '../fixtures/games.ts';
import { MemoryDriver } from '../fixtures/memory-driver.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

describe('reconciler', () => {
  const t = useTestApp();
  const tick = () => t.current.app.services.reconciler.tick();
  const game = async (id: string) => (await t.current.as('alice', { method: 'GET', url: `/v1/game/${id}` })).json();
  const notices = async () =>
    (await t.current.as('alice', { method: 'GET', url: '/v1/user/notifications?size=100', headers: { cookie: 'locale=en' } }))
      .json()
      .data.map((n: { data: { description: string } }) => n.data.description);

  it('restarts a crash after a back-off and tells the owner', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    t.current.driver.crash(gameId, 'exit code 137');
    await tick();
    const crashed = await game(gameId);
    expect(crashed).toMatchObject({ status: 'CRASHED', statusReason: 'exit code 137', desiredState: 'running' });
    expect(Date.parse(crashed.nextAttemptAt) - t.current.clock.now.getTime()).toBe(5 * SECOND);
    const [notice] = (await t.current.as('alice', { method: 'GET', url: '/v1/user/notifications' })).json().data;
    // In French, alice's saved locale; the runtime's reason as it gave it.
    expect(notice.data).toEqual({
      title: 'Serveur « My world » arrêté brutalement',
      description: 'exit code 137. Il redémarre dans 5 s.',
      link: `/dashboard/game/${gameId}`,
      key: 'game.crashed',
      params: { name: 'My world', reason: 'exit code 137', seconds: 5 },
    });

    // Not before its time.
    t.current.clock.advance(4 * SECOND);
    await tick();
    expect((await game(gameId)).status).toBe('CRASHED');
    t.current.clock.advance(1 * SECOND);
    await tick();
    expect(await game(gameId)).toMatchObject({ status: 'STARTING', statusReason: null, nextAttemptAt: null });
    await tick();
    expect((await game(gameId)).status).toBe('RUNNING');
  });

  it('says why a server stopped unexpectedly in its owner’s language', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    // The runtime gives no reason of its own: the words are ours, in both languages.
    t.current.driver.crash(gameId, null);
    await tick();
    expect(await game(gameId)).toMatchObject({ status: 'CRASHED', statusReason: 'The server stopped unexpectedly' });
    const [notice] = (await t.current.as('alice', { method: 'GET', url: '/v1/user/notifications' })).json().data;
    expect(notice.data.description).toBe("Le serveur s'est arrêté de façon inattendue. Il redémarre dans 5 s.");
    expect(notice.data.params.reason).toEqual({ fr: "Le serveur s'est arrêté de façon inattendue", en: 'The server stopped unexpectedly' });
    expect(await notices()).toEqual(['The server stopped unexpectedly. It restarts in 5 s.']);
  });

  it('sends the list changes made while the server started once it runs', async () => {
    const { gameId } = await buyGame(t.current);
    const patch = (name: string, type: string, action: string) => t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/minecraft/player`, payload: { name, type, action } });
    await patch('Early_1', 'WHITELIST', 'ADD');
    t.current.driver.startupObservations = 1;
    await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/start` });
    await tick(); // launched with Early_1 on the whitelist
    expect((await game(gameId)).status).toBe('STARTING');

    // Made while it starts: kept, but nothing can be sent yet.
    expect((await patch('Late_1', 'WHITELIST', 'ADD')).statusCode).toBe(200);
    expect((await patch('Early_1', 'WHITELIST', 'REMOVE')).statusCode).toBe(200);
    expect((await patch('Griefer', 'BANNED', 'ADD')).statusCode).toBe(200);
    expect((await t.current.as('alice', { method: 'PUT', url: `/v1/game/${gameId}/minecraft/whitelist/status?enabled=true` })).statusCode).toBe(200);
    await tick();
    expect(t.current.driver.commands(gameId)).toEqual([]);

    await tick();
    expect((await game(gameId)).status).toBe('RUNNING');
    expect(t.current.driver.commands(gameId)).toEqual(['whitelist on', 'whitelist add Late_1', 'whitelist remove Early_1', 'ban Griefer']);
    // Once sent, a later round sends nothing again.
    await tick();
    expect(t.current.driver.commands(gameId)).toHaveLength(4);
  });

  it('stops a running server that no longer answers, and restarts it as a crash', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    const bound = t.current.config.games.startTimeoutMs;
    t.current.driver.freeze(gameId);
    await tick();
    // A moment of silence is no verdict.
    t.current.clock.advance(bound - SECOND);
    await tick();
    expect((await game(gameId)).status).toBe('RUNNING');
    expect(t.current.driver.calls).not.toContain(`stop ${gameId}`);
    t.current.clock.advance(2 * SECOND);
    await tick();
    expect(await game(gameId)).toMatchObject({ status: 'CRASHED', statusReason: `The server stopped answering for ${bound / SECOND + 1} s`, desiredState: 'running' });
    expect(t.current.driver.calls).toContain(`stop ${gameId}`);
    expect((await notices())[0]).toBe(`The server stopped answering for ${bound / SECOND + 1} s. It restarts in 5 s.`);
    t.current.clock.advance(5 * SECOND);
    await tick();
    await tick();
    expect((await game(gameId)).status).toBe('RUNNING');
  });

  it('gives up after 3 restarts in 10 minutes, leaves the game CRASHED and tells the owner', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    const backoffs = [5 * SECOND, 30 * SECOND, 120 * SECOND];
    for (const wait of backoffs) {
      t.current.driver.crash(gameId);
      await tick();
      expect((await game(gameId)).status).toBe('CRASHED');
      t.current.clock.advance(wait);
      await tick(); // relaunch
      await tick(); // RUNNING
      expect((await game(gameId)).status).toBe('RUNNING');
    }
    t.current.driver.crash(gameId, 'out of memory');
    await tick();
    expect(await game(gameId)).toMatchObject({ status: 'CRASHED', statusReason: 'out of memory', nextAttemptAt: null, desiredState: 'running' });
    expect((await notices())[0]).toBe('out of memory. It crashed 4 times in 10 minutes: it stays stopped until you start it again.');
    expect(await notices()).toHaveLength(4);

    t.current.clock.advance(30 * MINUTE);
    await tick();
    expect((await game(gameId)).status).toBe('CRASHED');
    expect(t.current.driver.calls.filter((c) => c === `start ${gameId}`)).toHaveLength(4);

    // The owner's start gives the budget back.
    await runGame(t.current, gameId);
    t.current.driver.crash(gameId);
    await tick();
    expect((await game(gameId)).nextAttemptAt).not.toBeNull();
  });

  it('counts only the restarts of the last 10 minutes', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    for (let i = 0; i < 5; i++) {
      t.current.driver.crash(gameId);
      await tick();
      expect((await game(gameId)).nextAttemptAt, `crash ${i + 1}`).not.toBeNull();
      t.current.clock.advance(6 * MINUTE);
      await tick();
      await tick();
      expect((await game(gameId)).status).toBe('RUNNING');
    }
  });

  it('ends a start that never gets ready CRASHED with the reason, without restarting it', async () => {
    const { gameId } = await buyGame(t.current);
    await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/start` });
    await tick();
    t.current.driver.hang(gameId);
    t.current.clock.advance(89 * SECOND);
    await tick();
    expect((await game(gameId)).status).toBe('STARTING');
    t.current.clock.advance(1 * SECOND);
    await tick();
    expect(await game(gameId)).toMatchObject({ status: 'CRASHED', statusReason: 'The server was not ready 90 s after its start', nextAttemptAt: null });
    expect(t.current.driver.servers.get(gameId)?.status).toBe('STOPPED');
    expect((await notices())[0]).toContain('The server was not ready 90 s after its start');
    t.current.clock.advance(10 * MINUTE);
    await tick();
    expect((await game(gameId)).status).toBe('CRASHED');
  });

  it('treats a start the driver refuses as a crash, with its reason', async () => {
    const { gameId } = await buyGame(t.current);
    t.current.driver.failNextStart = 'no free port';
    await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/start` });
    await tick();
    expect(await game(gameId)).toMatchObject({ status: 'CRASHED', statusReason: 'The start failed (no free port)' });
    t.current.clock.advance(5 * SECOND);
    await tick();
    await tick();
    expect((await game(gameId)).status).toBe('RUNNING');
  });

  it('keeps a start the host has no room for waiting, without a crash, and launches it once room returns', async () => {
    const { gameId } = await buyGame(t.current);
    expect((await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/start` })).statusCode).toBe(200);
    // The room went between the click and the launch.
    t.current.driver.capacity = 0;
    await tick();
    expect(await game(gameId)).toMatchObject({ status: 'STARTING', statusReason: WAITING_FOR_CAPACITY, nextAttemptAt: null });
    // Far longer than a start may take: waiting is no failed start, and each round tries again.
    t.current.clock.advance(10 * MINUTE);
    await tick();
    expect(await game(gameId)).toMatchObject({ status: 'STARTING', statusReason: WAITING_FOR_CAPACITY });
    expect(t.current.driver.calls.filter((c) => c === `start ${gameId}`)).toHaveLength(2);

    t.current.driver.capacity = Infinity;
    t.current.driver.startupObservations = 1;
    await tick();
    expect(await game(gameId)).toMatchObject({ status: 'STARTING', statusReason: null });
    // Not ready at the first look: the start timeout counts from the launch, not from the click.
    await tick();
    expect((await game(gameId)).status).toBe('STARTING');
    await tick();
    expect(await game(gameId)).toMatchObject({ status: 'RUNNING', statusReason: null });
    expect(await notices()).toEqual([]);
  });

  it('lets a crash restart wait for room: one crash told, and it runs once a slot is free', async () => {
    const { gameId } = await buyGame(t.current);
    const other = (await buyGame(t.current, 'alice', 'Other')).gameId;
    // The other game holds the slot for the ten minutes below: left empty that long it would sleep
    // (the default sleepAfterMinutes), give the slot back, and this game would launch in that round.
    expect((await t.current.as('alice', { method: 'PUT', url: `/v1/game/${other}/settings`, payload: { sleepAfterMinutes: 0 } })).statusCode).toBe(200);
    t.current.driver.capacity = 1;
    await runGame(t.current, gameId);
    t.current.driver.crash(gameId);
    await tick();
    expect((await game(gameId)).status).toBe('CRASHED');
    // Another game takes the slot the crash gave back.
    await runGame(t.current, other);
    t.current.clock.advance(5 * SECOND);
    await tick();
    expect(await game(gameId)).toMatchObject({ status: 'STARTING', statusReason: WAITING_FOR_CAPACITY });
    t.current.clock.advance(10 * MINUTE);
    await tick();
    expect(await game(gameId)).toMatchObject({ status: 'STARTING', statusReason: WAITING_FOR_CAPACITY });
    expect(await notices()).toEqual(['exit code 1. It restarts in 5 s.']);

    expect((await t.current.as('alice', { method: 'POST', url: `/v1/game/${other}/stop` })).statusCode).toBe(200);
    // The stop and the launch share a round in no set order: three rounds see it running.
    await tick();
    await tick();
    await tick();
    expect(await game(other)).toMatchObject({ status: 'STOPPED' });
    expect(await game(gameId)).toMatchObject({ status: 'RUNNING', statusReason: null });
    expect(await notices()).toHaveLength(1);
  });

  it('lets the owner stop a crashed game: no restart follows', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    t.current.driver.crash(gameId);
    await tick();
    expect((await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/stop` })).statusCode).toBe(200);
    await tick();
    t.current.clock.advance(10 * MINUTE);
    await tick();
    expect(await game(gameId)).toMatchObject({ status: 'STOPPED', desiredState: 'stopped', nextAttemptAt: null });
  });

  it('leaves a game leased by another replica alone', async () => {
    const { gameId } = await buyGame(t.current);
    await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/start` });
    await t.current.database.db.execute(`update games set lease_owner = 'other', lease_until = now() + interval '1 hour' where id = '${gameId}'`);
    await tick();
    expect(t.current.driver.calls).not.toContain(`start ${gameId}`);
  });

  it('lets two replicas on one database act on a game once', async () => {
    const { gameId } = await buyGame(t.current);
    await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/start` });
    const replica = await buildApp({ config: t.current.config, database: t.current.database, logger: false, runtime: t.current.driver.runtime, clock: () => t.current.clock.now, loops: false });
    try {
      await Promise.all([tick(), replica.services.reconciler.tick()]);
      expect(t.current.driver.calls.filter((c) => c === `start ${gameId}`)).toHaveLength(1);
      await Promise.all([tick(), replica.services.reconciler.tick()]);
      await tick();
      expect(await game(gameId)).toMatchObject({ status: 'RUNNING', statusReason: null });
      expect(t.current.driver.calls.filter((c) => c === `start ${gameId}`)).toHaveLength(1);
    } finally {
      await replica.close();
    }
  });

  it('stops servers cleanly on close, and the next app on the same database starts them again', async () => {
    const { gameId } = await buyGame(t.current);
    const stoppedGame = (await buyGame(t.current, 'alice', 'Quiet')).gameId;
    await runGame(t.current, gameId);
    const first = t.current.driver;

    await t.current.app.close();
    expect(first.closed).toBe(true);
    expect(first.saves.get(gameId)).toBe(1);
    expect(first.servers.get(gameId)?.status).toBe('STOPPED');

    const driver = new MemoryDriver();
    const next = await buildApp({ config: t.current.config, database: t.current.database, logger: false, runtime: driver.runtime, clock: () => t.current.clock.now, loops: false });
    try {
      await next.services.reconciler.tick();
      await next.services.reconciler.tick();
      expect(driver.servers.get(gameId)?.status).toBe('RUNNING');
      expect(driver.servers.has(stoppedGame)).toBe(false);
      const bearer = await t.current.token('alice');
      const after = (await next.inject({ url: `/v1/game/${gameId}`, headers: { authorization: `Bearer ${bearer}` } })).json();
      expect(after).toMatchObject({ status: 'RUNNING', desiredState: 'running', statusReason: null });
      // Coming back after a restart of the API is no crash: nobody was told one.
      expect((await next.inject({ url: '/v1/user/notifications', headers: { authorization: `Bearer ${bearer}` } })).json().totalElements).toBe(0);
    } finally {
      await next.close();
    }
  });

  it('runs its loop in the app: an owner’s start is acted on at once, and RUNNING shows without waiting for the next full round', async () => {
    const driver = new MemoryDriver();
    // Not ready at the first looks: only the quick rounds over starting servers can see it ready before the minute is up.
    driver.startupObservations = 3;
    const config = { ...t.current.config, games: { ...t.current.config.games, reconcileIntervalMs: 60_000 } };
    const app = await buildApp({ config, database: t.current.database, logger: false, runtime: driver.runtime });
    try {
      const { gameId } = await buyGame(t.current);
      const headers = { authorization: `Bearer ${await t.current.token('alice')}` };
      // The round after the click comes at once, not after the minute between rounds.
      expect((await app.inject({ method: 'POST', url: `/v1/game/${gameId}/start`, headers })).statusCode).toBe(200);
      await expect.poll(() => driver.servers.get(gameId)?.status, { timeout: 5000 }).toBe('STARTING');
      await expect.poll(async () => (await app.inject({ url: `/v1/game/${gameId}`, headers })).json().status, { timeout: 10_000 }).toBe('RUNNING');
    } finally {
      await app.close();
    }
  });
});
