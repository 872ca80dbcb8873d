import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { games } from './games.ts';
import { users } from './users.ts';
import { scheduleDisabledReasons, scheduleRepeats, scheduleRunStatuses, scheduleSkipReasons, scheduleTasks } from '../../../contract/schedules.ts';

/**
 * A task that runs on a game by a repeat rule (docs/architecture.md, "Scheduled tasks"). Due rows
 * are claimed under `FOR UPDATE SKIP LOCKED` and `nextRunAt` moved on in the same transaction, so
 * each run happens once across replicas.
 */
export const gameSchedules = pgTable(
  'game_schedules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    gameId: uuid('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    task: text('task', { enum: scheduleTasks }).notNull(),
    command: text('command'),
    repeat: text('repeat', { enum: scheduleRepeats }).notNull(),
    /** HH:MM on the clock of `timeZone` (daily, weekdays). */
    time: text('time'),
    /** ISO weekdays, 1 Monday … 7 Sunday (weekdays). */
    weekdays: integer('weekdays').array(),
    everyHours: integer('every_hours'),
    timeZone: text('time_zone').notNull(),
    /** Where an `hours` rule counts from. */
    anchorAt: timestamp('anchor_at', { withTimezone: true }).notNull(),
    onlyWhenRunning: boolean('only_when_running').notNull().default(false),
    countdown: boolean('countdown').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    /** Why the platform disabled it (its author's access ended); null when a person did, or it runs. */
    disabledReason: text('disabled_reason', { enum: scheduleDisabledReasons }),
    /** Null while disabled. */
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    /** The last countdown warning sent before `nextRunAt`, in seconds (60, 30, 10); null for none. */
    warned: integer('warned'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('game_schedules_game_idx').on(t.gameId), index('game_schedules_next_idx').on(t.nextRunAt)],
);

/** One run of a schedule, by its rule or asked now: RUNNING, then OK, FAILED or SKIPPED. */
export const scheduleRuns = pgTable(
  'schedule_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    scheduleId: uuid('schedule_id')
      .notNull()
      .references(() => gameSchedules.id, { onDelete: 'cascade' }),
    gameId: uuid('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    task: text('task', { enum: scheduleTasks }).notNull(),
    /** When the rule said it should run; when it was asked, for a run now. */
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    status: text('status', { enum: scheduleRunStatuses }).notNull(),
    reason: text('reason', { enum: scheduleSkipReasons }),
    /** A command's answer, or the error of a FAILED run. */
    output: text('output'),
    manual: boolean('manual').notNull().default(false),
  },
  (t) => [index('schedule_runs_schedule_idx').on(t.scheduleId, t.startedAt), index('schedule_runs_game_task_idx').on(t.gameId, t.task, t.scheduledFor)],
);
