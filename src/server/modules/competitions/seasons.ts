import { and, desc, eq, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rankedRatings, rankedSeasons } from '../../db/schema/competitions.ts';
import type { RankedSeason } from '../../../contract/competitions.ts';
import { NEW_PLAYER, softReset } from './ratings.ts';

export type SeasonRow = typeof rankedSeasons.$inferSelect;
export type RatingRow = typeof rankedRatings.$inferSelect;

/** The season `at` falls in: its calendar month in UTC. */
function monthOf(at: Date): { key: string; startsAt: Date; endsAt: Date } {
  const startsAt = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const endsAt = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { key: startsAt.toISOString().slice(0, 7), startsAt, endsAt };
}

/** The season of `at`, made by the first one who needs it (any replica: the key is unique). */
export async function seasonOf(executor: Executor, at: Date): Promise<SeasonRow> {
  const month = monthOf(at);
  const read = () => executor.select().from(rankedSeasons).where(eq(rankedSeasons.key, month.key));
  // Read first: every leaderboard read asks, and a write for each would be wasted.
  const [existing] = await read();
  if (existing) return existing;
  await executor.insert(rankedSeasons).values(month).onConflictDoNothing();
  const [row] = await read();
  return row!;
}

export const seasonView = (row: SeasonRow): RankedSeason => ({ key: row.key, startsAt: row.startsAt.toISOString(), endsAt: row.endsAt.toISOString() });

/**
 * A player's rating row in a mode and season, made when first needed: from their last earlier
 * season's by the soft reset (ratings.ts), or a new player's. `lock` takes it FOR UPDATE, for a
 * result's writes.
 */
export async function ratingRow(executor: Executor, userId: string, modeId: string, season: SeasonRow, { lock = false } = {}): Promise<RatingRow> {
  const mine = and(eq(rankedRatings.userId, userId), eq(rankedRatings.modeId, modeId), eq(rankedRatings.seasonId, season.id));
  const read = () => {
    const query = executor.select().from(rankedRatings).where(mine);
    return lock ? query.for('update') : query;
  };
  const [existing] = await read();
  if (existing) return existing;
  const [last] = await executor
    .select({ rating: rankedRatings.rating, rd: rankedRatings.rd, volatility: rankedRatings.volatility })
    .from(rankedRatings)
    .innerJoin(rankedSeasons, eq(rankedSeasons.id, rankedRatings.seasonId))
    .where(and(eq(rankedRatings.userId, userId), eq(rankedRatings.modeId, modeId), lt(rankedSeasons.startsAt, season.startsAt)))
    .orderBy(desc(rankedSeasons.startsAt))
    .limit(1);
  const start = last ? softReset(last) : NEW_PLAYER;
  await executor
    .insert(rankedRatings)
    .values({ userId, modeId, seasonId: season.id, ...start })
    .onConflictDoNothing();
  const [made] = await read();
  return made!;
}
