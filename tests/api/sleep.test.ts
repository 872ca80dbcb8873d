import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { games } from '../../src/server/db/schema/games.ts';
import { Sleepers } from '../../src/server/modules/games/sleep.ts';
import { GameGateway, inApiSource } from '../../src/server/modules/games/gateway.ts';
import { Wakes } from '../../src/server/modules/games/wakes.ts';
import { useTestApp } from '../fixtures/app.ts';
import { buyGame, runGame } from '../fixtures/games.ts';

const MINUTE = 60_000;

describe('sleeping when empty', () => {
  const t = useTestApp({ INTERNAL_TOKEN: 'a-secret-of-16-chars' });
  const tick = () => t.current.app.services.reconciler.tick();
  const game = async (id: string) => (await t.current.as('alice', { method: 'GET', url: `/v1/game/${id}` })).json();
  const notices = async () => (await t.current.as('alice', { method: 'GET', url: '/v1/user/notifications?size=100' })).json().data;
  const settings = (id: string, payload: Record<string, unknown>) => t.current.as('alice', { method: 'PUT', url: `/v1/game/${id}/settings`, payload, headers: { cookie: 'locale=en' } });

  it('sleeps after ten minutes with nobody on it, without a crash or a notice, and stays asleep', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    await tick(); // first look at it empty
    const before = (await notices()).length;
    t.current.clock.advance(10 * MINUTE - 1000);
    await tick();
    expect((await game(gameId)).status).toBe('RUNNING');
    t.current.clock.advance(1000);
    await tick();
    const asleep = await game(gameId);
    expect(asleep).toMatchObject({ status: 'SLEEPING', desiredState: 'running', statusReason: null, nextAttemptAt: null });
    expect(asleep.statusChangedAt).toBe(t.current.clock.now.toISOString());
    // Saved and stopped through the driver.
    expect(t.current.driver.calls.filter((c) => c === `stop ${gameId}`)).toHaveLength(1);
    expect((await notices()).length).toBe(before);

    // Rounds later, nothing restarts it: no crash restart, no notice.
    t.current.clock.advance(30 * MINUTE);
    await tick();
    await tick();
    expect((await game(gameId)).status).toBe('SLEEPING');
    expect(t.current.driver.calls.filter((c) => c === `start ${gameId}`)).toHaveLength(1);
    expect((await notices()).length).toBe(before);
  });

  it('stays up while a player is on it, and sleeps after the time its owner chose', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    t.current.driver.join(gameId, 'Steve');
    await tick();
    t.current.clock.advance(60 * MINUTE);
    await tick();
    expect((await game(gameId)).status).toBe('RUNNING');

    const saved = await settings(gameId, { sleepAfterMinutes: 30 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ applied: ['sleepAfterMinutes'], pendingRestart: [], restarting: false });
    expect(saved.json().settings.values.sleepAfterMinutes).toBe(30);
    t.current.driver.crash(gameId, null); // the server is emptied; restarted after its back-off
    await tick();
    t.current.clock.advance(MINUTE);
    await tick();
    await tick();
    expect((await game(gameId)).status).toBe('RUNNING');
    await tick();
    t.current.clock.advance(29 * MINUTE);
    await tick();
    expect((await game(gameId)).status).toBe('RUNNING');
    t.current.clock.advance(MINUTE);
    await tick();
    expect((await game(gameId)).status).toBe('SLEEPING');
  });

  it('never sleeps when its owner turned it off, and refuses a time out of bounds', async () => {
    const { gameId } = await buyGame(t.current);
    expect((await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/settings` })).json().values.sleepAfterMinutes).toBe(10);
    for (const bad of [3, 121, -1, 7.5]) {
      const res = await settings(gameId, { sleepAfterMinutes: bad });
      expect(res.statusCode, `${bad}`).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
    expect((await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/settings` })).json().values.sleepAfterMinutes).toBe(10);
    expect((await settings(gameId, { sleepAfterMinutes: 0 })).statusCode).toBe(200);
    await runGame(t.current, gameId);
    await tick();
    t.current.clock.advance(200 * MINUTE);
    await tick();
    expect((await game(gameId)).status).toBe('RUNNING');
  });

  const sleeping = async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    await tick();
    t.current.clock.advance(10 * MINUTE);
    await tick();
    expect((await game(gameId)).status).toBe('SLEEPING');
    return gameId;
  };

  it('starts again with its owner’s start, and stops for good with their stop', async () => {
    const gameId = await sleeping();
    const started = await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/start` });
    expect(started.statusCode, started.body).toBe(200);
    await tick();
    await tick();
    expect((await game(gameId)).status).toBe('RUNNING');

    t.current.clock.advance(10 * MINUTE);
    await tick();
    t.current.clock.advance(10 * MINUTE);
    await tick();
    expect((await game(gameId)).status).toBe('SLEEPING');
    expect((await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/stop` })).statusCode).toBe(200);
    await tick();
    expect(await game(gameId)).toMatchObject({ status: 'STOPPED', desiredState: 'stopped' });
  });

  it('is a stopped game to schedules and backups', async () => {
    const gameId = await sleeping();
    const schedules = `/v1/game/${gameId}/schedules`;
    const create = async (payload: Record<string, unknown>) => {
      const res = await t.current.as('alice', { method: 'POST', url: schedules, payload: { repeat: 'hours', everyHours: 1, timeZone: 'Europe/Paris', ...payload } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    const run = async (id: string) => (await t.current.as('alice', { method: 'POST', url: `${schedules}/${id}/run` })).json();
    expect(await run(await create({ task: 'restart' }))).toMatchObject({ status: 'SKIPPED', reason: 'notRunning' });
    expect(await run(await create({ task: 'command', command: 'say hi', onlyWhenRunning: true }))).toMatchObject({ status: 'SKIPPED', reason: 'notRunning' });
    expect(t.current.driver.commands(gameId)).not.toContain('say hi');

    const calls = t.current.driver.calls.length;
    const backup = await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: {} });
    expect(backup.statusCode, backup.body).toBe(202);
    await t.current.app.services.backups.idle();
    const [made] = (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/backups` })).json().data;
    expect(made.status).toBe('READY');
    // The stopped path: the world as the sleep saved it, no stop, no start, and it sleeps on.
    expect(t.current.driver.calls.slice(calls)).toEqual([`backup ${gameId}`]);
    await tick();
    expect((await game(gameId)).status).toBe('SLEEPING');
  });

  it('wakes for an allowed player only, through the game’s lock: a wake during a backup waits for it', async () => {
    const gameId = await sleeping();
    const s = t.current.app.services;
    const sleepers = new Sleepers(t.current.database);
    await sleepers.start();
    // The gateway's wiring without its port: the wake as a login through it asks for it.
    const gateway = new GameGateway(t.current.database, inApiSource(s.runtime, s.wakes), s.runtime.log, { port: 0, domain: 'example', open: false, maxConnections: 10, connectionsPerAddress: 10 });
    try {
      const patch = (name: string, type: string) => t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/minecraft/player`, payload: { name, type, action: 'ADD' } });
      expect((await patch('Griefer', 'BANNED')).statusCode).toBe(200);
      expect((await patch('Friend', 'WHITELIST')).statusCode).toBe(200);
      expect((await t.current.as('alice', { method: 'PUT', url: `/v1/game/${gameId}/minecraft/whitelist/status?enabled=true` })).statusCode).toBe(200);
      const asleep = await sleepers.asleep(gameId);
      expect(asleep).toMatchObject({ motd: 'My world', whitelistEnabled: true });
      expect(sleepers.refusal(asleep!, 'w.example', 'GRIEFER')?.reason).toContain('banni');
      expect(sleepers.refusal(asleep!, 'w.example', 'Stranger')?.reason).toContain('liste blanche');
      expect(sleepers.refusal(asleep!, 'w.example', 'friend')).toBeNull();

      // A backup holds the lock: the wake waits, the game sleeps on.
      await t.current.database.db
        .update(games)
        .set({ lockedFor: 'BACKUP', lockedUntil: new Date(t.current.clock.now.getTime() + 60 * MINUTE) })
        .where(eq(games.id, gameId));
      let woken: unknown;
      const wake = gateway.wake(gameId, 'w.example', '192.0.2.1', new AbortController().signal).then((r) => (woken = r));
      await tick();
      expect((await game(gameId)).status).toBe('SLEEPING');
      expect(woken).toBeUndefined();

      // The backup ends: the wake starts it (its next look at the game), and answers once it runs.
      await t.current.database.db.update(games).set({ lockedFor: null, lockedUntil: null }).where(eq(games.id, gameId));
      await t.current.driver.launched(gameId);
      t.current.driver.ready(gameId);
      await wake;
      expect(woken).toEqual({ host: '127.0.0.1', port: expect.any(Number) });
      expect(await game(gameId)).toMatchObject({ status: 'RUNNING', desiredState: 'running' });
    } finally {
      await sleepers.stop();
    }
  });

  it('lets a held login in once the woken server says it takes logins, with no round of the reconciler and the clock still', async () => {
    const gameId = await sleeping();
    const s = t.current.app.services;
    const gateway = new GameGateway(t.current.database, inApiSource(s.runtime, s.wakes), s.runtime.log, { port: 0, domain: 'example', open: false, maxConnections: 10, connectionsPerAddress: 10 });
    const frozen = t.current.clock.now.getTime();
    // No look says it runs: only the server's own word (a launcher's once RCON listens) does.
    t.current.driver.startupObservations = Infinity;
    let woken: unknown;
    const wake = gateway.wake(gameId, 'w.example', '192.0.2.30', new AbortController().signal).then((r) => (woken = r));
    // The wake launched it by itself: the app's loop is off and no test round ran.
    await t.current.driver.launched(gameId);
    expect((await game(gameId)).status).toBe('STARTING');
    expect(woken).toBeUndefined();
    t.current.driver.ready(gameId);
    await wake;
    expect(woken).toEqual({ host: '127.0.0.1', port: expect.any(Number) });
    expect(await game(gameId)).toMatchObject({ status: 'RUNNING', desiredState: 'running' });
    expect(t.current.clock.now.getTime()).toBe(frozen);
    expect(t.current.driver.calls.filter((c) => c === `start ${gameId}`)).toHaveLength(2);
  });

  it('keeps where a running server is on its row for gateway processes, told with the status notice', async () => {
    const { gameId } = await buyGame(t.current);
    const target = async () => (await t.current.database.db.select({ target: games.gatewayTarget }).from(games).where(eq(games.id, gameId)))[0]!.target;
    await runGame(t.current, gameId);
    const written = await target();
    expect(written).toMatch(/^127\.0\.0\.1:\d+$/);
    // A game running since before rows kept it: the next look writes it, and says so to whoever listens.
    await t.current.database.db.update(games).set({ gatewayTarget: null }).where(eq(games.id, gameId));
    const heard: string[] = [];
    const unlisten = await t.current.database.listen('blockhost_game_status', (id) => heard.push(id));
    try {
      await tick();
      expect(await target()).toBe(written);
      await expect.poll(() => heard, { timeout: 5_000 }).toContain(gameId);
    } finally {
      await unlisten();
    }
  });

  it('limits the wakes of one client address, counted in the database for every replica together', async () => {
    const gameId = await sleeping();
    const s = t.current.app.services;
    // A second replica's wakes, on the same database.
    const other = new Wakes(s.db, { runtime: s.runtime, notifications: s.notifications, events: s.events });
    expect(await s.wakes.ask(gameId, '192.0.2.7', true)).toBe('started');
    expect((await game(gameId)).status).toBe('STARTING');
    // Logins meanwhile find it starting: nothing more to start.
    for (let i = 0; i < 4; i++) expect(await s.wakes.ask(gameId, '192.0.2.7', true)).toBe('started');
    for (let i = 0; i < 5; i++) expect(await other.ask(gameId, '192.0.2.7', true)).toBe('started');
    // The eleventh ask from that address, on either replica, is one too many; another address is not counted with it.
    expect(await other.ask(gameId, '192.0.2.7', true)).toBe('limited');
    expect(await s.wakes.ask(gameId, '192.0.2.7', true)).toBe('limited');
    expect(await s.wakes.ask(gameId, '192.0.2.8', true)).toBe('started');
    // Asking again while a lock held the start is not counted.
    expect(await s.wakes.ask(gameId, '192.0.2.8', false)).toBe('started');
    expect(await s.wakes.ask(crypto.randomUUID(), '192.0.2.9', true)).toBe('gone');
  });

  it('lets a gateway process ask for a wake over the internal call, with the internal token only', async () => {
    const gameId = await sleeping();
    const call = (headers: Record<string, string>) => t.current.app.inject({ method: 'POST', url: `/v1/internal/game/wake/${gameId}`, headers, payload: { address: '192.0.2.1', first: true } });
    expect((await call({})).statusCode).toBe(403);
    expect((await call({ 'x-internal-token': 'wrong-secret-of-16-c' })).statusCode).toBe(403);
    expect((await game(gameId)).status).toBe('SLEEPING');
    const asked = await call({ 'x-internal-token': 'a-secret-of-16-chars' });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toEqual({ result: 'started' });
    expect((await game(gameId)).status).toBe('STARTING');
  });
});
