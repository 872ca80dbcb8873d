import { nextWallClock } from '../../lib/wall-clock.ts';
import type { ScheduleRepeat } from '../../../contract/schedules.ts';

/** A schedule's repeat rule as stored. */
export interface Recurrence {
  repeat: ScheduleRepeat;
  /** HH:MM, for `daily` and `weekdays`. */
  time: string | null;
  /** ISO weekdays (1 Monday … 7 Sunday), for `weekdays`. */
  weekdays: readonly number[] | null;
  /** N, for `hours`. */
  everyHours: number | null;
  /** The creator's IANA time zone: the wall clock `time` is read on. */
  timeZone: string;
  /** Where `hours` counts from: runs fall at anchor + k × N hours. */
  anchorAt: Date;
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * The first run of `rule` after `now`. `daily` and `weekdays` follow the wall clock of the rule's
 * zone (lib/wall-clock.ts): a time the clock skips runs shifted by the gap (02:30 on the night
 * Paris moves forward runs at 03:30), a time it shows twice runs once. `hours` counts real hours
 * from its anchor, so a change of the clock neither adds nor drops a run.
 */
export function nextRun(rule: Recurrence, now: Date): Date {
  if (rule.repeat === 'hours') {
    const every = Math.max(1, rule.everyHours ?? 1) * HOUR_MS;
    const anchor = rule.anchorAt.getTime();
    const k = Math.max(0, Math.floor((now.getTime() - anchor) / every) + 1);
    return new Date(anchor + k * every);
  }
  const [hour, minute] = (rule.time ?? '00:00').split(':').map(Number) as [number, number];
  return nextWallClock(now, { hour, minute, weekdays: rule.repeat === 'weekdays' ? rule.weekdays : null }, rule.timeZone);
}
