import { Type, type Static } from 'typebox';
import { DateTime, Id, Localized, Nullable, Page, PageQuery, literals } from './common.ts';

// Ranked ladders (docs/architecture.md, "Competitions"): modes, the queue, matches and ratings.

export const matchStatuses = ['PENDING', 'LIVE', 'FINISHED', 'VOID', 'CANCELLED'] as const;
export type MatchStatus = (typeof matchStatuses)[number];
/** The statuses of a match still to be played: its players may not queue meanwhile. */
export const liveMatchStatuses = ['PENDING', 'LIVE'] as const satisfies readonly MatchStatus[];
export const matchResults = ['PLAYER_A', 'PLAYER_B', 'DRAW'] as const;

/**
 * A rating is shown as provisional while its deviation is above this: a new player's (350) needs
 * about eight matches against settled players to come under it.
 */
export const PROVISIONAL_RD = 150;
/** The leaderboard shows this many players of a season at most. */
export const LEADERBOARD_SIZE = 100;

export const RankedSeason = Type.Object({ key: Type.String({ description: 'The month, `2026-11`' }), startsAt: DateTime, endsAt: DateTime });
export type RankedSeason = Static<typeof RankedSeason>;

const RankedMode = Type.Object({
  id: Id,
  slug: Type.String(),
  name: Localized(80),
  killsToWin: Type.Integer(),
  timeLimitSeconds: Type.Integer(),
  /** The catalogue's game definition its match servers start from; null until one is set. */
  definitionId: Nullable(Id),
  /** Players waiting in its queue now. */
  waiting: Type.Integer(),
});

export const RankedModeList = Type.Object({ data: Type.Array(RankedMode), season: RankedSeason });
export type RankedModeList = Static<typeof RankedModeList>;

/** A platform user as the ladders show them: their name and linked Minecraft name. */
const RankedPlayer = Type.Object({ id: Id, name: Type.String(), mcName: Nullable(Type.String()) });

const ratingFields = {
  rating: Type.Integer({ description: 'Glicko-2 rating, rounded' }),
  rd: Type.Integer({ description: 'Rating deviation, rounded' }),
  /** True while `rd` is above PROVISIONAL_RD. */
  provisional: Type.Boolean(),
  matches: Type.Integer(),
  wins: Type.Integer(),
  losses: Type.Integer(),
  draws: Type.Integer(),
};

export const LeaderboardEntry = Type.Object({ rank: Type.Integer({ minimum: 1 }), player: RankedPlayer, ...ratingFields });
export type LeaderboardEntry = Static<typeof LeaderboardEntry>;

export const Leaderboard = Type.Intersect([
  Page(LeaderboardEntry),
  Type.Object({
    season: RankedSeason,
    /** The caller's own line, wherever they stand (with a token, once they are rated this season); null otherwise. */
    mine: Nullable(LeaderboardEntry),
  }),
]);
export interface Leaderboard extends Page<LeaderboardEntry> {
  season: RankedSeason;
  mine: LeaderboardEntry | null;
}

export const ModeParams = Type.Object({ id: Id }, { additionalProperties: false });

export const RankedRating = Type.Object({ modeId: Id, season: Type.String(), ...ratingFields });
export type RankedRating = Static<typeof RankedRating>;

const MatchPlayer = Type.Object({
  ...RankedPlayer.properties,
  kills: Type.Integer(),
  /** The rating before and after this match's result; null until it has one. */
  ratingBefore: Nullable(Type.Integer()),
  ratingAfter: Nullable(Type.Integer()),
});

/** How long the players have to join a match server once it runs, or forfeit. */
export const MATCH_JOIN_SECONDS = 120;

export const RankedMatch = Type.Object({
  id: Id,
  modeId: Id,
  modeName: Localized(80),
  season: Type.String(),
  status: literals(matchStatuses),
  result: Nullable(literals(matchResults)),
  /** The winner's user id; null for a draw or a match without a result. */
  winnerId: Nullable(Id),
  players: Type.Array(MatchPlayer, { minItems: 2, maxItems: 2 }),
  killsToWin: Type.Integer(),
  timeLimitSeconds: Type.Integer(),
  /** Why it was voided or cancelled, in both languages; null otherwise. */
  reason: Nullable(Localized(300)),
  /** Where the players join the match server, while the match is LIVE; null otherwise. */
  address: Nullable(Type.String()),
  /** Until when the players may join before forfeiting, while the match is LIVE; null otherwise. */
  joinBy: Nullable(DateTime),
  createdAt: DateTime,
  startedAt: Nullable(DateTime),
  endedAt: Nullable(DateTime),
});
export type RankedMatch = Static<typeof RankedMatch>;

export const QueueEntry = Type.Object({ modeId: Id, joinedAt: DateTime, rating: Type.Integer() });
export type QueueEntry = Static<typeof QueueEntry>;

export const queueJoin = Type.Object({ modeId: Id }, { additionalProperties: false });

export const RankedMe = Type.Object({
  /** Whether a Minecraft account is linked: none, no queue. */
  linked: Type.Boolean(),
  queue: Nullable(QueueEntry),
  /** The match being played or about to be (PENDING or LIVE). */
  match: Nullable(RankedMatch),
  /** The caller's ratings of the current season, one per mode they are rated in. */
  ratings: Type.Array(RankedRating),
});
export type RankedMe = Static<typeof RankedMe>;

export const HistoryParams = Type.Object({ userId: Id }, { additionalProperties: false });
export const HistoryQuery = Type.Object(
  {
    ...PageQuery.properties,
    modeId: Type.Optional(Id),
    season: Type.Optional(
      Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'One season, `2026-11`: its ratings, rating changes, matches and totals; every season when unset (ratings: the current one)' }),
    ),
  },
  { additionalProperties: false },
);

const RatingPoint = Type.Object({ matchId: Id, modeId: Id, season: Type.String(), at: DateTime, ratingBefore: Type.Integer(), ratingAfter: Type.Integer() });

export const PlayerHistory = Type.Object({
  player: RankedPlayer,
  /** The current season's ratings, one per mode. */
  ratings: Type.Array(RankedRating),
  /** The last rating changes, oldest first (at most 200): the chart. */
  points: Type.Array(RatingPoint),
  /** Finished matches, newest first. */
  matches: Page(RankedMatch),
  /** Over every finished match of the mode and season asked (all when unset): the record, kills made and kills taken. */
  totals: Type.Object({ matches: Type.Integer(), wins: Type.Integer(), losses: Type.Integer(), draws: Type.Integer(), kills: Type.Integer(), deaths: Type.Integer() }),
});
export type PlayerHistory = Static<typeof PlayerHistory>;
