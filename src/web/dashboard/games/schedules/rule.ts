import type { TFunction } from 'i18next';
import type { Schedule, ScheduleInput, ScheduleTask } from '../../../../contract/schedules.ts';

/** ISO weekdays, Monday (1) to Sunday (7). */
export const isoWeekdays = [1, 2, 3, 4, 5, 6, 7] as const;

/** Tasks whose players may be warned 60, 30 and 10 seconds before (the contract's `countdown`). */
export const countdownTasks: readonly ScheduleTask[] = ['restart', 'stop'];
/** Tasks that cut the players off: run now asks first. */
export const askFirstTasks: readonly ScheduleTask[] = ['restart', 'stop'];

/** The browser's IANA time zone, the one a new schedule starts with. */
export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The rule in words: "Tous les jours à 04:00", "Lun, mer, ven à 18:30", "Toutes les 6 heures". */
export function ruleText(t: TFunction<'games'>, rule: Pick<Schedule, 'repeat' | 'time' | 'weekdays' | 'everyHours'>): string {
  if (rule.repeat === 'hours') return t('schedules.rule.hours', { count: rule.everyHours ?? 0 });
  if (rule.repeat === 'daily') return t('schedules.rule.daily', { time: rule.time ?? '' });
  const days = [...(rule.weekdays ?? [])].sort((a, b) => a - b);
  if (days.length === 7) return t('schedules.rule.daily', { time: rule.time ?? '' });
  const list = days.map((d) => t(`schedules.days.inList.${d}`)).join(', ');
  return t('schedules.rule.weekdays', { days: list.charAt(0).toUpperCase() + list.slice(1), time: rule.time ?? '' });
}

/** A schedule as the API takes it again (PUT replaces the whole rule). */
export function inputOf(schedule: Schedule): ScheduleInput {
  return {
    task: schedule.task,
    command: schedule.command,
    repeat: schedule.repeat,
    time: schedule.time,
    weekdays: schedule.weekdays,
    everyHours: schedule.everyHours,
    timeZone: schedule.timeZone,
    onlyWhenRunning: schedule.onlyWhenRunning,
    countdown: schedule.countdown,
    enabled: schedule.enabled,
  };
}
