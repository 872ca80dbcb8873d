import { and, eq, gt, inArray, isNotNull, isNull, like, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { gameSchedules, scheduleRuns } from '../../db/schema/schedules.ts';
import { HttpProblem, problemInBoth } from '../../lib/problems.ts';
import { bothLanguages } from '../../lib/messages.ts';
import { RoundLoop } from '../../lib/round-loop.ts';
import type { ScheduleRunStatus, ScheduleSkipReason } from '../../../contract/schedules.ts';
import type { GamesService } from '../games/service.ts';
import type { BackupsService } from '../backups/service.ts';
import type { NotificationsService } from '../notifications/service.ts';
import type { UsersService } from '../users/service.ts';
import type { ConsoleService } from '../console/service.ts';
import { mayRun } from '../console/commands.ts';
import type { GameAccessCheck } from '../sharing/access.ts';
import type { Clock } from '../games/runtime.ts';
import { nextRun } from './recurrence.ts';

type ScheduleRow = typeof gameSchedules.$inferSelect;
type RunRow = typeof scheduleRuns.$inferSelect;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** A run later than this (the API was down at its time) is not run but recorded SKIPPED, 'missed'. */
const MISSED_AFTER_MS = 15 * MINUTE_MS;
/** A game restarts by schedule at most once in this time. */
const RESTART_INTERVAL_MS = HOUR_MS;
/** A run still RUNNING this long after its start was cut off by a stop of the API. */
const INTERRUPTED_AFTER_MS = 15 * MINUTE_MS;
/** The countdown of a restart or a stop: seconds before it when the players are told, and the colour. */
const WARNINGS = [
  { seconds: 60, colour: '&e' },
  { seconds: 30, colour: '&6' },
  { seconds: 10, colour: '&c' },
] as const;
/** The output of a restart run once it took the game's restart of the hour. */
const RESTART_TAKEN = 'Restart asked';
/** The output of a backup run: the backup it started. */
const BACKUP_PREFIX = 'Backup ';

/** The error text of a failed run, in English, as the run's record keeps it. */
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);

/** Why a run failed, as the owner's notice says it in their language: the API's own words for a refusal, or that something broke. */
const failureReason = (err: unknown) => (err instanceof HttpProblem ? problemInBoth(err) : bothLanguages('notices.schedule.reasons.unexpected'));

/**
 * The schedules' runner (docs/architecture.md, "Scheduled tasks"): rounds that claim due runs,
 * once across replicas, and do them through the games and backups services, as the game's owner;
 * the countdown warnings before a restart or a stop; the runs a stopped API left open.
 */
export class ScheduleRunner {
  private readonly db: Db;
  private readonly games: GamesService;
  private readonly backups: BackupsService;
  private readonly notifications: NotificationsService;
  private readonly users: UsersService;
  private readonly console: ConsoleService;
  private readonly levelOf: (userId: string, gameId: string) => Promise<GameAccessCheck | null>;
  private readonly clock: Clock;
  private readonly log: { error(obj: object, msg: string): void };
  private loop: RoundLoop | undefined;

  constructor(
    db: Db,
    deps: {
      games: GamesService;
      backups: BackupsService;
      notifications: NotificationsService;
      users: UsersService;
      console: ConsoleService;
      /** Someone's current level on a game (SharingService.levelOf): a scheduled command runs at its author's. */
      levelOf: (userId: string, gameId: string) => Promise<GameAccessCheck | null>;
    },
    options: { clock: Clock; log: { error(obj: object, msg: string): void } },
  ) {
    this.db = db;
    this.games = deps.games;
    this.backups = deps.backups;
    this.notifications = deps.notifications;
    this.users = deps.users;
    this.console = deps.console;
    this.levelOf = deps.levelOf;
    this.clock = options.clock;
    this.log = options.log;
  }

  private now(): Date {
    return this.clock();
  }

  /**
   * One round of the runner: the countdown warnings now due, then the runs now due. Each due row is
   * claimed under `FOR UPDATE SKIP LOCKED`, its `nextRunAt` moved on and its run recorded in the
   * same transaction, so another replica's round (or the next one) never takes it twice. A run
   * more than MISSED_AFTER_MS late (the API was down) is recorded SKIPPED, 'missed', and not done;
   * one less late is done once, however many of its times were missed. Resolves with the runs
   * done (not counting those skipped as missed) once they are finished.
   */
  async tick(): Promise<number> {
    await this.sweep();
    await this.settleBackups();
    await this.warn();
    const now = this.now();
    const claimed = await this.db.transaction(async (tx) => {
      const rows = await tx
        .select()
        .from(gameSchedules)
        .where(and(eq(gameSchedules.enabled, true), isNotNull(gameSchedules.nextRunAt), lte(gameSchedules.nextRunAt, now)))
        .orderBy(gameSchedules.nextRunAt)
        .limit(50)
        .for('update', { skipLocked: true });
      const out: Array<{ schedule: ScheduleRow; run: RunRow }> = [];
      for (const row of rows) {
        await tx
          .update(gameSchedules)
          .set({ nextRunAt: nextRun(row, now), warned: null })
          .where(eq(gameSchedules.id, row.id));
        const missed = now.getTime() - row.nextRunAt!.getTime() > MISSED_AFTER_MS;
        const [run] = await tx
          .insert(scheduleRuns)
          .values({
            scheduleId: row.id,
            gameId: row.gameId,
            task: row.task,
            scheduledFor: row.nextRunAt!,
            startedAt: now,
            ...(missed ? { status: 'SKIPPED' as const, reason: 'missed' as const, finishedAt: now } : { status: 'RUNNING' as const }),
          })
          .returning();
        if (!missed) out.push({ schedule: row, run: run! });
      }
      return out;
    });
    for (const { schedule, run } of claimed) {
      // One run's trouble (the database gone for a moment) does not keep the others from running.
      await this.execute(schedule, run).catch((err: unknown) => this.log.error({ err, scheduleId: schedule.id }, 'scheduled run not recorded'));
    }
    return claimed.length;
  }

  /** Runs a claimed run (a round's, or one asked now) through the games or backups service, as the game's owner, and records its end. */
  async execute(schedule: ScheduleRow, run: RunRow): Promise<RunRow> {
    const game = await this.games.ownerOf(schedule.gameId);
    if (!game) return this.finish(run, 'FAILED', null, 'The game no longer exists');
    const skip = (reason: ScheduleSkipReason) => this.finish(run, 'SKIPPED', reason, null);
    // An expired game waits for its renewal: nothing runs on it, and its owner is not told each time.
    if (game.status === 'EXPIRED') return skip('expired');
    if (schedule.onlyWhenRunning && game.status !== 'RUNNING') return skip('notRunning');
    try {
      let output: string | null = null;
      switch (schedule.task) {
        case 'restart': {
          if (!(await this.takeRestart(run))) return skip('restartLimit');
          if (game.status !== 'RUNNING' && game.status !== 'CRASHED') return skip('notRunning');
          await this.games.act(game.id, 'restart');
          output = RESTART_TAKEN;
          break;
        }
        case 'start':
          if (game.status === 'STARTING' || game.status === 'RUNNING') return skip('alreadyRunning');
          await this.games.act(game.id, 'start');
          break;
        case 'stop':
          if (game.status === 'STOPPED' || game.status === 'STOPPING' || game.status === 'CREATED') return skip('alreadyStopped');
          // The stop sets the desired state: the reconciler's crash recovery leaves the game stopped.
          await this.games.act(game.id, 'stop');
          break;
        case 'backup': {
          // The run ends with its backup, READY or FAILED, which a later round reads (settleBackups).
          // Automatic, so the quota prunes it before the backups someone took by hand.
          const backup = await this.backups.create(game.id, { kind: 'AUTOMATIC', reason: 'scheduled', by: schedule.createdBy }, 'en');
          const [started] = await this.db
            .update(scheduleRuns)
            .set({ output: `${BACKUP_PREFIX}${backup.id}` })
            .where(eq(scheduleRuns.id, run.id))
            .returning();
          return started ?? run;
        }
        case 'command': {
          // Sent as its author would send it in the console, at their level now: a `stop` is the
          // panel's stop, an `op` is kept in the panel's list. An author who may no longer send
          // it (lowered, gone) fails the run, and the game's owner is told.
          const command = schedule.command ?? '';
          const author = schedule.createdBy ? await this.levelOf(schedule.createdBy, game.id) : null;
          if (!author || !mayRun(command, author.level)) {
            const failed = await this.finish(run, 'FAILED', 'authorNotAllowed', null);
            await this.tellFailure(game, schedule.task, bothLanguages('notices.schedule.reasons.authorNotAllowed'));
            return failed;
          }
          output = (await this.console.send(schedule.createdBy!, author, command, schedule.id)).output;
          break;
        }
        case 'announce': {
          const name = (await this.users.names([game.ownerId])).get(game.ownerId) ?? '';
          const told = await this.games.announce(game.id, name);
          output = `${told.notified} friends told: ${told.address}`;
          break;
        }
      }
      return await this.finish(run, 'OK', null, output);
    } catch (err) {
      if (!(err instanceof HttpProblem)) this.log.error({ err, scheduleId: schedule.id }, 'scheduled task failed');
      const failed = await this.finish(run, 'FAILED', null, errorText(err));
      await this.tellFailure(game, schedule.task, failureReason(err));
      return failed;
    }
  }

  /**
   * Takes the game's scheduled restart of the hour for `run`: false when another restart run (OK,
   * or RUNNING past this check) has a time less than an hour from this one's. The check and the
   * mark (the run's output) are one transaction under a lock of the game's restarts, so two runs at
   * once on two replicas cannot both restart the game.
   */
  private async takeRestart(run: RunRow): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`schedules:restart:${run.gameId}`}, 0))`);
      const [found] = await tx
        .select({ id: scheduleRuns.id })
        .from(scheduleRuns)
        .where(
          and(
            eq(scheduleRuns.gameId, run.gameId),
            eq(scheduleRuns.task, 'restart'),
            ne(scheduleRuns.id, run.id),
            or(eq(scheduleRuns.status, 'OK'), and(eq(scheduleRuns.status, 'RUNNING'), eq(scheduleRuns.output, RESTART_TAKEN))),
            gt(scheduleRuns.scheduledFor, new Date(run.scheduledFor.getTime() - RESTART_INTERVAL_MS)),
            lt(scheduleRuns.scheduledFor, new Date(run.scheduledFor.getTime() + RESTART_INTERVAL_MS)),
          ),
        )
        .limit(1);
      if (found) return false;
      await tx.update(scheduleRuns).set({ output: RESTART_TAKEN }).where(eq(scheduleRuns.id, run.id));
      return true;
    });
  }

  private async finish(run: RunRow, status: ScheduleRunStatus, reason: ScheduleSkipReason | null, output: string | null): Promise<RunRow> {
    const [row] = await this.db.update(scheduleRuns).set({ status, reason, output, finishedAt: this.now() }).where(eq(scheduleRuns.id, run.id)).returning();
    return row ?? run;
  }

  /**
   * Runs a stopped API left RUNNING end FAILED, 'interrupted'; not a backup run whose backup was
   * started, which ends with its backup (the backups module gives up a backup cut off by a stop).
   */
  private async sweep(): Promise<void> {
    const before = new Date(this.now().getTime() - INTERRUPTED_AFTER_MS);
    await this.db
      .update(scheduleRuns)
      .set({ status: 'FAILED', reason: 'interrupted', finishedAt: this.now() })
      .where(and(eq(scheduleRuns.status, 'RUNNING'), lt(scheduleRuns.startedAt, before), or(ne(scheduleRuns.task, 'backup'), isNull(scheduleRuns.output))));
  }

  /**
   * Backup runs whose backup finished: READY ends the run OK, FAILED ends it FAILED and tells the
   * owner. The end is a conditional write, so one replica only tells.
   */
  private async settleBackups(): Promise<void> {
    const open = await this.db
      .select()
      .from(scheduleRuns)
      .where(and(eq(scheduleRuns.task, 'backup'), eq(scheduleRuns.status, 'RUNNING'), like(scheduleRuns.output, `${BACKUP_PREFIX}%`)))
      .limit(50);
    for (const run of open) {
      const backupId = run.output!.slice(BACKUP_PREFIX.length);
      const game = await this.games.ownerOf(run.gameId);
      if (!game) continue;
      const recent = await this.backups.list(game.id, { limit: 100, offset: 0, page: 0, size: 100 }, 'en');
      const backup = recent.data.find((b) => b.id === backupId);
      if (backup?.status === 'PENDING' || backup?.status === 'RUNNING') continue;
      if (!backup || backup.status === 'READY') {
        await this.finishOpen(run, 'OK', `${BACKUP_PREFIX}${backupId} ${backup ? 'READY' : 'finished, since deleted'}`);
        continue;
      }
      const error = `${BACKUP_PREFIX}${backupId} failed: ${backup.error ?? 'unknown error'}`;
      if (!(await this.finishOpen(run, 'FAILED', error))) continue;
      // The backup's error in the owner's words as well as in the run's English record.
      const inFrench = (await this.backups.list(game.id, { limit: 100, offset: 0, page: 0, size: 100 }, 'fr')).data.find((b) => b.id === backupId);
      const reason = (en: string | null, fr: string | null | undefined) => ({ en: en ?? '', fr: fr ?? en ?? '' });
      await this.tellFailure(game, run.task, backup.error ? reason(backup.error, inFrench?.error) : bothLanguages('notices.schedule.reasons.unexpected'));
    }
  }

  /** Ends a run still RUNNING; false when another replica ended it first. */
  private async finishOpen(run: RunRow, status: ScheduleRunStatus, output: string): Promise<boolean> {
    const ended = await this.db
      .update(scheduleRuns)
      .set({ status, output, finishedAt: this.now() })
      .where(and(eq(scheduleRuns.id, run.id), eq(scheduleRuns.status, 'RUNNING')))
      .returning({ id: scheduleRuns.id });
    return ended.length > 0;
  }

  private async tellFailure(game: { id: string; ownerId: string; name: string }, task: string, error: { fr: string; en: string }): Promise<void> {
    await this.notifications
      .notify(game.ownerId, { key: 'schedule.failed', params: { name: game.name, task: bothLanguages(`notices.schedule.tasks.${task}`), error }, link: `/dashboard/game/${game.id}` })
      .catch((err: unknown) => this.log.error({ err }, 'schedule failure notice not sent'));
  }

  /**
   * The countdown of restarts and stops: 60, 30 and 10 seconds before the run, the players are told
   * in game (`say`). Each warning is claimed as the runs are (`warned` moves in the claiming
   * transaction), so it is said once across replicas; a late round says only the nearest one.
   */
  private async warn(): Promise<void> {
    const now = this.now();
    const horizon = new Date(now.getTime() + WARNINGS[0].seconds * 1000);
    const due = await this.db.transaction(async (tx) => {
      const rows = await tx
        .select()
        .from(gameSchedules)
        .where(
          and(
            eq(gameSchedules.enabled, true),
            eq(gameSchedules.countdown, true),
            inArray(gameSchedules.task, ['restart', 'stop']),
            gt(gameSchedules.nextRunAt, now),
            lte(gameSchedules.nextRunAt, horizon),
            or(isNull(gameSchedules.warned), gt(gameSchedules.warned, WARNINGS[2].seconds)),
          ),
        )
        .limit(50)
        .for('update', { skipLocked: true });
      const out: Array<{ schedule: ScheduleRow; seconds: number; colour: string }> = [];
      for (const row of rows) {
        const left = Math.ceil((row.nextRunAt!.getTime() - now.getTime()) / 1000);
        const warning = [...WARNINGS].reverse().find((w) => w.seconds >= left && w.seconds < (row.warned ?? Infinity));
        if (!warning) continue;
        await tx.update(gameSchedules).set({ warned: warning.seconds }).where(eq(gameSchedules.id, row.id));
        out.push({ schedule: row, ...warning });
      }
      return out;
    });
    for (const { schedule, seconds, colour } of due) {
      const game = await this.games.ownerOf(schedule.gameId);
      if (game?.status !== 'RUNNING') continue;
      const what = schedule.task === 'restart' ? 'Restart' : 'Server stop';
      await this.games.command(game.id, `say ${colour}${what} in ${seconds} seconds`).catch(() => undefined);
    }
  }

  /** Rounds every `intervalMs` until `stop`. */
  start(intervalMs = 5_000): void {
    this.loop ??= new RoundLoop(
      () => this.tick(),
      () => intervalMs,
      (err) => this.log.error({ err }, 'schedules round failed'),
    );
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop?.stop();
  }
}
