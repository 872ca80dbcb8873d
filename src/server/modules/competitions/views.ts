import { inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rankedModes, rankedSeasons, ratingHistory, type rankedMatches } from '../../db/schema/competitions.ts';
import { MATCH_JOIN_SECONDS, PROVISIONAL_RD, type RankedMatch, type RankedRating } from '../../../contract/competitions.ts';
import type { Player } from '../../../contract/social.ts';
import { bothLanguages } from '../../lib/messages.ts';
import type { MinecraftService } from '../minecraft/service.ts';
import type { RatingRow } from './seasons.ts';

export type MatchRow = typeof rankedMatches.$inferSelect;

/** Why the platform voided or cancelled a match: keys of `notices.ranked.reasons` in messages.json. */
export type MatchEndReason = 'serverCrashed' | 'serverFailed' | 'noShow' | 'accountDeleted' | 'overridden' | 'tournamentCancelled';

export const rankedPlayer = (id: string, players: Map<string, Player>) => {
  const p = players.get(id);
  return { id, name: p?.name ?? '', mcName: p?.mcName ?? null };
};

/** A rating as the API shows it: rounded, and provisional while its deviation is high. */
export const ratingView = (row: RatingRow, season: string): RankedRating => ({
  modeId: row.modeId,
  season,
  rating: Math.round(row.rating),
  rd: Math.round(row.rd),
  provisional: row.rd > PROVISIONAL_RD,
  matches: row.matches,
  wins: row.wins,
  losses: row.losses,
  draws: row.draws,
});

/** Matches as the API shows them, with their players' names and their rating changes. */
export async function matchViews(executor: Executor, minecraft: MinecraftService, rows: MatchRow[]): Promise<RankedMatch[]> {
  if (rows.length === 0) return [];
  const modeIds = [...new Set(rows.map((r) => r.modeId))];
  const seasonIds = [...new Set(rows.map((r) => r.seasonId))];
  const [modes, seasons, changes, players] = await Promise.all([
    executor.select().from(rankedModes).where(inArray(rankedModes.id, modeIds)),
    executor.select().from(rankedSeasons).where(inArray(rankedSeasons.id, seasonIds)),
    executor
      .select()
      .from(ratingHistory)
      .where(
        inArray(
          ratingHistory.matchId,
          rows.map((r) => r.id),
        ),
      ),
    minecraft.players(rows.flatMap((r) => [r.playerA, r.playerB])),
  ]);
  const modeOf = new Map(modes.map((m) => [m.id, m]));
  const seasonOf = new Map(seasons.map((s) => [s.id, s.key]));
  const changeOf = new Map(changes.map((c) => [`${c.matchId}/${c.userId}`, c]));
  return rows.map((r) => {
    const mode = modeOf.get(r.modeId)!;
    const side = (id: string, kills: number) => {
      const change = changeOf.get(`${r.id}/${id}`);
      return { ...rankedPlayer(id, players), kills, ratingBefore: change ? Math.round(change.ratingBefore) : null, ratingAfter: change ? Math.round(change.ratingAfter) : null };
    };
    const winnerId = r.result === 'PLAYER_A' ? r.playerA : r.result === 'PLAYER_B' ? r.playerB : null;
    return {
      id: r.id,
      modeId: r.modeId,
      modeName: mode.name,
      season: seasonOf.get(r.seasonId) ?? '',
      status: r.status,
      result: r.result,
      winnerId,
      players: [side(r.playerA, r.killsA), side(r.playerB, r.killsB)],
      killsToWin: mode.killsToWin,
      timeLimitSeconds: mode.timeLimitSeconds,
      reason: r.reason ? bothLanguages(`notices.ranked.reasons.${r.reason}`) : null,
      address: r.status === 'LIVE' ? r.address : null,
      joinBy: r.status === 'LIVE' && r.startedAt ? new Date(r.startedAt.getTime() + MATCH_JOIN_SECONDS * 1000).toISOString() : null,
      createdAt: r.createdAt.toISOString(),
      startedAt: r.startedAt?.toISOString() ?? null,
      endedAt: r.endedAt?.toISOString() ?? null,
    };
  });
}
