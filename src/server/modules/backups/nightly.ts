/** When nightly backups run: wall-clock hours of the owner's time zone, across daylight-saving changes. */
import { nextWallClock, validTimeZone } from '../../lib/wall-clock.ts';

export { validTimeZone };

/**
 * The first time after `now` when the clock in `zone` shows `hour`:00, computed from the zone's
 * offset on that day, so a nightly backup at 03:00 stays at 03:00 across daylight-saving changes.
 * On the night the clock skips that hour, it runs at the first instant after the gap.
 */
export function nextNightly(now: Date, hour: number, zone: string): Date {
  return nextWallClock(now, { hour }, zone);
}
