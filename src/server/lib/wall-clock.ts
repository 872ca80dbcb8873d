/**
 * Wall-clock times in a time zone, across daylight-saving changes: when the clock of an IANA zone
 * next shows a given hour and minute (nightly backups, scheduled tasks). Computed from the zone's
 * offset on the day, with Intl only.
 */

export function validTimeZone(zone: string): boolean {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Minutes `zone` is ahead of UTC at `at`. */
function offsetMinutes(at: Date, zone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
      .formatToParts(at)
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
  const local = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return Math.round((local - at.getTime()) / 60_000);
}

/**
 * The instant the clock in `zone` shows `hour`:`minute` on the local day `day` (a UTC midnight
 * standing for that calendar date). The offset is read at the wall time, then again at the instant
 * found, which settles the day of a change:
 * - a time the clock skips (02:30 the night Paris moves forward) comes out shifted by the gap,
 *   at 03:30;
 * - a time the clock shows twice (02:30 the night Paris moves back) comes out as one of the two,
 *   always the same for that date, so a rule runs once that day.
 */
function instantOn(day: number, hour: number, minute: number, zone: string): number {
  const wall = day + (hour * 60 + minute) * 60_000;
  let at = wall - offsetMinutes(new Date(wall), zone) * 60_000;
  at = wall - offsetMinutes(new Date(at), zone) * 60_000;
  return at;
}

/**
 * The first instant after `now` when the clock in `zone` shows `hour`:`minute`, on one of
 * `weekdays` (ISO: 1 Monday … 7 Sunday, of the local date) when given.
 */
export function nextWallClock(now: Date, time: { hour: number; minute?: number; weekdays?: readonly number[] | null }, zone: string): Date {
  const local = new Date(now.getTime() + offsetMinutes(now, zone) * 60_000);
  const days = time.weekdays?.length ? new Set(time.weekdays) : null;
  for (let i = 0; i < 9; i++) {
    const day = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + i);
    if (days && !days.has(new Date(day).getUTCDay() || 7)) continue;
    const at = instantOn(day, time.hour, time.minute ?? 0, zone);
    if (at > now.getTime()) return new Date(at);
  }
  throw new Error('no wall-clock time found');
}
