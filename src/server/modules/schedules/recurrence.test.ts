import { describe, expect, it } from 'vitest';
import { nextRun, type Recurrence } from './recurrence.ts';

const daily = (time: string, timeZone: string): Recurrence => ({ repeat: 'daily', time, weekdays: null, everyHours: null, timeZone, anchorAt: new Date(0) });
const after = (rule: Recurrence, now: string) => nextRun(rule, new Date(now)).toISOString();
/** Every run of `rule` from `from` to `to`. */
function runs(rule: Recurrence, from: string, to: string): string[] {
  const out: string[] = [];
  let at = new Date(from);
  for (;;) {
    at = nextRun(rule, at);
    if (at.getTime() > Date.parse(to)) return out;
    out.push(at.toISOString());
  }
}

describe('when a schedule runs next', () => {
  it('runs a daily 02:30 in Paris once, at 03:30, on the day the clock skips 02:00–03:00 (2027-03-28)', () => {
    const rule = daily('02:30', 'Europe/Paris');
    // 02:30 does not exist that night: the run is shifted by the gap, 03:30 local (+02:00).
    expect(after(rule, '2027-03-27T12:00:00Z')).toBe('2027-03-28T01:30:00.000Z');
    expect(runs(rule, '2027-03-27T00:00:00Z', '2027-03-29T23:00:00Z')).toEqual(['2027-03-27T01:30:00.000Z', '2027-03-28T01:30:00.000Z', '2027-03-29T00:30:00.000Z']);
  });

  it('runs a daily 02:30 in Paris once, not twice, on the day the clock goes back (2027-10-31)', () => {
    const rule = daily('02:30', 'Europe/Paris');
    // 02:30 happens at 00:30Z (+02:00) and again at 01:30Z (+01:00): one of them only.
    expect(runs(rule, '2027-10-30T00:00:00Z', '2027-11-01T23:00:00Z')).toEqual(['2027-10-30T00:30:00.000Z', '2027-10-31T01:30:00.000Z', '2027-11-01T01:30:00.000Z']);
    // Asked between the two 02:30s, it still runs once that day.
    expect(after(rule, '2027-10-31T00:45:00Z')).toBe('2027-10-31T01:30:00.000Z');
    expect(after(rule, '2027-10-31T01:30:00Z')).toBe('2027-11-01T01:30:00.000Z');
  });

  it('keeps the same UTC times across those days in a zone without daylight saving (Asia/Tokyo)', () => {
    const rule = daily('02:30', 'Asia/Tokyo');
    expect(runs(rule, '2027-03-27T00:00:00Z', '2027-03-29T23:00:00Z')).toEqual(['2027-03-27T17:30:00.000Z', '2027-03-28T17:30:00.000Z', '2027-03-29T17:30:00.000Z']);
    expect(runs(rule, '2027-10-30T00:00:00Z', '2027-11-01T23:00:00Z')).toEqual(['2027-10-30T17:30:00.000Z', '2027-10-31T17:30:00.000Z', '2027-11-01T17:30:00.000Z']);
  });

  it('runs on chosen weekdays at a time of the zone', () => {
    // Sundays (7) and Wednesdays (3) at 04:00 in Paris; 2027-10-31 is a Sunday, the day the clock goes back.
    const rule: Recurrence = { ...daily('04:00', 'Europe/Paris'), repeat: 'weekdays', weekdays: [3, 7] };
    expect(runs(rule, '2027-10-28T00:00:00Z', '2027-11-08T00:00:00Z')).toEqual(['2027-10-31T03:00:00.000Z', '2027-11-03T03:00:00.000Z', '2027-11-07T03:00:00.000Z']);
  });

  it('runs every N hours from its anchor, in real hours across a change of the clock', () => {
    const rule: Recurrence = { repeat: 'hours', time: null, weekdays: null, everyHours: 6, timeZone: 'Europe/Paris', anchorAt: new Date('2027-10-30T20:00:00Z') };
    expect(after(rule, '2027-10-30T19:00:00Z')).toBe('2027-10-30T20:00:00.000Z');
    expect(runs(rule, '2027-10-30T20:00:00Z', '2027-10-31T20:00:00Z')).toEqual(['2027-10-31T02:00:00.000Z', '2027-10-31T08:00:00.000Z', '2027-10-31T14:00:00.000Z', '2027-10-31T20:00:00.000Z']);
    expect(after({ ...rule, everyHours: 1 }, '2027-10-31T10:59:59Z')).toBe('2027-10-31T11:00:00.000Z');
  });
});
