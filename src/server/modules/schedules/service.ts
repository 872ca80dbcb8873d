import { and, count, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { gameSchedules, scheduleRuns } from '../../db/schema/schedules.ts';
import { badRequest, conflict, notFound, type FieldProblem } from '../../lib/problems.ts';
import { pageOf, type Window } from '../../lib/paging.ts';
import { validTimeZone } from '../../lib/wall-clock.ts';
import { MAX_SCHEDULES_PER_GAME, type Schedule, type ScheduleInput, type ScheduleRun } from '../../../contract/schedules.ts';
import type { AuditService } from '../audit/service.ts';
import { commandTextProblem } from '../console/commands.ts';
import type { Clock } from '../games/runtime.ts';
import { nextRun } from './recurrence.ts';
import type { ScheduleRunner } from './runner.ts';
import type { AccessScope, EventBus, LevelCheck } from '../../events.ts';

type ScheduleRow = typeof gameSchedules.$inferSelect;
type RunRow = typeof scheduleRuns.$inferSelect;

const MINUTE_MS = 60_000;
function toRun(row: RunRow): ScheduleRun {
  return {
    id: row.id,
    scheduleId: row.scheduleId,
    task: row.task,
    scheduledFor: row.scheduledFor.toISOString(),
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    status: row.status,
    reason: row.reason,
    output: row.output,
    manual: row.manual,
  };
}

function toSchedule(row: ScheduleRow, lastRun: RunRow | undefined): Schedule {
  return {
    id: row.id,
    gameId: row.gameId,
    task: row.task,
    command: row.command,
    repeat: row.repeat,
    time: row.time,
    weekdays: row.weekdays,
    everyHours: row.everyHours,
    timeZone: row.timeZone,
    onlyWhenRunning: row.onlyWhenRunning,
    countdown: row.countdown,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    nextRunAt: row.nextRunAt?.toISOString() ?? null,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastRun: lastRun ? toRun(lastRun) : null,
  };
}

/**
 * A game's scheduled tasks (docs/architecture.md, "Scheduled tasks"): the rules its owner and
 * co-admins keep and their runs; the runner (runner.ts) does them, and runs one now when asked.
 */
export class SchedulesService {
  private readonly db: Db;
  private readonly audit: AuditService;
  private readonly runner: ScheduleRunner;
  private readonly clock: Clock;

  constructor(db: Db, deps: { audit: AuditService; runner: ScheduleRunner; events: EventBus }, options: { clock: Clock }) {
    this.db = db;
    this.audit = deps.audit;
    this.runner = deps.runner;
    this.clock = options.clock;
    deps.events.on('sharing.accessEnded', ({ scope, executor, levelOf }) => this.authorsLeft(scope, executor, levelOf));
    // A deleted game's schedules go with it (their runs too).
    deps.events.on('games.deleted', async ({ tx, gameId }) => {
      await tx.delete(gameSchedules).where(eq(gameSchedules.gameId, gameId));
    });
  }

  private now(): Date {
    return this.clock();
  }

  /**
   * Some people's access ended (`sharing.accessEnded`, in its transaction): the schedules they made
   * on games where they are no longer co-admins are disabled, with the reason their owner sees, so
   * a revoked co-admin's command does not keep running as the owner.
   */
  private async authorsLeft(scope: AccessScope, executor: Executor, holds: LevelCheck): Promise<void> {
    const mine = [isNotNull(gameSchedules.createdBy), isNull(gameSchedules.disabledReason)];
    if (scope.userIds) mine.push(inArray(gameSchedules.createdBy, scope.userIds));
    if (scope.gameIds) mine.push(inArray(gameSchedules.gameId, scope.gameIds));
    const rows = await executor
      .select({ id: gameSchedules.id, gameId: gameSchedules.gameId, createdBy: gameSchedules.createdBy })
      .from(gameSchedules)
      .where(and(...mine));
    const gone: string[] = [];
    for (const row of rows) if (!(await holds(row.createdBy!, row.gameId, 'COADMIN'))) gone.push(row.id);
    if (gone.length === 0) return;
    await executor.update(gameSchedules).set({ enabled: false, nextRunAt: null, warned: null, disabledReason: 'authorAccessEnded', updatedAt: this.now() }).where(inArray(gameSchedules.id, gone));
  }

  /**
   * The schedules a deleted account made on games shared with it go (those of its own games went
   * with the games): no one would answer for what they run.
   */
  async forget(userId: string): Promise<void> {
    await this.db.delete(gameSchedules).where(eq(gameSchedules.createdBy, userId));
  }

  async list(gameId: string): Promise<Schedule[]> {
    const rows = await this.db.select().from(gameSchedules).where(eq(gameSchedules.gameId, gameId)).orderBy(gameSchedules.createdAt, gameSchedules.id);
    const last = await this.lastRuns(rows.map((r) => r.id));
    return rows.map((row) => toSchedule(row, last.get(row.id)));
  }

  private async lastRuns(ids: string[]): Promise<Map<string, RunRow>> {
    if (!ids.length) return new Map();
    const rows = await this.db
      .selectDistinctOn([scheduleRuns.scheduleId])
      .from(scheduleRuns)
      .where(inArray(scheduleRuns.scheduleId, ids))
      .orderBy(scheduleRuns.scheduleId, desc(scheduleRuns.startedAt), desc(scheduleRuns.id));
    return new Map(rows.map((r) => [r.scheduleId, r]));
  }

  private async row(gameId: string, scheduleId: string): Promise<ScheduleRow> {
    const [row] = await this.db
      .select()
      .from(gameSchedules)
      .where(and(eq(gameSchedules.id, scheduleId), eq(gameSchedules.gameId, gameId)));
    if (!row) throw notFound('schedule');
    return row;
  }

  /** The columns of a rule, checked: 400 naming every field at fault, before anything is written. */
  private values(input: ScheduleInput, now: Date) {
    const errors: FieldProblem[] = [];
    if (!validTimeZone(input.timeZone)) errors.push({ field: 'timeZone', key: 'schedules.timeZone', params: { timeZone: input.timeZone } });
    if (input.repeat !== 'hours' && !input.time) errors.push({ field: 'time', key: 'schedules.timeRequired' });
    if (input.repeat === 'weekdays' && !input.weekdays?.length) errors.push({ field: 'weekdays', key: 'schedules.weekdaysRequired' });
    if (input.repeat === 'hours' && !input.everyHours) errors.push({ field: 'everyHours', key: 'schedules.everyHoursRequired' });
    const command = input.task === 'command' ? input.command?.trim().replace(/^\//, '') : undefined;
    if (input.task === 'command' && !command) errors.push({ field: 'command', key: 'schedules.commandRequired' });
    else if (command) {
      const problem = commandTextProblem(command);
      if (problem) errors.push(problem);
    }
    if (errors.length) throw badRequest('request.invalidFields', {}, errors);
    const rule = {
      task: input.task,
      command: command ?? null,
      repeat: input.repeat,
      time: input.repeat === 'hours' ? null : input.time!,
      weekdays: input.repeat === 'weekdays' ? [...input.weekdays!].sort((a, b) => a - b) : null,
      everyHours: input.repeat === 'hours' ? input.everyHours! : null,
      timeZone: input.timeZone,
      anchorAt: new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS),
      onlyWhenRunning: input.onlyWhenRunning ?? false,
      countdown: (input.countdown ?? false) && (input.task === 'restart' || input.task === 'stop'),
      enabled: input.enabled ?? true,
    };
    // Saved again by someone with access: the platform's reason for pausing it no longer holds.
    return { ...rule, nextRunAt: rule.enabled ? nextRun(rule, now) : null, warned: null, disabledReason: null, updatedAt: now };
  }

  /**
   * A new schedule (201), 409 past MAX_SCHEDULES_PER_GAME. The count and the insert run under a
   * lock of the game's schedules, so two creations at once cannot both take the last place.
   */
  async create(gameId: string, actorId: string, input: ScheduleInput): Promise<Schedule> {
    const now = this.now();
    const values = this.values(input, now);
    const row = await this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`schedules:${gameId}`}, 0))`);
      const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(gameSchedules).where(eq(gameSchedules.gameId, gameId));
      if (n >= MAX_SCHEDULES_PER_GAME) throw conflict('schedules.limit', { max: MAX_SCHEDULES_PER_GAME });
      const [inserted] = await tx
        .insert(gameSchedules)
        .values({ gameId, ...values, createdBy: actorId, createdAt: now })
        .returning();
      await this.audit.record(tx, { actorId, action: 'schedule.create', entity: 'game', entityId: gameId, after: { scheduleId: inserted!.id, ...input } });
      return inserted!;
    });
    return toSchedule(row, undefined);
  }

  /** Replaces a schedule's rule; its next run is computed again from now. */
  async update(gameId: string, scheduleId: string, actorId: string, input: ScheduleInput): Promise<Schedule> {
    const now = this.now();
    const values = this.values(input, now);
    const before = await this.row(gameId, scheduleId);
    // An `hours` rule kept as it was keeps its anchor, so saving it again does not shift its runs.
    const anchorAt = before.repeat === 'hours' && values.repeat === 'hours' && before.everyHours === values.everyHours ? before.anchorAt : values.anchorAt;
    const nextRunAt = values.enabled ? nextRun({ ...values, anchorAt }, now) : null;
    const row = await this.db.transaction(async (tx) => {
      const [updated] = await tx
        .update(gameSchedules)
        .set({ ...values, anchorAt, nextRunAt })
        .where(and(eq(gameSchedules.id, scheduleId), eq(gameSchedules.gameId, gameId)))
        .returning();
      if (!updated) throw notFound('schedule');
      await this.audit.record(tx, { actorId, action: 'schedule.update', entity: 'game', entityId: gameId, before: toSchedule(before, undefined), after: { scheduleId, ...input } });
      return updated;
    });
    return toSchedule(row, (await this.lastRuns([scheduleId])).get(scheduleId));
  }

  async remove(gameId: string, scheduleId: string, actorId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [gone] = await tx
        .delete(gameSchedules)
        .where(and(eq(gameSchedules.id, scheduleId), eq(gameSchedules.gameId, gameId)))
        .returning();
      if (!gone) throw notFound('schedule');
      await this.audit.record(tx, { actorId, action: 'schedule.delete', entity: 'game', entityId: gameId, before: toSchedule(gone, undefined) });
    });
  }

  /** A schedule's runs, newest first. */
  async runs(gameId: string, scheduleId: string, window: Window) {
    await this.row(gameId, scheduleId);
    const where = eq(scheduleRuns.scheduleId, scheduleId);
    const [rows, [total]] = await Promise.all([
      this.db.select().from(scheduleRuns).where(where).orderBy(desc(scheduleRuns.startedAt), desc(scheduleRuns.id)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(scheduleRuns).where(where),
    ]);
    return pageOf(rows.map(toRun), total?.n ?? 0, window);
  }

  /**
   * Runs a schedule now, whether enabled or not, without its countdown and without moving its next
   * run: the answer is the finished run (SKIPPED or FAILED ones included).
   */
  async runNow(gameId: string, scheduleId: string, actorId: string): Promise<ScheduleRun> {
    const schedule = await this.row(gameId, scheduleId);
    const now = this.now();
    const [run] = await this.db.transaction(async (tx) => {
      await this.audit.record(tx, { actorId, action: 'schedule.run', entity: 'game', entityId: gameId, after: { scheduleId, task: schedule.task } });
      return tx.insert(scheduleRuns).values({ scheduleId, gameId, task: schedule.task, scheduledFor: now, startedAt: now, status: 'RUNNING', manual: true }).returning();
    });
    return toRun(await this.runner.execute(schedule, run!));
  }
}
