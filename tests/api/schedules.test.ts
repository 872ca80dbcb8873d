import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/db/schema/audit.ts';
import { buildApp } from '../../src/server/app.ts';
import { ScheduleRunner } from '../../src/server/modules/schedules/runner.ts';
import { useTestApp, type TestApp } from '../fixtures/app.ts';
import { buyGame, runGame, userId } from '../fixtures/games.ts';
import { befriend } from '../fixtures/social.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

describe('scheduled tasks', () => {
  const t = useTestApp();

  const url = (gameId: string, rest = '') => `/v1/game/${gameId}/schedules${rest}`;
  const create = (gameId: string, payload: Record<string, unknown>, user = 'alice') => t.current.as(user, { method: 'POST', url: url(gameId), payload });
  const list = async (gameId: string, user = 'alice') => (await t.current.as(user, { method: 'GET', url: url(gameId) })).json();
  const runs = async (gameId: string, scheduleId: string) => (await t.current.as('alice', { method: 'GET', url: url(gameId, `/${scheduleId}/runs`) })).json().data;
  const hourly = (task: string, extra: Record<string, unknown> = {}) => ({ task, repeat: 'hours', everyHours: 1, timeZone: 'Europe/Paris', ...extra });
  /** Moves the clock to `iso` (plus `ms`). */
  const moveTo = (app: TestApp, iso: string, ms = 0) => app.clock.advance(Date.parse(iso) + ms - app.clock.now.getTime());
  /** The local time `iso` shows in `zone`, e.g. "Mon 02:30". */
  const local = (iso: string, zone: string) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso)).replace(',', '');
  const status = async (gameId: string) => (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json().status;

  it('creates, lists, replaces and deletes a game’s schedules, each with its next run', async () => {
    const { gameId } = await buyGame(t.current);
    const res = await create(gameId, { task: 'restart', repeat: 'daily', time: '02:30', timeZone: 'Europe/Paris', countdown: true });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({ gameId, task: 'restart', repeat: 'daily', time: '02:30', countdown: true, onlyWhenRunning: false, enabled: true, lastRun: null });
    expect(created.createdBy).toBe(await userId(t.current, 'alice'));
    const next = Date.parse(created.nextRunAt);
    expect(next).toBeGreaterThan(t.current.clock.now.getTime());
    expect(next - t.current.clock.now.getTime()).toBeLessThanOrEqual(25 * HOUR);
    expect(local(created.nextRunAt, 'Europe/Paris')).toMatch(/ 02:30$| 03:30$/);

    const listed = await list(gameId);
    expect(listed.max).toBe(10);
    expect(listed.data).toEqual([created]);

    // Replaced by a Monday 08:00 in Tokyo: the next run is computed again.
    const put = await t.current.as('alice', {
      method: 'PUT',
      url: url(gameId, `/${created.id}`),
      payload: { task: 'command', command: '/say hello', repeat: 'weekdays', weekdays: [1], time: '08:00', timeZone: 'Asia/Tokyo' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ task: 'command', command: 'say hello', weekdays: [1], countdown: false });
    expect(local(put.json().nextRunAt, 'Asia/Tokyo')).toBe('Mon 08:00');

    // Disabled, it keeps its rule and has no next run.
    const off = await t.current.as('alice', { method: 'PUT', url: url(gameId, `/${created.id}`), payload: { ...hourly('backup'), enabled: false } });
    expect(off.json()).toMatchObject({ enabled: false, nextRunAt: null, everyHours: 1, time: null });

    expect((await t.current.as('alice', { method: 'DELETE', url: url(gameId, `/${created.id}`) })).statusCode).toBe(204);
    expect((await list(gameId)).data).toEqual([]);
    expect((await t.current.as('alice', { method: 'DELETE', url: url(gameId, `/${created.id}`) })).statusCode).toBe(404);
    // A schedule is reached only through its own game.
    const { gameId: otherGame } = await buyGame(t.current, 'alice', 'Other world');
    const mine = (await create(gameId, hourly('backup'))).json();
    expect((await t.current.as('alice', { method: 'PUT', url: url(otherGame, `/${mine.id}`), payload: hourly('stop') })).statusCode).toBe(404);
    expect((await t.current.as('alice', { method: 'POST', url: url(otherGame, `/${mine.id}/run`) })).statusCode).toBe(404);
    expect((await t.current.as('alice', { method: 'GET', url: url(otherGame, `/${mine.id}/runs`) })).statusCode).toBe(404);
    expect((await list(gameId)).data).toEqual([mine]);
    const actions = (await t.current.app.services.db.select().from(auditLog).where(eq(auditLog.entityId, gameId))).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['schedule.create', 'schedule.update', 'schedule.delete']));
  });

  it('answers 400 naming the field for bad input, and changes nothing', async () => {
    const { gameId } = await buyGame(t.current);
    const base = { task: 'restart', repeat: 'daily', time: '04:00', timeZone: 'Europe/Paris' };
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ ...base, time: '25:00' }, 'time'],
      [{ ...base, time: '4:00' }, 'time'],
      [{ ...base, time: undefined }, 'time'],
      [{ ...base, repeat: 'hours', everyHours: 0 }, 'everyHours'],
      [{ ...base, repeat: 'hours' }, 'everyHours'],
      [{ ...base, repeat: 'weekdays', weekdays: [] }, 'weekdays'],
      [{ ...base, repeat: 'weekdays', weekdays: [0] }, 'weekdays.0'],
      [{ ...base, timeZone: 'Mars/Olympus' }, 'timeZone'],
      [{ ...base, task: 'command' }, 'command'],
      [{ ...base, task: 'command', command: 'say a\nop griefer' }, 'command'],
      [{ ...base, task: 'command', command: 'say \u0007' }, 'command'],
      [{ ...base, task: 'command', command: `say ${'a'.repeat(253)}` }, 'command'],
      [{ ...base, task: 'reboot' }, 'task'],
      [{ ...base, extra: 1 }, 'extra'],
    ];
    for (const [payload, field] of bad) {
      const res = await create(gameId, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(
        res.json().errors.map((e: { field: string }) => e.field),
        JSON.stringify(payload),
      ).toContain(field);
    }
    // 256 characters is the most a command may have.
    expect((await create(gameId, { ...base, task: 'command', command: `say ${'a'.repeat(252)}` })).statusCode).toBe(201);
    expect((await list(gameId)).data).toHaveLength(1);
    const [only] = (await list(gameId)).data;
    const put = await t.current.as('alice', { method: 'PUT', url: url(gameId, `/${only.id}`), payload: { ...base, timeZone: 'Nowhere/Else' } });
    expect(put.statusCode).toBe(400);
    expect((await list(gameId)).data).toEqual([only]);
  });

  it('keeps at most 10 schedules per game (409)', async () => {
    const { gameId } = await buyGame(t.current);
    for (let i = 0; i < 10; i++) expect((await create(gameId, hourly('backup'))).statusCode).toBe(201);
    const over = await create(gameId, hourly('backup'));
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe('schedules.limit');
    expect((await list(gameId)).data).toHaveLength(10);
  });

  it('lets a co-admin schedule as its author, and nobody below', async () => {
    const { gameId } = await buyGame(t.current);
    await befriend(t.current, 'alice', 'bob');
    expect((await create(gameId, hourly('backup'), 'bob')).statusCode).toBe(404);
    expect((await t.current.as('carol', { method: 'GET', url: url(gameId) })).statusCode).toBe(404);
    const bob = await userId(t.current, 'bob');
    const grant = await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/access`, payload: { friendId: bob, role: 'MODERATOR' } });
    expect(grant.statusCode, grant.body).toBe(201);
    expect((await create(gameId, hourly('backup'), 'bob')).statusCode).toBe(403);
    expect((await t.current.as('bob', { method: 'GET', url: url(gameId) })).statusCode).toBe(403);
    const raised = await t.current.as('alice', { method: 'PUT', url: `/v1/game/${gameId}/access/${grant.json().id}`, payload: { role: 'COADMIN' } });
    expect(raised.statusCode, raised.body).toBe(200);
    const res = await create(gameId, hourly('backup'), 'bob');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().createdBy).toBe(bob);
    expect((await list(gameId, 'bob')).data).toHaveLength(1);
    const audit = await t.current.app.services.db.select().from(auditLog).where(eq(auditLog.action, 'schedule.create'));
    expect(audit.map((a) => [a.actorId, a.entity, a.entityId])).toEqual([[bob, 'game', gameId]]);
  });

  it('runs a task now, recorded, without moving its next run', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    const schedule = (await create(gameId, hourly('command', { command: 'list' }))).json();
    const res = await t.current.as('alice', { method: 'POST', url: url(gameId, `/${schedule.id}/run`) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ scheduleId: schedule.id, task: 'command', status: 'OK', manual: true, reason: null });
    expect(res.json().output).toContain('players online');
    expect(t.current.driver.commands(gameId)).toContain('list');
    expect(await runs(gameId, schedule.id)).toEqual([res.json()]);
    const [after] = (await list(gameId)).data;
    expect(after.nextRunAt).toBe(schedule.nextRunAt);
    expect(after.lastRun).toEqual(res.json());
    // The game's activity says which task was run, and the command it sent, as the console's.
    const activity = (await t.current.as('alice', { url: `/v1/game/${gameId}/activity` })).json().data;
    expect(activity.slice(0, 2)).toMatchObject([
      { action: 'console.command', actorName: 'alice', detail: { command: 'list' } },
      { action: 'schedule.run', detail: { task: 'command' } },
    ]);
  });

  it('runs a due task once when two runners on the same database tick together', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    const schedule = (await create(gameId, hourly('command', { command: 'time set day' }))).json();
    const s = t.current.app.services;
    const other = new ScheduleRunner(
      s.db,
      { games: s.games, backups: s.backups, notifications: s.notifications, users: s.users, console: s.console, levelOf: (u, g) => s.sharing.levelOf(u, g) },
      { clock: s.runtime.clock, log: s.runtime.log },
    );
    expect(await s.scheduleRunner.tick()).toBe(0);
    moveTo(t.current, schedule.nextRunAt);
    const done = await Promise.all([s.scheduleRunner.tick(), other.tick(), s.scheduleRunner.tick(), other.tick()]);
    expect(done.reduce((a, b) => a + b, 0)).toBe(1);
    expect(t.current.driver.commands(gameId).filter((c) => c === 'time set day')).toHaveLength(1);
    const recorded = await runs(gameId, schedule.id);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ status: 'OK', manual: false, scheduledFor: schedule.nextRunAt });
    const [after] = (await list(gameId)).data;
    expect(Date.parse(after.nextRunAt)).toBe(Date.parse(schedule.nextRunAt) + HOUR);
  });

  it('is found by a second API on the same database (a restart, another replica): each due run happens once', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    const schedule = (await create(gameId, hourly('command', { command: 'weather clear' }))).json();
    // The same game servers, which the second app does not close with itself.
    const driver = Object.create(t.current.driver, { close: { value: async () => {} } }) as typeof t.current.driver;
    const second = await buildApp({ config: t.current.config, database: t.current.database, logger: false, runtime: driver.runtime, clock: () => t.current.clock.now, loops: false });
    try {
      expect((await second.services.schedules.list(gameId)).map((s) => s.id)).toEqual([schedule.id]);
      moveTo(t.current, schedule.nextRunAt, 30 * SECOND);
      const done = await Promise.all([t.current.app.services.scheduleRunner.tick(), second.services.scheduleRunner.tick()]);
      expect(done.reduce((a, b) => a + b, 0)).toBe(1);
      expect(t.current.driver.commands(gameId).filter((c) => c === 'weather clear')).toHaveLength(1);
      expect(await runs(gameId, schedule.id)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('restarts a game once when two restart schedules fall due together on two runners', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    const a = (await create(gameId, hourly('restart'))).json();
    const b = (await create(gameId, hourly('restart'))).json();
    expect(b.nextRunAt).toBe(a.nextRunAt);
    const s = t.current.app.services;
    const other = new ScheduleRunner(
      s.db,
      { games: s.games, backups: s.backups, notifications: s.notifications, users: s.users, console: s.console, levelOf: (u, g) => s.sharing.levelOf(u, g) },
      { clock: s.runtime.clock, log: s.runtime.log },
    );
    moveTo(t.current, a.nextRunAt);
    // Each runner claims one schedule (the other is locked), then both try to restart.
    await Promise.all([s.scheduleRunner.tick(), other.tick()]);
    const all = [...(await runs(gameId, a.id)), ...(await runs(gameId, b.id))];
    expect(all.map((r: { status: string; reason: string | null }) => `${r.status} ${r.reason}`).sort()).toEqual(['OK null', 'SKIPPED restartLimit']);
    const stops = () => t.current.driver.calls.filter((c) => c === `stop ${gameId}`).length;
    for (let i = 0; i < 3; i++) await s.reconciler.tick();
    expect(await status(gameId)).toBe('RUNNING');
    expect(stops()).toBe(1);
    // An hour on, the next restart is allowed again.
    moveTo(t.current, a.nextRunAt, HOUR);
    await s.scheduleRunner.tick();
    for (let i = 0; i < 3; i++) await s.reconciler.tick();
    expect(stops()).toBe(2);
    const later = [...(await runs(gameId, a.id)), ...(await runs(gameId, b.id))].filter((r: { scheduledFor: string }) => r.scheduledFor !== a.nextRunAt);
    expect(later.map((r: { status: string; reason: string | null }) => `${r.status} ${r.reason}`).sort()).toEqual(['OK null', 'SKIPPED restartLimit']);
  });

  it('runs a time missed while the API was down once if under 15 minutes late, else records it SKIPPED', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    const schedule = (await create(gameId, hourly('command', { command: 'save-all' }))).json();
    const first = Date.parse(schedule.nextRunAt);
    // Down across the run, back 10 minutes later: it runs once.
    moveTo(t.current, schedule.nextRunAt, 10 * MINUTE);
    expect(await t.current.app.services.scheduleRunner.tick()).toBe(1);
    expect(await t.current.app.services.scheduleRunner.tick()).toBe(0);
    expect(t.current.driver.commands(gameId).filter((c) => c === 'save-all')).toHaveLength(1);
    // Down across the next one, back 20 minutes later: skipped, recorded, and not run.
    moveTo(t.current, new Date(first + HOUR).toISOString(), 20 * MINUTE);
    expect(await t.current.app.services.scheduleRunner.tick()).toBe(0);
    expect(t.current.driver.commands(gameId).filter((c) => c === 'save-all')).toHaveLength(1);
    const recorded = await runs(gameId, schedule.id);
    expect(recorded.map((r: { status: string; reason: string | null }) => [r.status, r.reason])).toEqual([
      ['SKIPPED', 'missed'],
      ['OK', null],
    ]);
    expect(recorded[0].scheduledFor).toBe(new Date(first + HOUR).toISOString());
    // The next run is the next one in the future.
    expect((await list(gameId)).data[0].nextRunAt).toBe(new Date(first + 2 * HOUR).toISOString());
  });

  it('stops a game by schedule for good: crash recovery does not start it again', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    const schedule = (await create(gameId, hourly('stop'))).json();
    moveTo(t.current, schedule.nextRunAt);
    expect(await t.current.app.services.scheduleRunner.tick()).toBe(1);
    await t.current.app.services.reconciler.tick();
    await t.current.app.services.reconciler.tick();
    expect(await status(gameId)).toBe('STOPPED');
    const starts = () => t.current.driver.calls.filter((c) => c === `start ${gameId}`).length;
    const before = starts();
    for (let i = 0; i < 5; i++) {
      t.current.clock.advance(MINUTE);
      await t.current.app.services.reconciler.tick();
    }
    expect(await status(gameId)).toBe('STOPPED');
    expect((await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json().desiredState).toBe('stopped');
    expect(starts()).toBe(before);
    // The next scheduled stop of a stopped game is skipped, not failed.
    moveTo(t.current, new Date(Date.parse(schedule.nextRunAt) + HOUR).toISOString());
    await t.current.app.services.scheduleRunner.tick();
    expect((await runs(gameId, schedule.id)).map((r: { status: string; reason: string | null }) => [r.status, r.reason])).toEqual([
      ['SKIPPED', 'alreadyStopped'],
      ['OK', null],
    ]);
  });

  it('counts a restart down in game at 60, 30 and 10 seconds, restarts once, and not again within the hour', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    const schedule = (await create(gameId, hourly('restart', { countdown: true }))).json();
    const says = () => t.current.driver.commands(gameId).filter((c) => c.startsWith('say '));
    const { scheduleRunner: schedules, reconciler } = t.current.app.services;
    const s = t.current.app.services;
    const other = new ScheduleRunner(
      s.db,
      { games: s.games, backups: s.backups, notifications: s.notifications, users: s.users, console: s.console, levelOf: (u, g) => s.sharing.levelOf(u, g) },
      { clock: s.runtime.clock, log: s.runtime.log },
    );
    moveTo(t.current, schedule.nextRunAt, -90 * SECOND);
    await schedules.tick();
    expect(says()).toEqual([]);
    moveTo(t.current, schedule.nextRunAt, -60 * SECOND);
    // Said once, however many runners tick.
    await Promise.all([schedules.tick(), other.tick(), schedules.tick()]);
    expect(says()).toEqual(['say &eRestart in 60 seconds']);
    t.current.clock.advance(30 * SECOND);
    await schedules.tick();
    t.current.clock.advance(20 * SECOND);
    await schedules.tick();
    expect(says()).toEqual(['say &eRestart in 60 seconds', 'say &6Restart in 30 seconds', 'say &cRestart in 10 seconds']);
    t.current.clock.advance(10 * SECOND);
    expect(await schedules.tick()).toBe(1);
    expect(await status(gameId)).toBe('STOPPING');
    await reconciler.tick();
    await reconciler.tick();
    await reconciler.tick();
    expect(await status(gameId)).toBe('RUNNING');
    expect(says()).toHaveLength(3);

    // Run now within the hour of the scheduled restart: skipped with its reason.
    const now = await t.current.as('alice', { method: 'POST', url: url(gameId, `/${schedule.id}/run`) });
    expect(now.json()).toMatchObject({ status: 'SKIPPED', reason: 'restartLimit' });
    expect(await status(gameId)).toBe('RUNNING');
  });

  it('ends a backup run with its backup: READY is OK, FAILED is FAILED and told to the owner', async () => {
    const { gameId } = await buyGame(t.current);
    const { scheduleRunner: schedules, backups } = t.current.app.services;
    // Never started: the world does not exist yet, so its backup fails.
    const schedule = (await create(gameId, hourly('backup'))).json();
    const run = await t.current.as('alice', { method: 'POST', url: url(gameId, `/${schedule.id}/run`) });
    expect(run.json()).toMatchObject({ status: 'RUNNING', output: expect.stringMatching(/^Backup [0-9a-f-]{36}$/) });
    await backups.idle();
    await schedules.tick();
    const [failed] = await runs(gameId, schedule.id);
    expect(failed).toMatchObject({ status: 'FAILED', id: run.json().id });
    expect(failed.output).toContain('no world');
    const notices = (await t.current.as('alice', { method: 'GET', url: '/v1/user/notifications' })).json().data;
    expect(notices.filter((n: { data: { key: string } }) => n.data.key === 'schedule.failed')).toHaveLength(1);

    await runGame(t.current, gameId);
    moveTo(t.current, schedule.nextRunAt);
    await schedules.tick();
    const backup = (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/backups` })).json().data[0];
    // An automatic backup, pruned before the hand-made ones, saying why in the reader's language.
    expect(backup).toMatchObject({ kind: 'AUTOMATIC', reason: 'scheduled', note: null, createdBy: 'alice' });
    await backups.idle();
    await schedules.tick();
    await schedules.tick();
    const [ok] = await runs(gameId, schedule.id);
    expect(ok).toMatchObject({ status: 'OK', manual: false, output: `Backup ${backup.id} READY` });
    const after = (await t.current.as('alice', { method: 'GET', url: '/v1/user/notifications' })).json().data;
    expect(after.filter((n: { data: { key: string } }) => n.data.key === 'schedule.failed')).toHaveLength(1);
  });

  it('skips every task of an expired game, without telling its owner each time', async () => {
    const { gameId, game } = await buyGame(t.current);
    const schedule = (await create(gameId, hourly('start'))).json();
    const { renewals, reconciler } = t.current.app.services;
    // Unpaid at periodEnd (no credits left): the game expires.
    t.current.clock.now = new Date(Date.parse(game.periodEnd) - 3 * 24 * HOUR);
    await renewals.tick();
    t.current.clock.now = new Date(game.periodEnd);
    await renewals.tick();
    await reconciler.tick();
    expect(await status(gameId)).toBe('EXPIRED');
    const res = await t.current.as('alice', { method: 'POST', url: url(gameId, `/${schedule.id}/run`) });
    expect(res.json()).toMatchObject({ status: 'SKIPPED', reason: 'expired' });
    const notices = (await t.current.as('alice', { method: 'GET', url: '/v1/user/notifications' })).json().data;
    expect(notices.filter((n: { data: { key: string } }) => n.data.key === 'schedule.failed')).toEqual([]);
  });

  it('records a failed run and tells the game’s owner; skips it when asked to only run on a running server', async () => {
    const { gameId } = await buyGame(t.current);
    const failing = (await create(gameId, hourly('command', { command: 'say hi' }))).json();
    const skipping = (await create(gameId, hourly('command', { command: 'say hi', onlyWhenRunning: true }))).json();
    moveTo(t.current, failing.nextRunAt);
    expect(await t.current.app.services.scheduleRunner.tick()).toBe(2);
    const [failed] = await runs(gameId, failing.id);
    expect(failed).toMatchObject({ status: 'FAILED', reason: null });
    expect(failed.output).toMatch(/CREATED|running/i);
    expect(failed.finishedAt).not.toBeNull();
    const [skipped] = await runs(gameId, skipping.id);
    expect(skipped).toMatchObject({ status: 'SKIPPED', reason: 'notRunning', output: null });
    const notices = (await t.current.as('alice', { method: 'GET', url: '/v1/user/notifications' })).json().data;
    const failedNotices = notices.filter((n: { data: { key: string } }) => n.data.key === 'schedule.failed');
    expect(failedNotices).toHaveLength(1);
    expect(failedNotices[0].data.title).toContain('My world');
    // In the owner's language, the task and the API's refusal alike, not the run's English record.
    expect(failedNotices[0].data.description).toMatch(/^La tâche planifiée \(commande\) n’a pas pu s’exécuter : .*(démarré|en marche)/);
  });

  it('takes a scheduled `stop` command for the panel’s stop: the game stays stopped, with no crash notice', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    const schedule = (await create(gameId, hourly('command', { command: 'stop' }))).json();
    const { scheduleRunner: schedules, reconciler } = t.current.app.services;
    moveTo(t.current, schedule.nextRunAt);
    expect(await schedules.tick()).toBe(1);
    for (let i = 0; i < 3; i++) await reconciler.tick();
    t.current.clock.advance(MINUTE);
    for (let i = 0; i < 3; i++) await reconciler.tick();
    const game = (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json();
    expect(game).toMatchObject({ status: 'STOPPED', desiredState: 'stopped' });
    expect(t.current.driver.calls.filter((c) => c === `start ${gameId}`)).toHaveLength(1);
    const notices = (await t.current.as('alice', { method: 'GET', url: '/v1/user/notifications?size=100' })).json().data as Array<{ data: { key: string } }>;
    expect(notices.map((n) => n.data.key).filter((key) => key.startsWith('game.crash'))).toEqual([]);
    expect((await runs(gameId, schedule.id))[0]).toMatchObject({ status: 'OK', reason: null });
    const activity = (await t.current.as('alice', { url: `/v1/game/${gameId}/activity` })).json().data;
    expect(activity[0]).toMatchObject({ action: 'game.stop', actorName: 'alice', detail: { command: 'stop' } });
  });

  it('keeps the operator a scheduled `op` gives in the panel’s list', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    const schedule = (await create(gameId, hourly('command', { command: 'op Steve' }))).json();
    const run = await t.current.as('alice', { method: 'POST', url: url(gameId, `/${schedule.id}/run`) });
    expect(run.json(), run.body).toMatchObject({ status: 'OK' });
    expect(t.current.driver.commands(gameId)).toContain('op Steve');
    const ops = (await t.current.as('alice', { url: `/v1/game/${gameId}/minecraft/players?type=OPS` })).json().players as Array<{ name: string }>;
    expect(ops.map((p) => p.name)).toEqual(['Steve']);
  });

  it('fails a command its author may no longer send at their current role, with the reason, and sends nothing', async () => {
    const { gameId } = await buyGame(t.current);
    await befriend(t.current, 'alice', 'bob');
    const grant = await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/access`, payload: { friendId: await userId(t.current, 'bob'), role: 'COADMIN' } });
    expect(grant.statusCode, grant.body).toBe(201);
    await runGame(t.current, gameId);
    const schedule = (await create(gameId, hourly('command', { command: 'stop' }), 'bob')).json();
    // Bob is now a moderator: a moderator may not stop the server, so his task may not either.
    const lowered = await t.current.as('alice', { method: 'PUT', url: `/v1/game/${gameId}/access/${grant.json().id}`, payload: { role: 'MODERATOR' } });
    expect(lowered.statusCode, lowered.body).toBe(200);
    const before = t.current.driver.commands(gameId).length;
    const run = await t.current.as('alice', { method: 'POST', url: url(gameId, `/${schedule.id}/run`) });
    expect(run.json()).toMatchObject({ status: 'FAILED', reason: 'authorNotAllowed' });
    expect(t.current.driver.commands(gameId)).toHaveLength(before);
    expect((await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json()).toMatchObject({ status: 'RUNNING', desiredState: 'running' });
    const notices = (await t.current.as('alice', { method: 'GET', url: '/v1/user/notifications' })).json().data;
    const told = notices.filter((n: { data: { key: string } }) => n.data.key === 'schedule.failed');
    expect(told.map((n: { data: { description: string } }) => n.data.description)).toEqual([
      'La tâche planifiée (commande) n’a pas pu s’exécuter : son auteur n’a plus le droit d’envoyer cette commande',
    ]);
  });

  it('refuses a command with an invisible character when the task is saved, as the console does', async () => {
    const { gameId } = await buyGame(t.current);
    for (const [character, code] of [
      ['\u202E', '202E'],
      ['\u2028', '2028'],
      ['\u200B', '200B'],
      ['\uFEFF', 'FEFF'],
    ]) {
      const res = await t.current.as('alice', { method: 'POST', url: url(gameId), payload: hourly('command', { command: `say hi${character}there` }), headers: { cookie: 'locale=en' } });
      expect(res.statusCode, code).toBe(400);
      expect(res.json().errors, code).toEqual([expect.objectContaining({ field: 'command', code: 'field.noInvisibleCharacters', message: expect.stringContaining(`U+${code}`) })]);
    }
    expect((await list(gameId)).data).toEqual([]);
  });
});
