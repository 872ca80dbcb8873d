import { describe, expect, it } from 'vitest';
import { prorate } from '../../src/server/modules/money/renewals/offer.ts';

const DAY = 24 * 3600_000;
const now = new Date('2026-03-01T12:00:00Z');
const left = (days: number) => new Date(now.getTime() + days * DAY);

describe('the prorated difference of a change of offer', () => {
  it('counts a day begun as a whole one', () => {
    const small = { priceCredits: 100, periodDays: 30 };
    const big = { priceCredits: 400, periodDays: 30 };
    expect(prorate(small, big, left(20), now)).toEqual({ days: 20, amount: 200 });
    expect(prorate(small, big, new Date(left(19).getTime() + 1), now)).toEqual({ days: 20, amount: 200 });
    expect(prorate(big, small, left(20), now)).toEqual({ days: 20, amount: -200 });
  });

  it('rounds to the nearest credit, a half away from zero, the same both ways', () => {
    // 10 credits a month more for 3 days: exactly 1 credit; for 15 days, 5; for 1 day, 1/3 → 0.
    const a = { priceCredits: 30, periodDays: 30 };
    const b = { priceCredits: 40, periodDays: 30 };
    expect(prorate(a, b, left(3), now).amount).toBe(1);
    expect(prorate(a, b, left(1), now).amount).toBe(0);
    // 1 credit a 2-day period more, for 1 day: half a credit, rounded up as a charge and as a credit.
    const c = { priceCredits: 1, periodDays: 2 };
    const d = { priceCredits: 2, periodDays: 2 };
    expect(prorate(c, d, left(1), now).amount).toBe(1);
    expect(prorate(d, c, left(1), now).amount).toBe(-1);
  });

  it('compares prices per day when the periods differ', () => {
    // 70 credits a week is 10 a day; 150 a month is 5 a day: 5 a day for 6 days.
    expect(prorate({ priceCredits: 150, periodDays: 30 }, { priceCredits: 70, periodDays: 7 }, left(6), now)).toEqual({ days: 6, amount: 30 });
  });

  it('nothing for a period already over', () => {
    expect(prorate({ priceCredits: 1, periodDays: 1 }, { priceCredits: 9, periodDays: 1 }, left(-1), now)).toEqual({ days: 0, amount: 0 });
  });
});
