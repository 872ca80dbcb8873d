import { describe, expect, it } from 'vitest';
import { glicko2, softReset } from './ratings.ts';

describe('Glicko-2 ratings', () => {
  it('reproduces the worked example of Glickman’s “Example of the Glicko-2 system”', () => {
    // A player rated 1500, RD 200, volatility 0.06, τ 0.5, wins against 1400 (RD 30), loses against
    // 1550 (RD 100) and 1700 (RD 300) in one period: 1464.06, 151.52, 0.05999 in the paper.
    const next = glicko2(
      { rating: 1500, rd: 200, volatility: 0.06 },
      [
        { opponent: { rating: 1400, rd: 30, volatility: 0.06 }, score: 1 },
        { opponent: { rating: 1550, rd: 100, volatility: 0.06 }, score: 0 },
        { opponent: { rating: 1700, rd: 300, volatility: 0.06 }, score: 0 },
      ],
      0.5,
    );
    expect(next.rating).toBeCloseTo(1464.06, 1);
    expect(next.rd).toBeCloseTo(151.52, 2);
    expect(next.volatility).toBeCloseTo(0.05999, 4);
  });

  it('pulls a new season’s rating halfway to 1500 and raises its deviation, at most to 350', () => {
    expect(softReset({ rating: 1900, rd: 60, volatility: 0.07 })).toEqual({ rating: 1700, rd: Math.sqrt(60 ** 2 + 150 ** 2), volatility: 0.07 });
    expect(softReset({ rating: 1300, rd: 340, volatility: 0.06 })).toMatchObject({ rating: 1400, rd: 350 });
  });
});
