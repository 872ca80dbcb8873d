import { Type, type Static } from 'typebox';
import { DateTime, Id, Localized, Nullable, Page, PageQuery, literals } from './common.ts';

// Tournaments (docs/architecture.md, "Competitions", tournaments): brackets of ranked matches.

export const tournamentFormats = ['SINGLE_ELIMINATION', 'DOUBLE_ELIMINATION', 'ROUND_ROBIN'] as const;
export type TournamentFormat = (typeof tournamentFormats)[number];
/** SCHEDULED until its start (registration, check-in), LIVE while its bracket is played, then FINISHED or CANCELLED. */
export const tournamentStatuses = ['SCHEDULED', 'LIVE', 'FINISHED', 'CANCELLED'] as const;
/** REGISTERED, then CHECKED_IN during the check-in window; WITHDRAWN by the player (fee refunded), MISSED when not checked in at the start (fee refunded). */
export const entrantStatuses = ['REGISTERED', 'CHECKED_IN', 'WITHDRAWN', 'MISSED'] as const;
export type EntrantStatus = (typeof entrantStatuses)[number];
/** A bracket match as the page shows it: not yet playable, playable (its match server on its way or running), or played. */
const bracketMatchStatuses = ['LOCKED', 'WAITING', 'READY', 'RUNNING', 'COMPLETED'] as const;
/** Which part of the bracket a match is in. */
const bracketParts = ['WINNERS', 'LOSERS', 'FINAL', 'THIRD_PLACE', 'GROUP'] as const;

/** What the three lists of /ranked show: not started yet, being played, over (finished or cancelled). */
const tournamentWhen = ['upcoming', 'live', 'past'] as const;

const Slug = Type.String({ pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', minLength: 3, maxLength: 80, description: 'The address of its page, `/ranked/{slug}`' });

const tournamentFields = {
  slug: Slug,
  name: Localized(120),
  rules: Localized(5000),
  modeId: Id,
  format: literals(tournamentFormats),
  maxEntrants: Type.Integer({ minimum: 2, maximum: 256 }),
  registrationOpensAt: DateTime,
  registrationClosesAt: DateTime,
  checkInOpensAt: DateTime,
  checkInClosesAt: DateTime,
  startsAt: DateTime,
  /** Credits charged at registration (refunded on withdrawal); 0 for a free tournament. */
  entryFee: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  /** Credits paid to the 1st, 2nd and 3rd when the bracket ends (0: none). */
  prizeFirst: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  prizeSecond: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  prizeThird: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
};

export const tournamentCreate = Type.Object(tournamentFields, { additionalProperties: false });
export type TournamentCreate = Static<typeof tournamentCreate>;
export const tournamentUpdate = Type.Partial(Type.Object(tournamentFields), { additionalProperties: false });
export type TournamentUpdate = Static<typeof tournamentUpdate>;

export const tournamentCancel = Type.Object({ reason: Type.String({ minLength: 3, maxLength: 500 }) }, { additionalProperties: false });
export const matchOverride = Type.Object({ winnerId: Id, reason: Type.String({ minLength: 3, maxLength: 500 }) }, { additionalProperties: false });

const TournamentPlayer = Type.Object({ id: Id, name: Type.String(), mcName: Nullable(Type.String()) });

export const TournamentSummary = Type.Object({
  id: Id,
  ...tournamentFields,
  modeName: Localized(80),
  status: literals(tournamentStatuses),
  /** Entrants registered or checked in. */
  entrants: Type.Integer(),
  winner: Nullable(TournamentPlayer),
  startedAt: Nullable(DateTime),
  endedAt: Nullable(DateTime),
  /** Why staff cancelled it; null otherwise. */
  cancelReason: Nullable(Type.String()),
});
export type TournamentSummary = Static<typeof TournamentSummary>;

export const TournamentList = Page(TournamentSummary);
export type TournamentList = Page<TournamentSummary>;
export const TournamentListQuery = Type.Object({ ...PageQuery.properties, when: Type.Optional(literals(tournamentWhen)) }, { additionalProperties: false });

export const Entrant = Type.Object({
  player: TournamentPlayer,
  status: literals(entrantStatuses),
  /** Its place in the seeding (1 the best rating), from the start. */
  seed: Nullable(Type.Integer()),
  /** Its final place, once the tournament is over. */
  placement: Nullable(Type.Integer()),
  registeredAt: DateTime,
  checkedInAt: Nullable(DateTime),
});
export type Entrant = Static<typeof Entrant>;

const BracketSide = Type.Object({
  player: Nullable(TournamentPlayer),
  seed: Nullable(Type.Integer()),
  score: Nullable(Type.Integer()),
  result: Nullable(literals(['win', 'loss', 'draw'] as const)),
  forfeit: Type.Boolean(),
});

export const BracketMatch = Type.Object({
  id: Type.Integer({ description: 'The match in the bracket' }),
  part: literals(bracketParts),
  round: Type.Integer({ minimum: 1 }),
  number: Type.Integer({ minimum: 1 }),
  status: literals(bracketMatchStatuses),
  /** The two sides; a side without a player is a bye (or not known yet, LOCKED). */
  sides: Type.Array(BracketSide, { minItems: 2, maxItems: 2 }),
  winnerId: Nullable(Id),
  /** Why staff set its result; null otherwise. */
  overrideReason: Nullable(Type.String()),
});
export type BracketMatch = Static<typeof BracketMatch>;

export const Tournament = Type.Object({
  ...TournamentSummary.properties,
  entrantList: Type.Array(Entrant),
  /** The bracket's matches, from the start; empty before. */
  bracket: Type.Array(BracketMatch),
  /**
   * The first three places, once over, each with its prize: `prizePaid` when the credits went into
   * the player's account; a prize not paid (`prizePaid` false, `prize` above 0) was its player's
   * whose account was deleted before the payment.
   */
  results: Type.Array(Type.Object({ place: Type.Integer({ minimum: 1, maximum: 3 }), player: TournamentPlayer, prize: Type.Integer(), prizePaid: Type.Boolean() })),
  /** The caller's entry (with a token); null otherwise. */
  mine: Nullable(Entrant),
});
export type Tournament = Static<typeof Tournament>;

export const SlugParams = Type.Object({ slug: Slug }, { additionalProperties: false });
export const OverrideParams = Type.Object({ id: Id, matchId: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });

/** The `data` of a `tournament-change` event on a tournament's public stream: something of it changed, read it again. */
export const TOURNAMENT_CHANGE_EVENT = 'tournament-change';
export interface TournamentChange {
  id: string;
}
