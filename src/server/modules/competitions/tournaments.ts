import { and, asc, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rankedMatches, rankedModes, tournamentEntrants, tournamentPayouts, tournaments } from '../../db/schema/competitions.ts';
import { conflict, invalidField, notFound } from '../../lib/problems.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { pageOf, type Window } from '../../lib/paging.ts';
import { liveMatchStatuses } from '../../../contract/competitions.ts';
import type { Page } from '../../../contract/common.ts';
import type { Tournament, TournamentCreate, TournamentSummary, TournamentUpdate } from '../../../contract/tournaments.ts';
import type { AuditService } from '../audit/service.ts';
import type { MinecraftService } from '../minecraft/service.ts';
import type { NotificationsService } from '../notifications/service.ts';
import type { Clock } from '../games/runtime.ts';
import { Bracket } from './brackets.ts';
import { refundEntrants } from './registration.ts';
import { lockTournament, tournamentChanged, tournamentLink, type PlayDeps, type TournamentPlay, type TournamentRow } from './tournament-play.ts';
import { summaryView, tournamentView } from './tournament-views.ts';

const when = {
  upcoming: inArray(tournaments.status, ['SCHEDULED']),
  live: inArray(tournaments.status, ['LIVE']),
  past: inArray(tournaments.status, ['FINISHED', 'CANCELLED']),
} satisfies Record<string, SQL>;

const dates = ['registrationOpensAt', 'registrationClosesAt', 'checkInOpensAt', 'checkInClosesAt', 'startsAt'] as const;

/** The row's values from the API's fields (dates parsed), checked for order: registration and check-in close by the start. */
function rowValues(input: TournamentUpdate, before?: TournamentRow): Partial<TournamentRow> {
  const values: Partial<TournamentRow> = {};
  for (const [key, value] of Object.entries(input)) (values as Record<string, unknown>)[key] = (dates as readonly string[]).includes(key) ? new Date(value as string) : value;
  const at = (key: (typeof dates)[number]) => (values[key] as Date | undefined) ?? before?.[key];
  if (at('registrationClosesAt')! <= at('registrationOpensAt')!) throw invalidField('registrationClosesAt', 'field.afterRegistrationOpens');
  if (at('checkInClosesAt')! <= at('checkInOpensAt')!) throw invalidField('checkInClosesAt', 'field.afterCheckInOpens');
  if (at('registrationClosesAt')! > at('startsAt')!) throw invalidField('registrationClosesAt', 'field.byTheStart');
  if (at('checkInClosesAt')! > at('startsAt')!) throw invalidField('checkInClosesAt', 'field.byTheStart');
  return values;
}

/**
 * Tournaments as staff run them and everyone reads them (docs/architecture.md, "Competitions",
 * tournaments). Staff writes are audit-logged in their transaction; the bracket's play is
 * `TournamentPlay`'s, registration `registration.ts`', the start the rounds'.
 */
export class TournamentsService {
  private readonly db: Db;
  private readonly deps: PlayDeps & { minecraft: MinecraftService; audit: AuditService; notifications: NotificationsService; play: TournamentPlay };
  private readonly clock: Clock;

  constructor(db: Db, deps: PlayDeps & { minecraft: MinecraftService; audit: AuditService; play: TournamentPlay }) {
    this.db = db;
    this.deps = deps;
    this.clock = deps.clock;
  }

  private async mode(modeId: string, field = 'modeId') {
    const [mode] = await this.db.select().from(rankedModes).where(eq(rankedModes.id, modeId));
    if (!mode) throw invalidField(field, 'field.unknownMode');
    return mode;
  }

  async create(actorId: string | null, input: TournamentCreate): Promise<Tournament> {
    await this.mode(input.modeId);
    const values = rowValues(input);
    const now = this.clock();
    try {
      const row = await this.db.transaction(async (tx) => {
        const [made] = await tx
          .insert(tournaments)
          .values({ ...(values as TournamentRow), createdAt: now, updatedAt: now })
          .returning();
        await this.deps.audit.record(tx, { actorId, action: 'tournament.create', entity: 'tournament', entityId: made!.id, after: made });
        return made!;
      });
      return this.byId(row.id);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('tournaments.slugTaken', { slug: input.slug });
      throw err;
    }
  }

  /** Changes a tournament not started yet (409 once it is). */
  async update(actorId: string, id: string, input: TournamentUpdate): Promise<Tournament> {
    if (input.modeId) await this.mode(input.modeId);
    try {
      await this.db.transaction(async (tx) => {
        const before = await lockTournament(tx, id);
        if (!before) throw notFound('tournament');
        if (before.status !== 'SCHEDULED') throw conflict('tournaments.started');
        const [after] = await tx
          .update(tournaments)
          .set({ ...rowValues(input, before), updatedAt: this.clock() })
          .where(eq(tournaments.id, id))
          .returning();
        await this.deps.audit.record(tx, { actorId, action: 'tournament.update', entity: 'tournament', entityId: id, before: { ...before, bracket: null }, after: { ...after, bracket: null } });
        await tournamentChanged(tx, id);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('tournaments.slugTaken', { slug: input.slug ?? '' });
      throw err;
    }
    return this.byId(id);
  }

  /** Cancels a tournament not over: every fee refunded once, its matches not yet over voided, its entrants told. */
  async cancel(actorId: string, id: string, reason: string): Promise<Tournament> {
    await this.db.transaction(async (tx) => {
      const before = await lockTournament(tx, id);
      if (!before) throw notFound('tournament');
      if (before.status !== 'SCHEDULED' && before.status !== 'LIVE') throw conflict('tournaments.over');
      const now = this.clock();
      await tx.update(tournaments).set({ status: 'CANCELLED', cancelReason: reason, endedAt: now, updatedAt: now }).where(eq(tournaments.id, id));
      await tx
        .update(rankedMatches)
        .set({ status: 'VOID', reason: 'tournamentCancelled', endedAt: now })
        .where(and(eq(rankedMatches.tournamentId, id), inArray(rankedMatches.status, [...liveMatchStatuses])));
      const { told } = await refundEntrants(tx, this.deps, before, ['REGISTERED', 'CHECKED_IN'], 'WITHDRAWN');
      for (const userId of told) {
        await this.deps.notifications.notify(userId, { key: 'tournament.cancelled', params: { tournament: before.name, reason }, link: tournamentLink(before.slug) }, tx);
      }
      await this.deps.audit.record(tx, { actorId, action: 'tournament.cancel', entity: 'tournament', entityId: id, reason, before: { ...before, bracket: null }, after: { status: 'CANCELLED' } });
      await tournamentChanged(tx, id);
    });
    return this.byId(id);
  }

  /**
   * Staff decide a bracket match whose two players are known and that has no result yet: its
   * ranked match not yet over, if any, is voided (`overridden`, no rating change) and its server
   * removed; the bracket moves on as after a played match. 409 for a match already decided.
   */
  async override(actorId: string, id: string, matchId: number, input: { winnerId: string; reason: string }): Promise<Tournament> {
    await this.db.transaction(async (tx) => {
      const tournament = await lockTournament(tx, id);
      if (!tournament) throw notFound('tournament');
      if (tournament.status !== 'LIVE' || !tournament.bracket) throw conflict('tournaments.notLive');
      const bracket = Bracket.load(tournament.format, tournament.bracket);
      const match = (await bracket.matches()).find((m) => m.id === matchId);
      if (!match) throw notFound('bracketMatch');
      if (match.status !== 'READY' && match.status !== 'RUNNING') throw conflict('tournaments.matchDecided');
      const entrants = await this.deps.play.entrantsByParticipant(tx, id);
      const winner = [...entrants].find(([participant, e]) => e.userId === input.winnerId && match.sides.some((s) => s.participant === participant));
      if (!winner) throw invalidField('winnerId', 'field.notInMatch');
      const now = this.clock();
      const voided = await tx
        .update(rankedMatches)
        .set({ status: 'VOID', reason: 'overridden', endedAt: now })
        .where(and(eq(rankedMatches.tournamentId, id), eq(rankedMatches.bracketMatchId, matchId), inArray(rankedMatches.status, [...liveMatchStatuses])))
        .returning({ id: rankedMatches.id, playerA: rankedMatches.playerA, playerB: rankedMatches.playerB });
      for (const v of voided) await this.deps.notifications.changed([v.playerA, v.playerB], { resource: 'ranked', ids: [v.id], type: 'updated' }, tx);
      await tx
        .update(tournaments)
        .set({ overrides: { ...tournament.overrides, [String(matchId)]: input.reason } })
        .where(eq(tournaments.id, id));
      const overridden = { ...tournament, overrides: { ...tournament.overrides, [String(matchId)]: input.reason } };
      await this.deps.play.advance(tx, overridden, (b) => b.result(matchId, { winner: winner[0] }));
      await this.deps.audit.record(tx, {
        actorId,
        action: 'tournament.override',
        entity: 'tournament',
        entityId: id,
        reason: input.reason,
        before: { match: matchId, sides: match.sides },
        after: { match: matchId, winnerId: input.winnerId },
      });
    });
    return this.byId(id);
  }

  /** Staff and support's list, newest start first, of any status. */
  async staffList(window: Window): Promise<Page<TournamentSummary>> {
    return this.list(undefined, window, desc(tournaments.startsAt));
  }

  /** The public lists: upcoming and live soonest first, past latest first. */
  async list(which: keyof typeof when | undefined, window: Window, order = which === 'past' ? desc(tournaments.startsAt) : asc(tournaments.startsAt)): Promise<Page<TournamentSummary>> {
    const where = which ? when[which] : undefined;
    const [rows, [total]] = await Promise.all([
      this.db.select().from(tournaments).where(where).orderBy(order, asc(tournaments.id)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(tournaments).where(where),
    ]);
    const ids = rows.map((r) => r.id);
    const [modes, counts] = await Promise.all([
      this.db.select({ id: rankedModes.id, name: rankedModes.name }).from(rankedModes),
      ids.length
        ? this.db
            .select({ id: tournamentEntrants.tournamentId, n: count() })
            .from(tournamentEntrants)
            .where(and(inArray(tournamentEntrants.tournamentId, ids), inArray(tournamentEntrants.status, ['REGISTERED', 'CHECKED_IN'])))
            .groupBy(tournamentEntrants.tournamentId)
        : Promise.resolve([]),
    ]);
    const modeName = new Map(modes.map((m) => [m.id, m.name]));
    const countOf = new Map(counts.map((c) => [c.id, c.n]));
    const players = await this.deps.minecraft.players(rows.flatMap((r) => (r.winnerId ? [r.winnerId] : [])));
    return pageOf(
      rows.map((r) => summaryView(r, modeName.get(r.modeId) ?? { fr: '', en: '' }, countOf.get(r.id) ?? 0, players)),
      total?.n ?? 0,
      window,
    );
  }

  async bySlug(slug: string, me: string | null = null): Promise<Tournament> {
    const [row] = await this.db.select().from(tournaments).where(eq(tournaments.slug, slug));
    if (!row) throw notFound('tournament');
    return this.view(row, me);
  }

  async byId(id: string): Promise<Tournament> {
    const [row] = await this.db.select().from(tournaments).where(eq(tournaments.id, id));
    if (!row) throw notFound('tournament');
    return this.view(row, null);
  }

  /** Whether a tournament has this slug: its page is a page (200) rather than 'Page not found'. */
  async exists(slug: string): Promise<boolean> {
    const [row] = await this.db.select({ id: tournaments.id }).from(tournaments).where(eq(tournaments.slug, slug));
    return row !== undefined;
  }

  /** The tournament's id by its slug (404 when none). */
  async idOf(slug: string): Promise<string> {
    const [row] = await this.db.select({ id: tournaments.id }).from(tournaments).where(eq(tournaments.slug, slug));
    if (!row) throw notFound('tournament');
    return row.id;
  }

  private async view(row: TournamentRow, me: string | null): Promise<Tournament> {
    const [entrants, [mode], open, payouts] = await Promise.all([
      this.db.select().from(tournamentEntrants).where(eq(tournamentEntrants.tournamentId, row.id)),
      this.db.select({ name: rankedModes.name }).from(rankedModes).where(eq(rankedModes.id, row.modeId)),
      this.db
        .select({ bracketMatchId: rankedMatches.bracketMatchId })
        .from(rankedMatches)
        .where(and(eq(rankedMatches.tournamentId, row.id), inArray(rankedMatches.status, [...liveMatchStatuses]))),
      this.db.select({ place: tournamentPayouts.place, userId: tournamentPayouts.userId, amount: tournamentPayouts.amount }).from(tournamentPayouts).where(eq(tournamentPayouts.tournamentId, row.id)),
    ]);
    const players = await this.deps.minecraft.players([...entrants.map((e) => e.userId), ...(row.winnerId ? [row.winnerId] : [])]);
    return tournamentView(row, mode?.name ?? { fr: '', en: '' }, entrants, players, { running: new Set(open.map((o) => o.bracketMatchId!)), me, payouts });
  }

  /**
   * A deleted account's erasure: it leaves each tournament not yet over that it is entered in
   * (TournamentPlay.leave), and its entries forget the Minecraft name they were registered with.
   * The entries stay, as its ranked matches do: the brackets show it under its replaced name.
   * Run again after a failure, what is done is done once.
   */
  async forget(userId: string): Promise<void> {
    const open = await this.db
      .select({ id: tournamentEntrants.tournamentId })
      .from(tournamentEntrants)
      .innerJoin(tournaments, eq(tournaments.id, tournamentEntrants.tournamentId))
      .where(and(eq(tournamentEntrants.userId, userId), inArray(tournamentEntrants.status, ['REGISTERED', 'CHECKED_IN']), inArray(tournaments.status, ['SCHEDULED', 'LIVE'])));
    for (const { id } of open) {
      await this.db.transaction(async (tx) => {
        const t = await lockTournament(tx, id);
        if (t) await this.deps.play.leave(tx, t, userId);
      });
    }
    await this.db.update(tournamentEntrants).set({ mcName: '' }).where(eq(tournamentEntrants.userId, userId));
  }

  /** What an export of a person's data holds of the tournaments: each entry, newest first. */
  async personalData(userId: string) {
    const rows = await this.db
      .select({ e: tournamentEntrants, slug: tournaments.slug, name: tournaments.name, status: tournaments.status })
      .from(tournamentEntrants)
      .innerJoin(tournaments, eq(tournaments.id, tournamentEntrants.tournamentId))
      .where(eq(tournamentEntrants.userId, userId))
      .orderBy(desc(tournamentEntrants.registeredAt));
    return rows.map(({ e, slug, name, status }) => ({
      tournament: { slug, name, status },
      status: e.status,
      mcName: e.mcName,
      feePaid: e.feePaid,
      registrations: e.registrations,
      seed: e.seed,
      placement: e.placement,
      registeredAt: e.registeredAt.toISOString(),
      checkedInAt: e.checkedInAt?.toISOString() ?? null,
      withdrawnAt: e.withdrawnAt?.toISOString() ?? null,
    }));
  }

  /** A transaction helper for the rounds and registration: the row locked, or 404. */
  static async locked(tx: Tx, id: string): Promise<TournamentRow> {
    const row = await lockTournament(tx, id);
    if (!row) throw notFound('tournament');
    return row;
  }
}
