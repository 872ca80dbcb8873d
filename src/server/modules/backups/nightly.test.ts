import { describe, expect, it } from 'vitest';
import { nextNightly, validTimeZone } from './nightly.ts';

describe('nightly backup times', () => {
  it('runs at the owner’s hour in their zone, summer and winter', () => {
    // Paris is UTC+1 in winter, UTC+2 in summer.
    expect(nextNightly(new Date('2026-01-10T12:00:00Z'), 3, 'Europe/Paris').toISOString()).toBe('2026-01-11T02:00:00.000Z');
    expect(nextNightly(new Date('2026-07-10T12:00:00Z'), 3, 'Europe/Paris').toISOString()).toBe('2026-07-11T01:00:00.000Z');
    expect(nextNightly(new Date('2026-07-10T00:30:00Z'), 3, 'Europe/Paris').toISOString()).toBe('2026-07-10T01:00:00.000Z');
    expect(nextNightly(new Date('2026-07-10T12:00:00Z'), 23, 'America/New_York').toISOString()).toBe('2026-07-11T03:00:00.000Z');
  });

  it('keeps the wall-clock hour across daylight-saving changes, never an hour early', () => {
    // The night of 28 to 29 March 2026 Paris moves from +1 to +2 at 02:00 local.
    expect(nextNightly(new Date('2026-03-28T12:00:00Z'), 4, 'Europe/Paris').toISOString()).toBe('2026-03-29T02:00:00.000Z');
    expect(nextNightly(new Date('2026-03-29T12:00:00Z'), 4, 'Europe/Paris').toISOString()).toBe('2026-03-30T02:00:00.000Z');
    // 02:30 does not exist that night: it runs at the first instant after the gap, 03:00 local.
    expect(nextNightly(new Date('2026-03-28T12:00:00Z'), 2, 'Europe/Paris').toISOString()).toBe('2026-03-29T01:00:00.000Z');
    // The night of 24 to 25 October 2026 Paris moves back to +1: 04:00 local is 03:00 UTC again.
    expect(nextNightly(new Date('2026-10-24T12:00:00Z'), 4, 'Europe/Paris').toISOString()).toBe('2026-10-25T03:00:00.000Z');
    // 02:00 happens twice that night: the backup runs once.
    const twice = nextNightly(new Date('2026-10-24T12:00:00Z'), 2, 'Europe/Paris').toISOString();
    expect(['2026-10-25T00:00:00.000Z', '2026-10-25T01:00:00.000Z']).toContain(twice);
    expect(nextNightly(new Date(twice), 2, 'Europe/Paris').toISOString()).toBe('2026-10-26T01:00:00.000Z');
  });

  it('knows IANA zones from anything else', () => {
    expect(validTimeZone('Europe/Paris')).toBe(true);
    expect(validTimeZone('America/Argentina/Buenos_Aires')).toBe(true);
    expect(validTimeZone('Mars/Olympus')).toBe(false);
    expect(validTimeZone('')).toBe(false);
  });
});
