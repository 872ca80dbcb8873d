import { BracketsManager, type Database } from 'brackets-manager';
import { InMemoryDatabase } from 'brackets-memory-db';
import type { TournamentFormat } from '../../../contract/tournaments.ts';

/** brackets-manager's match statuses (brackets-model's `Status`), by number. */
const WAITING = 1;
const READY = 2;
const RUNNING = 3;
const COMPLETED = 4;

/** Points of a round-robin standing: 3 a win, 1 a draw (the viewer's default). */
const roundRobinPoints = (item: { wins: number; draws: number }) => 3 * item.wins + item.draws;

/** A side of a bracket match: brackets-manager's participant id (null: a bye, or not known yet) and what it got. */
interface Side {
  participant: number | null;
  score: number | null;
  result: 'win' | 'loss' | 'draw' | null;
  forfeit: boolean;
}

export interface Match {
  id: number;
  /** The group's number within the stage: 1 winners (or the round robin's group), 2 losers or third place, 3 grand final. */
  group: number;
  round: number;
  number: number;
  status: 'LOCKED' | 'WAITING' | 'READY' | 'RUNNING' | 'COMPLETED';
  sides: [Side, Side];
}

/** What a finished bracket ranks: participant ids by place (1 first). */
export type Standings = Array<{ participant: number; rank: number }>;

type Stored = Database;

/**
 * One tournament's bracket (docs/decisions.md, "Brackets"): brackets-manager on its in-memory
 * storage, loaded from and saved to the tournament row's `bracket` JSON by the caller, inside the
 * transaction that holds that row `FOR UPDATE`. Nothing here reads or writes the database.
 */
export class Bracket {
  private readonly storage = new InMemoryDatabase();
  private readonly manager = new BracketsManager(this.storage);
  private readonly format: TournamentFormat;

  private constructor(format: TournamentFormat) {
    this.format = format;
  }

  static load(format: TournamentFormat, stored: unknown): Bracket {
    const bracket = new Bracket(format);
    bracket.storage.setData(structuredClone(stored as Stored));
    return bracket;
  }

  /**
   * A new bracket seeded in `participants`' order (best rating first): elimination brackets padded
   * with byes to a power of two (brackets-manager's inner-outer seeding puts the best seeds against
   * them), a third-place match when `thirdPlace` and there are four players or more.
   */
  static async create(format: TournamentFormat, participants: string[], options: { thirdPlace: boolean }): Promise<Bracket> {
    const bracket = new Bracket(format);
    const size = 2 ** Math.ceil(Math.log2(Math.max(2, participants.length)));
    const padded = [...participants, ...Array<null>(size - participants.length).fill(null)];
    if (format === 'ROUND_ROBIN') {
      await bracket.manager.create.stage({ tournamentId: 0, name: 'bracket', type: 'round_robin', seeding: participants, settings: { groupCount: 1 } });
    } else if (format === 'DOUBLE_ELIMINATION') {
      await bracket.manager.create.stage({ tournamentId: 0, name: 'bracket', type: 'double_elimination', seeding: padded, settings: { grandFinal: 'simple' } });
    } else {
      await bracket.manager.create.stage({
        tournamentId: 0,
        name: 'bracket',
        type: 'single_elimination',
        seeding: padded,
        settings: { consolationFinal: options.thirdPlace && participants.length >= 4 },
      });
    }
    return bracket;
  }

  /** What to keep on the tournament row. */
  async save(): Promise<Stored> {
    return this.manager.export();
  }

  /** The participants' ids by their names (the entrants' user ids). */
  async participants(): Promise<Map<string, number>> {
    const data = await this.manager.export();
    return new Map(data.participant.map((p) => [p.name, Number(p.id)]));
  }

  async matches(): Promise<Match[]> {
    const data = await this.manager.export();
    const groupNumber = new Map(data.group.map((g) => [g.id, g.number]));
    const roundNumber = new Map(data.round.map((r) => [r.id, r.number]));
    const side = (o: (typeof data.match)[number]['opponent1']): Side => ({
      participant: o?.id === null || o?.id === undefined ? null : Number(o.id),
      score: o?.score ?? null,
      result: o?.result ?? null,
      forfeit: o?.forfeit ?? false,
    });
    return data.match
      .map((m) => ({
        id: Number(m.id),
        group: groupNumber.get(m.group_id) ?? 1,
        round: roundNumber.get(m.round_id) ?? 1,
        number: m.number,
        status:
          m.status >= COMPLETED
            ? ('COMPLETED' as const)
            : m.status === RUNNING
              ? ('RUNNING' as const)
              : m.status === READY
                ? ('READY' as const)
                : m.status === WAITING
                  ? ('WAITING' as const)
                  : ('LOCKED' as const),
        sides: [side(m.opponent1), side(m.opponent2)] as [Side, Side],
      }))
      .sort((a, b) => a.group - b.group || a.round - b.round || a.number - b.number);
  }

  /** The matches both of whose players are known and that have no result yet. */
  async playable(): Promise<Match[]> {
    return (await this.matches()).filter((m) => (m.status === 'READY' || m.status === 'RUNNING') && m.sides[0].participant !== null && m.sides[1].participant !== null);
  }

  /**
   * A match's result: `winner` (a participant id) wins, the other loses (by forfeit when
   * `forfeit`); with `winner` null, a draw (round robin only). Scores are each side's kills.
   */
  async result(matchId: number, outcome: { winner: number | null; forfeit?: boolean; scores?: Record<number, number> }): Promise<void> {
    const [match] = (await this.matches()).filter((m) => m.id === matchId);
    if (!match) throw new Error(`no bracket match ${matchId}`);
    const score = (side: Side) => (side.participant !== null ? outcome.scores?.[side.participant] : undefined);
    const sideOf = (side: Side) => {
      if (outcome.winner === null) return { score: score(side), result: 'draw' as const };
      if (side.participant === outcome.winner) return { score: score(side), result: 'win' as const };
      return outcome.forfeit ? { forfeit: true } : { score: score(side), result: 'loss' as const };
    };
    await this.manager.update.match({ id: matchId, opponent1: sideOf(match.sides[0]), opponent2: sideOf(match.sides[1]) });
  }

  /** Whether every match that can be played has been: nothing is waiting, ready or running. */
  async over(): Promise<boolean> {
    return (await this.matches()).every((m) => m.status === 'COMPLETED' || m.status === 'LOCKED');
  }

  /** The final places, once over. */
  async standings(): Promise<Standings> {
    const rows = this.format === 'ROUND_ROBIN' ? await this.manager.get.finalStandings(0, { rankingFormula: roundRobinPoints }) : await this.manager.get.finalStandings(0);
    return rows.map((r, i) => ({ participant: Number(r.id), rank: this.format === 'ROUND_ROBIN' ? i + 1 : r.rank }));
  }

  /** Where a match sits, for the page: a group number turned into its part of the bracket. */
  part(match: Match): 'WINNERS' | 'LOSERS' | 'FINAL' | 'THIRD_PLACE' | 'GROUP' {
    if (this.format === 'ROUND_ROBIN') return 'GROUP';
    if (this.format === 'SINGLE_ELIMINATION') return match.group === 2 ? 'THIRD_PLACE' : 'WINNERS';
    return match.group === 1 ? 'WINNERS' : match.group === 2 ? 'LOSERS' : 'FINAL';
  }
}
