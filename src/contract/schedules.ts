import { Type, type Static } from 'typebox';
import { DateTime, Id, Page } from './common.ts';

/**
 * A game's scheduled tasks (docs/architecture.md, "Scheduled tasks"): what runs, when it repeats,
 * and each run's record. These lists feed both the database columns and the validators.
 */
export const scheduleTasks = ['restart', 'start', 'stop', 'backup', 'command', 'announce'] as const;
export type ScheduleTask = (typeof scheduleTasks)[number];
export const scheduleRepeats = ['daily', 'weekdays', 'hours'] as const;
export type ScheduleRepeat = (typeof scheduleRepeats)[number];
export const scheduleRunStatuses = ['RUNNING', 'OK', 'FAILED', 'SKIPPED'] as const;
export type ScheduleRunStatus = (typeof scheduleRunStatuses)[number];
/** Why the platform paused a schedule: its author lost their co-admin access to the game. */
export const scheduleDisabledReasons = ['authorAccessEnded'] as const;
/**
 * Why a run was SKIPPED, or why it FAILED when the platform knows (interrupted: cut off by a stop
 * of the platform; authorNotAllowed: a command its author may no longer send at their level).
 */
export const scheduleSkipReasons = ['missed', 'notRunning', 'restartLimit', 'alreadyRunning', 'alreadyStopped', 'expired', 'interrupted', 'authorNotAllowed'] as const;
export type ScheduleSkipReason = (typeof scheduleSkipReasons)[number];

/** Most scheduled tasks on one game. */
export const MAX_SCHEDULES_PER_GAME = 10;
export const SCHEDULE_COMMAND_MAX = 256;
/** Most hours between two runs of an `hours` rule (a week). */
export const SCHEDULE_MAX_HOURS = 168;

export const SCHEDULE_TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';

export const ScheduleInput = Type.Object(
  {
    task: Type.Enum(scheduleTasks, {
      description: 'restart, start, stop: the server’s lifecycle; backup: a backup of the world; command: a console command (`command`); announce: tell the owner’s friends the server is open',
    }),
    command: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: SCHEDULE_COMMAND_MAX, description: 'The console command of a `command` task, without a leading slash, no control characters' }), Type.Null()]),
    ),
    repeat: Type.Enum(scheduleRepeats, { description: 'daily: every day at `time`; weekdays: on `weekdays` at `time`; hours: every `everyHours` hours from the schedule’s creation' }),
    time: Type.Optional(Type.Union([Type.String({ pattern: SCHEDULE_TIME_PATTERN, description: 'HH:MM on the clock of `timeZone`' }), Type.Null()])),
    weekdays: Type.Optional(
      Type.Union([Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), { minItems: 1, maxItems: 7, uniqueItems: true, description: 'ISO weekdays: 1 Monday … 7 Sunday' }), Type.Null()]),
    ),
    everyHours: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: SCHEDULE_MAX_HOURS }), Type.Null()])),
    timeZone: Type.String({ minLength: 1, maxLength: 64, description: 'An IANA time zone (Europe/Paris): the clock `time` is read on' }),
    onlyWhenRunning: Type.Optional(Type.Boolean({ description: 'Skip the run (recorded SKIPPED) when the server is not RUNNING. Default false' })),
    countdown: Type.Optional(Type.Boolean({ description: 'restart and stop: tell the players in game 60, 30 and 10 seconds before. Default false' })),
    enabled: Type.Optional(Type.Boolean({ description: 'A disabled schedule keeps its rule but does not run. Default true' })),
  },
  { additionalProperties: false },
);
export type ScheduleInput = Static<typeof ScheduleInput>;

export const ScheduleParams = Type.Object({ id: Id, scheduleId: Id }, { additionalProperties: false });
export type ScheduleParams = Static<typeof ScheduleParams>;

export const ScheduleRun = Type.Object({
  id: Id,
  scheduleId: Id,
  task: Type.Enum(scheduleTasks),
  /** When the rule said it should run (when it was asked, for a run now). */
  scheduledFor: DateTime,
  startedAt: DateTime,
  finishedAt: Type.Union([DateTime, Type.Null()]),
  status: Type.Enum(scheduleRunStatuses),
  reason: Type.Union([Type.Enum(scheduleSkipReasons), Type.Null()], {
    description: 'Why it was SKIPPED (or FAILED: interrupted, cut off by a stop of the platform; authorNotAllowed, a command its author may no longer send)',
  }),
  output: Type.Union([Type.String(), Type.Null()], { description: 'A command’s answer, or the error of a FAILED run' }),
  manual: Type.Boolean({ description: 'Run now, rather than by the rule' }),
});
export type ScheduleRun = Static<typeof ScheduleRun>;
export const ScheduleRunPage = Page(ScheduleRun);

export const Schedule = Type.Object({
  id: Id,
  gameId: Id,
  task: Type.Enum(scheduleTasks),
  command: Type.Union([Type.String(), Type.Null()]),
  repeat: Type.Enum(scheduleRepeats),
  time: Type.Union([Type.String(), Type.Null()]),
  weekdays: Type.Union([Type.Array(Type.Integer()), Type.Null()]),
  everyHours: Type.Union([Type.Integer(), Type.Null()]),
  timeZone: Type.String(),
  onlyWhenRunning: Type.Boolean(),
  countdown: Type.Boolean(),
  enabled: Type.Boolean(),
  disabledReason: Type.Union([Type.Enum(scheduleDisabledReasons), Type.Null()], {
    description: 'Why the platform disabled it, when it did: authorAccessEnded, its author no longer has co-admin access to the game. Cleared once it is saved again',
  }),
  nextRunAt: Type.Union([DateTime, Type.Null()], { description: 'The next run; null while disabled' }),
  createdBy: Type.Union([Id, Type.Null()]),
  createdAt: DateTime,
  updatedAt: DateTime,
  lastRun: Type.Union([ScheduleRun, Type.Null()]),
});
export type Schedule = Static<typeof Schedule>;
export const ScheduleList = Type.Object({ data: Type.Array(Schedule), max: Type.Integer({ description: 'Most scheduled tasks on one game' }) });
export type ScheduleList = Static<typeof ScheduleList>;
