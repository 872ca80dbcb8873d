import { describe, expect, it } from 'vitest';
import { gameUsage } from '../../src/server/db/schema/usage.ts';
import { useTestApp, type TestApp } from '../fixtures/app.ts';
import { buyGame, runGame } from '../fixtures/games.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe('usage history', () => {
  const t = useTestApp();

  const usage = (gameId: string, query = '', user = 'alice') => t.current.as(user, { method: 'GET', url: `/v1/game/${gameId}/usage${query}` });
  /** A sampling round each minute for `minutes` minutes, as the loop does. */
  const sampleFor = async (app: TestApp, minutes: number) => {
    let written = 0;
    for (let i = 0; i < minutes; i++) {
      app.clock.advance(MINUTE);
      written += await app.app.services.usage.sampleRound();
    }
    return written;
  };

  it('samples each running game once a minute, with its players, memory and CPU, and never a stopped one', async () => {
    const running = await buyGame(t.current, 'alice', 'Running');
    const stopped = await buyGame(t.current, 'alice', 'Stopped');
    await runGame(t.current, running.gameId);
    t.current.driver.servers.get(running.gameId)!.players = ['Steve', 'Alex'];
    t.current.driver.usageOf = { memoryBytes: 512 * 1024 * 1024, cpuCores: 0.5 };

    expect(await sampleFor(t.current, 3)).toBe(3);
    // A second round in the same minute (another replica's) writes nothing.
    expect(await t.current.app.services.usage.sampleRound()).toBe(0);

    const res = await usage(running.gameId);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    // Sampled each minute (the default), which the page reads again at.
    expect(body).toMatchObject({ window: '24h', ramMb: 1024, sampleSeconds: 60 });
    expect(body.points).toHaveLength(3);
    expect(body.points[0]).toEqual({ at: expect.any(String), players: 2, memoryMb: 512, memoryPercent: 50, cpuPercent: 50 });
    const times = body.points.map((p: { at: string }) => Date.parse(p.at));
    expect(times[1] - times[0]).toBe(MINUTE);
    expect((await usage(stopped.gameId)).json().points).toEqual([]);
  });

  it('keeps 24 hours a minute apiece and 7 days in points of ten minutes, and prunes what is past 30 days', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    const { db } = t.current.app.services;
    const now = t.current.clock.now.getTime();
    const at = (ms: number) => new Date(Math.floor((now - ms) / MINUTE) * MINUTE);
    // Two days ago, twenty minutes of samples, and one past 30 days.
    const old = Array.from({ length: 20 }, (_, i) => ({ gameId, at: at(2 * DAY - i * MINUTE), players: i, memoryBytes: 100 * 1024 * 1024, cpuCores: i % 2, ramMb: 1024 }));
    await db.insert(gameUsage).values([...old, { gameId, at: at(31 * DAY), players: 1, memoryBytes: 1, cpuCores: 0, ramMb: 1024 }]);
    await sampleFor(t.current, 1);

    expect((await usage(gameId, '?window=24h')).json().points).toHaveLength(1);
    const week = (await usage(gameId, '?window=7d')).json();
    expect(week.window).toBe('7d');
    // The twenty old minutes fall in two or three ten-minute points, averaged, players at their most.
    const points = week.points.slice(0, -1);
    expect(points.length).toBeGreaterThanOrEqual(2);
    expect(points.length).toBeLessThanOrEqual(3);
    expect(Math.max(...points.map((p: { players: number }) => p.players))).toBe(19);
    for (const p of points) expect(p.cpuPercent).toBeGreaterThanOrEqual(0);
    expect(points.every((p: { memoryMb: number }) => p.memoryMb === 100)).toBe(true);
    const rows = await db.select().from(gameUsage);
    // The sample past 30 days went with the round; the others stay.
    expect(rows).toHaveLength(21);
  });

  it('puts starts, stops, crashes and backups on the timeline, oldest first', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    t.current.clock.advance(MINUTE);
    t.current.driver.crash(gameId, 'exit code 137');
    await t.current.app.services.reconciler.tick();
    t.current.clock.advance(MINUTE);
    const backup = await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: {} });
    expect(backup.statusCode, backup.body).toBe(202);
    await t.current.app.services.backups.idle();
    t.current.clock.advance(MINUTE);
    expect((await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/stop` })).statusCode).toBe(200);
    await t.current.app.services.reconciler.tick();

    const events = (await usage(gameId)).json().events as Array<{ at: string; kind: string; detail: string | null }>;
    expect(events.map((e) => e.kind)).toEqual(['start', 'crash', 'backup', 'stop']);
    expect(events[1]!.detail).toContain('exit code 137');
    expect(events[2]!.detail).toBe('MANUAL READY');
    expect([...events].sort((a, b) => a.at.localeCompare(b.at))).toEqual(events);

    // Events past the window are not shown, and past 30 days the status changes are pruned.
    t.current.clock.advance(2 * DAY);
    expect((await usage(gameId)).json().events).toEqual([]);
    expect((await usage(gameId, '?window=7d')).json().events).toHaveLength(4);
    t.current.clock.advance(30 * DAY);
    await t.current.app.services.usage.sampleRound();
    t.current.clock.advance(-30 * DAY);
    // The backup is the backups module's to keep or delete: it stays as long as it exists.
    expect((await usage(gameId, '?window=7d')).json().events.map((e: { kind: string }) => e.kind)).toEqual(['backup']);
  });

  it('answers 404 for another user’s game and 400 naming a bad window', async () => {
    const { gameId } = await buyGame(t.current);
    const other = await usage(gameId, '', 'bob');
    expect(other.statusCode).toBe(404);
    const bad = await usage(gameId, '?window=1y');
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json().errors)).toContain('window');
    expect((await usage(gameId, '?window=24h&extra=1')).statusCode).toBe(400);
    expect((await t.current.app.inject({ method: 'GET', url: `/v1/game/${gameId}/usage` })).statusCode).toBe(401);
  });
});
