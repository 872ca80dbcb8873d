import type { Player } from '../../../contract/social.ts';
import type { BracketMatch, Entrant, Tournament, TournamentSummary } from '../../../contract/tournaments.ts';
import { Bracket } from './brackets.ts';
import type { EntrantRow, TournamentRow } from './tournament-play.ts';

type Players = Map<string, Player>;

/** A place's prize as it was paid (its `tournament_payouts` row). */
export interface Payout {
  place: number;
  userId: string;
  amount: number;
}

const playerOf = (id: string, players: Players) => {
  const p = players.get(id);
  return { id, name: p?.name ?? '', mcName: p?.mcName ?? null };
};

export function summaryView(row: TournamentRow, modeName: { fr: string; en: string }, entrants: number, players: Players): TournamentSummary {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    rules: row.rules,
    modeId: row.modeId,
    modeName,
    format: row.format,
    maxEntrants: row.maxEntrants,
    registrationOpensAt: row.registrationOpensAt.toISOString(),
    registrationClosesAt: row.registrationClosesAt.toISOString(),
    checkInOpensAt: row.checkInOpensAt.toISOString(),
    checkInClosesAt: row.checkInClosesAt.toISOString(),
    startsAt: row.startsAt.toISOString(),
    entryFee: row.entryFee,
    prizeFirst: row.prizeFirst,
    prizeSecond: row.prizeSecond,
    prizeThird: row.prizeThird,
    status: row.status,
    entrants,
    winner: row.winnerId ? playerOf(row.winnerId, players) : null,
    startedAt: row.startedAt?.toISOString() ?? null,
    endedAt: row.endedAt?.toISOString() ?? null,
    cancelReason: row.cancelReason,
  };
}

export const entrantView = (row: EntrantRow, players: Players): Entrant => ({
  player: playerOf(row.userId, players),
  status: row.status,
  seed: row.seed,
  placement: row.placement,
  registeredAt: row.registeredAt.toISOString(),
  checkedInAt: row.checkedInAt?.toISOString() ?? null,
});

/** The bracket as the page draws it: each match's sides by entrant, with their seeds, scores and results. */
async function bracketView(row: TournamentRow, entrants: EntrantRow[], players: Players, running: Set<number>): Promise<BracketMatch[]> {
  if (!row.bracket) return [];
  const bracket = Bracket.load(row.format, row.bracket);
  const byParticipant = new Map(entrants.filter((e) => e.participantId !== null).map((e) => [e.participantId!, e]));
  return (await bracket.matches()).map((m) => {
    const sides = m.sides.map((s) => {
      const entrant = s.participant !== null ? byParticipant.get(s.participant) : undefined;
      return { player: entrant ? playerOf(entrant.userId, players) : null, seed: entrant?.seed ?? null, score: s.score, result: s.result, forfeit: s.forfeit };
    });
    const winner = sides.find((s) => s.result === 'win')?.player?.id ?? null;
    const status = m.status === 'READY' && running.has(m.id) ? 'RUNNING' : m.status;
    return { id: m.id, part: bracket.part(m), round: m.round, number: m.number, status, sides, winnerId: winner, overrideReason: row.overrides[String(m.id)] ?? null };
  });
}

export async function tournamentView(
  row: TournamentRow,
  modeName: { fr: string; en: string },
  entrants: EntrantRow[],
  players: Players,
  options: { running: Set<number>; me: string | null; payouts: Payout[] },
): Promise<Tournament> {
  const active = entrants.filter((e) => e.status === 'REGISTERED' || e.status === 'CHECKED_IN');
  const shown = entrants.filter((e) => e.status !== 'WITHDRAWN').sort((a, b) => (a.seed ?? 1e9) - (b.seed ?? 1e9) || a.registeredAt.getTime() - b.registeredAt.getTime());
  const prizes = [row.prizeFirst, row.prizeSecond, row.prizeThird];
  const placed = row.status === 'FINISHED' ? entrants.filter((e) => e.placement !== null && e.placement <= 3).sort((a, b) => a.placement! - b.placement!) : [];
  const results: Tournament['results'] = [];
  // A place's payout row says who was paid and how much; a place without one was not paid (no
  // prize, or its player's account deleted before the payment, which is skipped then).
  for (const e of placed) {
    if (results.some((r) => r.place === e.placement)) continue;
    const payout = options.payouts.find((p) => p.place === e.placement);
    results.push(
      payout
        ? { place: payout.place, player: playerOf(payout.userId, players), prize: payout.amount, prizePaid: true }
        : { place: e.placement!, player: playerOf(e.userId, players), prize: prizes[e.placement! - 1] ?? 0, prizePaid: false },
    );
  }
  const mine = options.me ? entrants.find((e) => e.userId === options.me) : undefined;
  return {
    ...summaryView(row, modeName, active.length, players),
    entrantList: shown.map((e) => entrantView(e, players)),
    bracket: await bracketView(row, entrants, players, options.running),
    results,
    mine: mine ? entrantView(mine, players) : null,
  };
}
