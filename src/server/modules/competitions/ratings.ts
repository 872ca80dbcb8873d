import rate from 'glicko2-lite';

/** A Glicko-2 rating on Glickman's scale (1500 the average). */
export interface Glicko {
  rating: number;
  rd: number;
  volatility: number;
}

/** A new player's rating: Glickman's suggested start (rating 1500, deviation 350, volatility 0.06). */
export const NEW_PLAYER: Glicko = { rating: 1500, rd: 350, volatility: 0.06 };
/** The system constant τ: how much volatility may move; Glickman suggests 0.3 to 1.2. */
const TAU = 0.5;
/** The soft reset of a new season keeps this share of the distance to 1500… */
const RESET_KEEP = 0.5;
/** …and raises the deviation as if this much uncertainty were added (combined in quadrature). */
const RESET_RD_ADDED = 150;

/**
 * One rating period of Glicko-2 (the library, glicko2-lite, does the formulas): `player` against
 * each opponent, with its score (1 won, 0.5 draw, 0 lost). A ranked match is its own period.
 */
export function glicko2(player: Glicko, games: ReadonlyArray<{ opponent: Glicko; score: number }>, tau = TAU): Glicko {
  const next = rate(
    player.rating,
    player.rd,
    player.volatility,
    games.map((g) => [g.opponent.rating, g.opponent.rd, g.score] as [number, number, number]),
    { rating: NEW_PLAYER.rating, tau },
  );
  return { rating: next.rating, rd: next.rd, volatility: next.vol };
}

/**
 * A player's rating at the start of a new season, from their last one: pulled halfway to 1500
 * (rating' = 1500 + 0.5 × (rating − 1500)) and made less sure (RD' = min(350, √(RD² + 150²))), so
 * a season's first matches move it faster; the volatility is kept.
 */
export function softReset(last: Glicko): Glicko {
  return {
    rating: NEW_PLAYER.rating + RESET_KEEP * (last.rating - NEW_PLAYER.rating),
    rd: Math.min(NEW_PLAYER.rd, Math.sqrt(last.rd ** 2 + RESET_RD_ADDED ** 2)),
    volatility: last.volatility,
  };
}
