import { and, asc, count, desc, eq, gt, inArray, lt, or, sql, sum } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, Executor } from '../../db/client.ts';
import { rankedMatches, rankedModes, rankedQueue, rankedRatingCounts, rankedRatings, rankedSeasons, ratingHistory } from '../../db/schema/competitions.ts';
import { conflict, notFound } from '../../lib/problems.ts';
import { pageOf, type Window } from '../../lib/paging.ts';
import {
  LEADERBOARD_SIZE,
  liveMatchStatuses,
  type Leaderboard,
  type LeaderboardEntry,
  type PlayerHistory,
  type QueueEntry,
  type RankedMatch,
  type RankedMe,
  type RankedModeList,
} from '../../../contract/competitions.ts';
import type { Clock } from '../games/runtime.ts';
import type { MinecraftService } from '../minecraft/service.ts';
import type { NotificationsService } from '../notifications/service.ts';
import type { UsersService } from '../users/service.ts';
import { ratingRow, seasonOf, seasonView, type RatingRow } from './seasons.ts';
import { matchViews, rankedPlayer, ratingView } from './views.ts';

/** The ranked modes a fresh install has (the seed), by slug. */
const SEED_MODES = [{ slug: 'duel-1-8-8', name: { fr: 'Duel 1.8.8', en: 'Duel 1.8.8' }, killsToWin: 3, timeLimitSeconds: 600, version: '1.8.8' }] as const;

/** The points of a player's chart: their last rating changes. */
const HISTORY_POINTS = 200;

/** A match the player is in, on either side. */
const playerIn = (userId: string) => or(eq(rankedMatches.playerA, userId), eq(rankedMatches.playerB, userId));
const isLive = inArray(rankedMatches.status, [...liveMatchStatuses]);

/**
 * The ranked ladders as players use them (docs/architecture.md, "Competitions"): modes, the
 * queue, a player's state, leaderboards and histories. Pairing is the runner's (runner.ts) and
 * results are results.ts'.
 */
export class CompetitionsService {
  private readonly db: Db;
  private readonly users: UsersService;
  private readonly minecraft: MinecraftService;
  private readonly notifications: NotificationsService;
  private readonly clock: Clock;

  constructor(db: Db, deps: { users: UsersService; minecraft: MinecraftService; notifications: NotificationsService }, options: { clock: Clock }) {
    this.db = db;
    this.users = deps.users;
    this.minecraft = deps.minecraft;
    this.notifications = deps.notifications;
    this.clock = options.clock;
  }

  /** Makes the seed's modes that do not exist, each on the catalogue's definition of its version (`definitions`); answers how many it made. */
  async seedModes(definitions: Map<string, string>): Promise<number> {
    let made = 0;
    for (const { version, ...mode } of SEED_MODES) {
      const inserted = await this.db
        .insert(rankedModes)
        .values({ ...mode, name: { ...mode.name }, definitionId: definitions.get(version) ?? null })
        .onConflictDoNothing()
        .returning({ id: rankedModes.id });
      made += inserted.length;
    }
    return made;
  }

  private async activeMode(modeId: string) {
    const [mode] = await this.db
      .select()
      .from(rankedModes)
      .where(and(eq(rankedModes.id, modeId), eq(rankedModes.active, true)));
    if (!mode) throw notFound('rankedMode');
    return mode;
  }

  async modes(): Promise<RankedModeList> {
    const [rows, waiting, season] = await Promise.all([
      this.db.select().from(rankedModes).where(eq(rankedModes.active, true)).orderBy(asc(rankedModes.createdAt), asc(rankedModes.id)),
      this.db.select({ modeId: rankedQueue.modeId, n: count() }).from(rankedQueue).groupBy(rankedQueue.modeId),
      seasonOf(this.db, this.clock()),
    ]);
    const waitingOf = new Map(waiting.map((w) => [w.modeId, w.n]));
    return {
      data: rows.map((m) => ({
        id: m.id,
        slug: m.slug,
        name: m.name,
        killsToWin: m.killsToWin,
        timeLimitSeconds: m.timeLimitSeconds,
        definitionId: m.definitionId,
        waiting: waitingOf.get(m.id) ?? 0,
      })),
      season: seasonView(season),
    };
  }

  /**
   * The current season's leaderboard of a mode: players who played in it, best first (ties by id,
   * so a rank is stable), the top LEADERBOARD_SIZE in pages; with `userId`, their own line wherever
   * they stand.
   */
  async leaderboard(modeId: string, window: Window, userId: string | null): Promise<Leaderboard> {
    await this.activeMode(modeId);
    const season = await seasonOf(this.db, this.clock());
    const board = and(eq(rankedRatings.modeId, modeId), eq(rankedRatings.seasonId, season.id), gt(rankedRatings.matches, 0));
    const limit = Math.max(0, Math.min(window.limit, LEADERBOARD_SIZE - window.offset));
    const [rows, [total], mine] = await Promise.all([
      limit > 0 ? this.db.select().from(rankedRatings).where(board).orderBy(desc(rankedRatings.rating), asc(rankedRatings.userId)).limit(limit).offset(window.offset) : Promise.resolve([]),
      // The board shows LEADERBOARD_SIZE at most: counted no further.
      this.db.select({ n: count() }).from(
        this.db
          .select({ one: sql`1` })
          .from(rankedRatings)
          .where(board)
          .limit(LEADERBOARD_SIZE)
          .as('board'),
      ),
      userId
        ? this.db
            .select()
            .from(rankedRatings)
            .where(and(board, eq(rankedRatings.userId, userId)))
        : Promise.resolve([]),
    ]);
    const own = mine[0];
    const players = await this.minecraft.players([...rows.map((r) => r.userId), ...(own ? [own.userId] : [])]);
    const entry = (row: RatingRow, rank: number): LeaderboardEntry => {
      const { modeId: _mode, season: _season, ...rating } = ratingView(row, season.key);
      return { rank, player: rankedPlayer(row.userId, players), ...rating };
    };
    let ownEntry: LeaderboardEntry | null = null;
    if (own) {
      // Those ahead: the players of the whole points above theirs (the counts' table, a row per
      // point), those of their own point with a higher rating, and those of the same rating with a
      // smaller id (the list's order). The two last are short ranges of the board's index.
      const bucket = Math.floor(own.rating);
      const [[above], [higher], [tied]] = await Promise.all([
        this.db
          .select({ n: sum(rankedRatingCounts.players).mapWith(Number) })
          .from(rankedRatingCounts)
          .where(and(eq(rankedRatingCounts.modeId, modeId), eq(rankedRatingCounts.seasonId, season.id), gt(rankedRatingCounts.bucket, bucket))),
        this.db
          .select({ n: count() })
          .from(rankedRatings)
          .where(and(board, gt(rankedRatings.rating, own.rating), lt(rankedRatings.rating, bucket + 1))),
        this.db
          .select({ n: count() })
          .from(rankedRatings)
          .where(and(board, eq(rankedRatings.rating, own.rating), lt(rankedRatings.userId, own.userId))),
      ]);
      const ahead = { n: (above?.n ?? 0) + (higher?.n ?? 0) + (tied?.n ?? 0) };
      ownEntry = entry(own, (ahead?.n ?? 0) + 1);
    }
    return {
      ...pageOf(
        rows.map((r, i) => entry(r, window.offset + i + 1)),
        Math.min(total?.n ?? 0, LEADERBOARD_SIZE),
        window,
      ),
      season: seasonView(season),
      mine: ownEntry,
    };
  }

  /**
   * Puts the player in a mode's queue with their current rating. A linked Minecraft account is
   * needed (it is what joins the match server); a player already waiting, or in a match not yet
   * over, is refused (409). The queue row is written before the match is looked for: a pairing
   * that holds this player's row makes the insert wait for its commit, so the look then sees the
   * match it made.
   */
  async join(userId: string, modeId: string): Promise<QueueEntry> {
    const mode = await this.activeMode(modeId);
    const [me] = await this.users.summaries([userId]);
    if (!me?.mcUuid) throw conflict('ranked.notLinked');
    const now = this.clock();
    const row = await this.db.transaction(async (tx) => {
      const season = await seasonOf(tx, now);
      const rating = await ratingRow(tx, userId, mode.id, season);
      const [queued] = await tx.insert(rankedQueue).values({ userId, modeId: mode.id, rating: rating.rating, joinedAt: now }).onConflictDoNothing().returning();
      if (!queued) throw conflict('ranked.alreadyQueued');
      const [playing] = await tx
        .select({ id: rankedMatches.id })
        .from(rankedMatches)
        .where(and(playerIn(userId), isLive))
        .limit(1);
      if (playing) throw conflict('ranked.inMatch');
      await this.notifications.changed(userId, { resource: 'ranked', ids: [], type: 'created' }, tx);
      return queued;
    });
    return { modeId: row.modeId, joinedAt: row.joinedAt.toISOString(), rating: Math.round(row.rating) };
  }

  /** Takes the player out of the queue they wait in; 404 when they wait in none (or were just paired). */
  async leave(userId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const gone = await tx.delete(rankedQueue).where(eq(rankedQueue.userId, userId)).returning({ userId: rankedQueue.userId });
      if (gone.length === 0) throw notFound('rankedQueue');
      await this.notifications.changed(userId, { resource: 'ranked', ids: [], type: 'deleted' }, tx);
    });
  }

  /** The player's queue, match not yet over and ratings of the current season. */
  async me(userId: string): Promise<RankedMe> {
    const season = await seasonOf(this.db, this.clock());
    const [[me], [queued], live, ratings] = await Promise.all([
      this.users.summaries([userId]),
      this.db.select().from(rankedQueue).where(eq(rankedQueue.userId, userId)),
      this.db
        .select()
        .from(rankedMatches)
        .where(and(playerIn(userId), isLive))
        .orderBy(desc(rankedMatches.createdAt))
        .limit(1),
      this.db
        .select()
        .from(rankedRatings)
        .where(and(eq(rankedRatings.userId, userId), eq(rankedRatings.seasonId, season.id))),
    ]);
    const [match] = await matchViews(this.db, this.minecraft, live);
    return {
      linked: Boolean(me?.mcUuid),
      queue: queued ? { modeId: queued.modeId, joinedAt: queued.joinedAt.toISOString(), rating: Math.round(queued.rating) } : null,
      match: match ?? null,
      ratings: ratings.map((r) => ratingView(r, season.key)),
    };
  }

  /** A match, for its players only: anyone else gets 404, as for a match that does not exist. */
  async match(userId: string, matchId: string): Promise<RankedMatch> {
    const rows = await this.db
      .select()
      .from(rankedMatches)
      .where(and(eq(rankedMatches.id, matchId), playerIn(userId)));
    const [match] = await matchViews(this.db, this.minecraft, rows);
    if (!match) throw notFound('rankedMatch');
    return match;
  }

  /** A player's public record: current ratings, last rating changes (the chart) and finished matches, newest first. */
  async history(userId: string, filter: { modeId?: string | undefined; season?: string | undefined }, window: Window): Promise<PlayerHistory> {
    const player = (await this.minecraft.players([userId])).get(userId);
    if (!player) throw notFound('user');
    const current = await seasonOf(this.db, this.clock());
    // A season asked that never was has nothing in it: no ratings, no changes, no matches.
    const season = filter.season === undefined || filter.season === current.key ? current : (await this.db.select().from(rankedSeasons).where(eq(rankedSeasons.key, filter.season)))[0];
    const seasonId = season?.id ?? null;
    const only = <T extends AnyPgColumn>(column: T, value: string | null | undefined) => (value === undefined ? undefined : value === null ? sql`false` : eq(column, value));
    const seasonFilter = filter.season === undefined ? undefined : seasonId;
    const finished = and(playerIn(userId), eq(rankedMatches.status, 'FINISHED'), only(rankedMatches.modeId, filter.modeId), only(rankedMatches.seasonId, seasonFilter));
    const mine = (a: AnyPgColumn, b: AnyPgColumn) => sql<number>`coalesce(sum(case when ${rankedMatches.playerA} = ${userId} then ${a} else ${b} end), 0)::int`;
    const won = sql`(${rankedMatches.result} = 'PLAYER_A' and ${rankedMatches.playerA} = ${userId}) or (${rankedMatches.result} = 'PLAYER_B' and ${rankedMatches.playerB} = ${userId})`;
    const [ratings, points, matches, [totals]] = await Promise.all([
      seasonId
        ? this.db
            .select()
            .from(rankedRatings)
            .where(and(eq(rankedRatings.userId, userId), eq(rankedRatings.seasonId, seasonId), gt(rankedRatings.matches, 0), only(rankedRatings.modeId, filter.modeId)))
        : Promise.resolve([]),
      this.db
        .select({ h: ratingHistory, season: rankedSeasons.key })
        .from(ratingHistory)
        .innerJoin(rankedSeasons, eq(rankedSeasons.id, ratingHistory.seasonId))
        .where(and(eq(ratingHistory.userId, userId), only(ratingHistory.modeId, filter.modeId), only(ratingHistory.seasonId, seasonFilter)))
        .orderBy(desc(ratingHistory.createdAt), desc(ratingHistory.id))
        .limit(HISTORY_POINTS),
      this.db.select().from(rankedMatches).where(finished).orderBy(desc(rankedMatches.endedAt), desc(rankedMatches.id)).limit(window.limit).offset(window.offset),
      this.db
        .select({
          matches: count(),
          wins: sql<number>`count(*) filter (where ${won})::int`,
          draws: sql<number>`count(*) filter (where ${rankedMatches.result} = 'DRAW')::int`,
          kills: mine(rankedMatches.killsA, rankedMatches.killsB),
          deaths: mine(rankedMatches.killsB, rankedMatches.killsA),
        })
        .from(rankedMatches)
        .where(finished),
    ]);
    const total = { matches: Number(totals?.matches ?? 0), wins: Number(totals?.wins ?? 0), draws: Number(totals?.draws ?? 0), kills: Number(totals?.kills ?? 0), deaths: Number(totals?.deaths ?? 0) };
    return {
      player: { id: player.id, name: player.name, mcName: player.mcName },
      ratings: ratings.map((r) => ratingView(r, season!.key)),
      points: points.reverse().map(({ h, season: key }) => ({
        matchId: h.matchId,
        modeId: h.modeId,
        season: key,
        at: h.createdAt.toISOString(),
        ratingBefore: Math.round(h.ratingBefore),
        ratingAfter: Math.round(h.ratingAfter),
      })),
      matches: pageOf(await matchViews(this.db, this.minecraft, matches), total.matches, window),
      totals: { ...total, losses: total.matches - total.wins - total.draws },
    };
  }

  /** The matches not yet over that `userId` plays in: a deleted account's are voided before it is forgotten. */
  async openMatchesOf(userId: string): Promise<string[]> {
    const rows = await this.db
      .select({ id: rankedMatches.id })
      .from(rankedMatches)
      .where(and(playerIn(userId), isLive));
    return rows.map((row) => row.id);
  }

  /**
   * A deleted account leaves the queues and the leaderboards. Its finished matches and the rating
   * history they made stay: they are its opponents' too, and show it under its replaced name.
   */
  async forget(userId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(rankedQueue).where(eq(rankedQueue.userId, userId));
      await tx.delete(rankedRatings).where(eq(rankedRatings.userId, userId));
    });
  }

  /** What an export of a person's data holds of the ladders: their ratings and matches. */
  async personalData(userId: string, executor: Executor = this.db) {
    const [ratings, matches] = await Promise.all([
      executor
        .select({ r: rankedRatings, season: rankedSeasons.key })
        .from(rankedRatings)
        .innerJoin(rankedSeasons, eq(rankedSeasons.id, rankedRatings.seasonId))
        .where(eq(rankedRatings.userId, userId)),
      executor.select().from(rankedMatches).where(playerIn(userId)).orderBy(desc(rankedMatches.createdAt)),
    ]);
    return { ratings: ratings.map(({ r, season }) => ratingView(r, season)), matches: await matchViews(executor, this.minecraft, matches) };
  }
}
