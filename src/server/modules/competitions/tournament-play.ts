import { and, count, eq, inArray, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { rankedMatches, rankedModes, rankedQueue, tournamentEntrants, tournamentPayouts, tournaments } from '../../db/schema/competitions.ts';
import { liveMatchStatuses } from '../../../contract/competitions.ts';
import type { Clock } from '../games/runtime.ts';
import type { EventBus } from '../../events.ts';
import type { CreditsService } from '../money/credits/service.ts';
import type { NotificationsService } from '../notifications/service.ts';
import type { UsersService } from '../users/service.ts';
import { Bracket, type Match } from './brackets.ts';
import { seasonOf } from './seasons.ts';

export type TournamentRow = typeof tournaments.$inferSelect;
export type EntrantRow = typeof tournamentEntrants.$inferSelect;

/** The channel on which a tournament's id is sent at each commit that changed it: its page's stream reads it again. */
export const TOURNAMENT_CHANNEL = 'tournament_changes';
/** A bracket match whose match server failed or crashed this many times is decided for the better seed. */
const MAX_REPLAYS = 3;

export const tournamentLink = (slug: string) => `/ranked/${slug}`;

/** The tournament's row, locked for the bracket's read and write (docs/decisions.md, "Brackets"). */
export async function lockTournament(tx: Tx, id: string, options: { skipLocked?: boolean } = {}): Promise<TournamentRow | undefined> {
  const query = tx.select().from(tournaments).where(eq(tournaments.id, id));
  const [row] = await (options.skipLocked ? query.for('update', { skipLocked: true }) : query.for('update'));
  return row;
}

/** Tells the tournament's open pages, on every replica, at commit. */
export async function tournamentChanged(tx: Tx, id: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${TOURNAMENT_CHANNEL}, ${id})`);
}

export interface PlayDeps {
  credits: CreditsService;
  /** Whether an account is deleted: refunds and prizes skip it. */
  users: Pick<UsersService, 'living'>;
  notifications: NotificationsService;
  events: EventBus;
  clock: Clock;
}

/** What to do to the bracket of a match that ended (`Ending`) or that staff decided. */
type Change = (bracket: Bracket, entrants: Map<number, EntrantRow>) => Promise<void>;

/**
 * The play of a tournament's bracket (docs/architecture.md, "Competitions", tournaments): each
 * change is made in a transaction holding the tournament's row, the bracket loaded from it and
 * saved back with what the change set off: the ranked matches of the bracket matches that became
 * playable (their match servers made by `competitions.matched`, as a ladder's), and at the end
 * the places and prizes, each prize a ledger line beside a `tournament_payouts` row whose key
 * (tournament, place) makes it once.
 */
export class TournamentPlay {
  private readonly deps: PlayDeps;

  constructor(deps: PlayDeps) {
    this.deps = deps;
    deps.events.on('competitions.matchEnded', ({ tx, matchId, status }) => this.matchEnded(tx, matchId, status));
  }

  /** Applies `change` to a LIVE tournament's bracket, then starts what became playable and ends it when over. */
  async advance(tx: Tx, tournament: TournamentRow, change: Change): Promise<void> {
    if (tournament.status !== 'LIVE' || !tournament.bracket) return;
    const bracket = Bracket.load(tournament.format, tournament.bracket);
    const entrants = await this.entrantsByParticipant(tx, tournament.id);
    await change(bracket, entrants);
    await this.forfeitWithdrawn(bracket, entrants);
    await this.launch(tx, tournament, bracket, entrants);
    const values: Partial<TournamentRow> = { bracket: await bracket.save(), updatedAt: this.deps.clock() };
    await tx.update(tournaments).set(values).where(eq(tournaments.id, tournament.id));
    if (await bracket.over()) await this.finish(tx, { ...tournament, ...values }, bracket, entrants);
    await tournamentChanged(tx, tournament.id);
  }

  /**
   * The playable matches of a player who left the bracket (their account deleted) are decided as
   * a no-show's: the other side goes on by forfeit (both gone, the better seed). Again until none
   * is left, as a result may make their next match playable (a double elimination's losers'
   * bracket, a round robin).
   */
  private async forfeitWithdrawn(bracket: Bracket, entrants: Map<number, EntrantRow>): Promise<void> {
    const gone = (participant: number | null) => participant !== null && entrants.get(participant)?.status === 'WITHDRAWN';
    for (;;) {
      const match = (await bracket.playable()).find((m) => m.sides.some((s) => gone(s.participant)));
      if (!match) return;
      const [a, b] = [match.sides[0].participant!, match.sides[1].participant!];
      const winner = gone(a) && gone(b) ? betterSeed(match) : gone(a) ? b : a;
      await bracket.result(match.id, { winner, forfeit: true });
    }
  }

  /**
   * A deleted account's entries (its erasure, docs/architecture.md, "Deleting an account"), in the
   * transaction holding `tournament`: before the start its registration is withdrawn, the fee kept
   * (the account's credits are forfeited); after, its current and next bracket matches are
   * forfeited. The entry leaves by a conditional update, so a second run finds nothing to do.
   */
  async leave(tx: Tx, tournament: TournamentRow, userId: string): Promise<boolean> {
    if (tournament.status !== 'SCHEDULED' && tournament.status !== 'LIVE') return false;
    const [left] = await tx
      .update(tournamentEntrants)
      .set({ status: 'WITHDRAWN', withdrawnAt: this.deps.clock() })
      .where(and(eq(tournamentEntrants.tournamentId, tournament.id), eq(tournamentEntrants.userId, userId), inArray(tournamentEntrants.status, ['REGISTERED', 'CHECKED_IN'])))
      .returning();
    if (!left) return false;
    if (tournament.status === 'LIVE') await this.advance(tx, tournament, async () => {});
    else await tournamentChanged(tx, tournament.id);
    return true;
  }

  async entrantsByParticipant(tx: Tx, tournamentId: string): Promise<Map<number, EntrantRow>> {
    const rows = await tx.select().from(tournamentEntrants).where(eq(tournamentEntrants.tournamentId, tournamentId));
    return new Map(rows.filter((r) => r.participantId !== null).map((r) => [r.participantId!, r]));
  }

  /**
   * Makes a ranked match for each playable bracket match that has none open, unless one of its
   * players is in another match not yet over (a round robin's next match waits for them). A match
   * voided by its server is thus played again (replayed) on a new server.
   */
  async launch(tx: Tx, tournament: TournamentRow, bracket: Bracket, entrants: Map<number, EntrantRow>): Promise<number> {
    const playable = await bracket.playable();
    if (playable.length === 0) return 0;
    const ids = [...entrants.values()].map((e) => e.userId);
    const open = await tx
      .select({ bracketMatchId: rankedMatches.bracketMatchId, tournamentId: rankedMatches.tournamentId, playerA: rankedMatches.playerA, playerB: rankedMatches.playerB })
      .from(rankedMatches)
      .where(and(inArray(rankedMatches.status, [...liveMatchStatuses]), or(inArray(rankedMatches.playerA, ids), inArray(rankedMatches.playerB, ids))));
    const started = new Set(open.filter((o) => o.tournamentId === tournament.id).map((o) => o.bracketMatchId));
    const busy = new Set(open.flatMap((o) => [o.playerA, o.playerB]));
    const [mode] = await tx.select().from(rankedModes).where(eq(rankedModes.id, tournament.modeId));
    const now = this.deps.clock();
    const season = await seasonOf(tx, now);
    let made = 0;
    for (const m of playable) {
      const a = entrants.get(m.sides[0].participant!);
      const b = entrants.get(m.sides[1].participant!);
      if (!a || !b || a.status === 'WITHDRAWN' || b.status === 'WITHDRAWN' || started.has(m.id) || busy.has(a.userId) || busy.has(b.userId)) continue;
      busy.add(a.userId).add(b.userId);
      const [match] = await tx
        .insert(rankedMatches)
        .values({ modeId: tournament.modeId, seasonId: season.id, playerA: a.userId, playerB: b.userId, status: 'PENDING', createdAt: now, tournamentId: tournament.id, bracketMatchId: m.id })
        .returning();
      // A player waiting in a ladder's queue leaves it: they have a match to play.
      await tx.delete(rankedQueue).where(inArray(rankedQueue.userId, [a.userId, b.userId]));
      for (const [me, other] of [
        [a, b],
        [b, a],
      ] as const) {
        await this.deps.notifications.notify(
          me.userId,
          { key: 'tournament.nextMatch', params: { tournament: tournament.name, opponent: other.mcName, round: m.round }, link: tournamentLink(tournament.slug) },
          tx,
        );
      }
      await this.deps.notifications.changed([a.userId, b.userId], { resource: 'ranked', ids: [match!.id], type: 'created' }, tx);
      await this.deps.events.emit('competitions.matched', {
        tx,
        matchId: match!.id,
        modeId: tournament.modeId,
        definitionId: mode?.definitionId ?? null,
        players: [a.userId, b.userId],
        names: [a.mcName, b.mcName],
      });
      made++;
    }
    return made;
  }

  /** A ranked match of a tournament ended (in its ending's transaction): its result moves the bracket. */
  private async matchEnded(tx: Tx, matchId: string, status: 'FINISHED' | 'VOID' | 'CANCELLED'): Promise<void> {
    const [match] = await tx.select().from(rankedMatches).where(eq(rankedMatches.id, matchId));
    if (!match?.tournamentId || match.bracketMatchId === null) return;
    const tournament = await lockTournament(tx, match.tournamentId);
    if (!tournament) return;
    const bracketMatchId = match.bracketMatchId;
    await this.advance(tx, tournament, async (bracket, entrants) => {
      const current = (await bracket.playable()).find((m) => m.id === bracketMatchId);
      if (!current) return;
      const participantOf = new Map([...entrants].map(([participant, e]) => [e.userId, participant]));
      const pa = participantOf.get(match.playerA)!;
      const pb = participantOf.get(match.playerB)!;
      const better = betterSeed(current);
      if (status === 'FINISHED') {
        if (match.result === 'DRAW') {
          // A round robin counts a draw; an elimination match is played again.
          if (tournament.format === 'ROUND_ROBIN') await bracket.result(current.id, { winner: null, scores: { [pa]: match.killsA, [pb]: match.killsB } });
          return;
        }
        const winnerIsA = match.result === 'PLAYER_A';
        const loserJoined = winnerIsA ? match.joinedB : match.joinedA;
        await bracket.result(current.id, { winner: winnerIsA ? pa : pb, forfeit: !loserJoined, scores: { [pa]: match.killsA, [pb]: match.killsB } });
      } else if (status === 'CANCELLED') {
        // Neither player joined: the better seed goes on, the other forfeits.
        await bracket.result(current.id, { winner: better, forfeit: true });
      } else {
        const [voids] = await tx
          .select({ n: count() })
          .from(rankedMatches)
          .where(and(eq(rankedMatches.tournamentId, tournament.id), eq(rankedMatches.bracketMatchId, current.id), eq(rankedMatches.status, 'VOID')));
        if ((voids?.n ?? 0) >= MAX_REPLAYS) await bracket.result(current.id, { winner: better, forfeit: true });
        // Otherwise nothing: `launch` makes the match again, on a new server.
      }
    });
  }

  /** The places from the bracket's standings, the prizes paid once, the tournament FINISHED with its winner. */
  private async finish(tx: Tx, tournament: TournamentRow, bracket: Bracket, entrants: Map<number, EntrantRow>): Promise<void> {
    const now = this.deps.clock();
    const [ended] = await tx
      .update(tournaments)
      .set({ status: 'FINISHED', endedAt: now })
      .where(and(eq(tournaments.id, tournament.id), eq(tournaments.status, 'LIVE')))
      .returning();
    if (!ended) return;
    const standings = await bracket.standings();
    const prizes = [tournament.prizeFirst, tournament.prizeSecond, tournament.prizeThird];
    const paid = new Set<number>();
    for (const { participant, rank } of standings) {
      const entrant = entrants.get(participant);
      if (!entrant) continue;
      await tx
        .update(tournamentEntrants)
        .set({ placement: rank })
        .where(and(eq(tournamentEntrants.tournamentId, tournament.id), eq(tournamentEntrants.userId, entrant.userId)));
      if (rank === 1) await tx.update(tournaments).set({ winnerId: entrant.userId }).where(eq(tournaments.id, tournament.id));
      const prize = prizes[rank - 1] ?? 0;
      // One prize per place: two tied for third (an elimination without a third-place match), the first listed.
      if (prize > 0 && !paid.has(rank)) {
        paid.add(rank);
        await this.pay(tx, tournament, entrant.userId, rank, prize, now);
      }
    }
  }

  /**
   * A place's prize: its payout row first (its key refuses a second), then the ledger line, in one
   * transaction. A deleted account (its erasure not run yet) keeps its place, unpaid.
   */
  private async pay(tx: Tx, tournament: TournamentRow, userId: string, place: number, amount: number, now: Date): Promise<void> {
    if (!(await this.deps.users.living(tx, [userId])).has(userId)) return;
    const [claimed] = await tx.insert(tournamentPayouts).values({ tournamentId: tournament.id, place, userId, amount, paidAt: now }).onConflictDoNothing().returning();
    if (!claimed) return;
    const { entryId } = await this.deps.credits.apply(tx, {
      userId,
      amount,
      kind: 'TOURNAMENT_PRIZE',
      reason: { key: 'tournamentPrize', params: { name: tournament.name, place } },
      refType: 'tournament',
      refId: tournament.id,
    });
    await tx
      .update(tournamentPayouts)
      .set({ ledgerEntryId: entryId })
      .where(and(eq(tournamentPayouts.tournamentId, tournament.id), eq(tournamentPayouts.place, place)));
    await this.deps.notifications.notify(userId, { key: 'tournament.prizePaid', params: { tournament: tournament.name, place, credits: amount }, link: tournamentLink(tournament.slug) }, tx);
  }
}

/** The side with the better seed (brackets-manager numbers participants in seeding order, best first). */
function betterSeed(match: Match): number {
  const [a, b] = [match.sides[0].participant!, match.sides[1].participant!];
  return Math.min(a, b);
}
