/** When nightly backups run: wall-clock hours of the owner's time zone, across daylight-saving changes. */

export function validTimeZone(zone: string): boolean {
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
 * The first time after `now` when the clock in `zone` shows `hour`:00, computed from the zone's
 * offset on that day, so a nightly backup at 03:00 stays at 03:00 across daylight-saving changes.
 * On the night the clock skips that hour, it runs at the first instant after the gap.
 */
export function nextNightly(now: Date, hour: number, zone: string): Date {
  const local = new Date(now.getTime() + offsetMinutes(now, zone) * 60_000);
  for (let day = 0; day < 3; day++) {
    const wall = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + day, hour);
    // The offset at the wall time, read twice: the second read settles the day of a change.
    let at = wall - offsetMinutes(new Date(wall), zone) * 60_000;
    at = wall - offsetMinutes(new Date(at), zone) * 60_000;
    if (at > now.getTime()) return new Date(at);
  }
  throw new Error('no nightly time found');
}
