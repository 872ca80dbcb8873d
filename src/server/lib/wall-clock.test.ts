import { describe, expect, it } from 'vitest';
import { nextWallClock, validTimeZone } from './wall-clock.ts';

const next = (now: string, hour: number, minute: number, zone: string, weekdays?: number[]) => nextWallClock(new Date(now), { hour, minute, weekdays: weekdays ?? null }, zone).toISOString();

describe('wall-clock times in a zone', () => {
  it('reads the hour and minute on the zone’s clock', () => {
    expect(next('2027-01-10T12:00:00Z', 2, 30, 'Europe/Paris')).toBe('2027-01-11T01:30:00.000Z');
    expect(next('2027-07-10T12:00:00Z', 2, 30, 'Europe/Paris')).toBe('2027-07-11T00:30:00.000Z');
    expect(next('2027-07-10T12:00:00Z', 23, 45, 'America/New_York')).toBe('2027-07-11T03:45:00.000Z');
  });

  it('keeps only the weekdays asked for, of the local date', () => {
    // 2027-07-10 is a Saturday; Monday 1 … Sunday 7.
    expect(next('2027-07-10T12:00:00Z', 8, 0, 'Europe/Paris', [1])).toBe('2027-07-12T06:00:00.000Z');
    expect(next('2027-07-10T12:00:00Z', 8, 0, 'Europe/Paris', [6])).toBe('2027-07-17T06:00:00.000Z');
    expect(next('2027-07-10T12:00:00Z', 8, 0, 'Europe/Paris', [3, 7])).toBe('2027-07-11T06:00:00.000Z');
    // 00:30 on Monday in Tokyo is still Sunday in UTC.
    expect(next('2027-07-10T12:00:00Z', 0, 30, 'Asia/Tokyo', [1])).toBe('2027-07-11T15:30:00.000Z');
  });

  it('knows IANA zones from anything else', () => {
    expect(validTimeZone('Asia/Tokyo')).toBe(true);
    expect(validTimeZone('Mars/Olympus')).toBe(false);
    expect(validTimeZone('')).toBe(false);
  });
});
