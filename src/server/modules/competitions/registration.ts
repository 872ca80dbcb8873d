import { and, count, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { tournamentEntrants, tournaments } from '../../db/schema/competitions.ts';
import { conflict, notFound } from '../../lib/problems.ts';
import type { Entrant, EntrantStatus } from '../../../contract/tournaments.ts';
import type { MinecraftService } from '../minecraft/service.ts';
import { entrantView } from './tournament-views.ts';
import { lockTournament, tournamentChanged, tournamentLink, type PlayDeps, type TournamentRow } from './tournament-play.ts';

const active = ['REGISTERED', 'CHECKED_IN'] as const satisfies readonly EntrantStatus[];

/**
 * Gives back the fees of the tournament's entrants in `from`, each one once: the entrant leaves
 * `from` for `to` by a conditional update, and only the rows it moved get their ledger line, in the
 * same transaction. A deleted account's entry (its erasure not run yet) moves unpaid and untold:
 * its credits went with it. Answers how many entries it moved, and the users to tell (the others).
 */
export async function refundEntrants(
  tx: Tx,
  deps: Pick<PlayDeps, 'credits' | 'clock' | 'users'>,
  tournament: TournamentRow,
  from: readonly EntrantStatus[],
  to: 'WITHDRAWN' | 'MISSED',
  userId?: string,
): Promise<{ moved: number; told: string[] }> {
  const moved = await tx
    .update(tournamentEntrants)
    .set({ status: to, withdrawnAt: deps.clock() })
    .where(and(eq(tournamentEntrants.tournamentId, tournament.id), inArray(tournamentEntrants.status, [...from]), userId ? eq(tournamentEntrants.userId, userId) : undefined))
    .returning();
  const living = await deps.users.living(
    tx,
    moved.map((e) => e.userId),
  );
  for (const e of moved) {
    if (e.feePaid <= 0 || !living.has(e.userId)) continue;
    await deps.credits.apply(tx, {
      userId: e.userId,
      amount: e.feePaid,
      kind: 'TOURNAMENT_REFUND',
      reason: { key: 'tournamentRefund', params: { name: tournament.name } },
      refType: 'tournament',
      refId: tournament.id,
    });
  }
  return { moved: moved.length, told: moved.filter((e) => living.has(e.userId)).map((e) => e.userId) };
}

/**
 * A player's entry (docs/architecture.md, "Competitions", tournaments): each call holds the
 * tournament's row `FOR UPDATE`, so the count of entrants and the windows are read once per
 * writer; the fee is a ledger line in the same transaction. The calls take an Idempotency-Key (the
 * app's plugin), and calling twice without one is refused (registration) or answers the same
 * (check-in).
 */
export class Registration {
  private readonly db: Db;
  private readonly deps: PlayDeps & { minecraft: MinecraftService };

  constructor(db: Db, deps: PlayDeps & { minecraft: MinecraftService }) {
    this.db = db;
    this.deps = deps;
  }

  private async tournamentId(slug: string): Promise<string> {
    const [row] = await this.db.select({ id: tournaments.id }).from(tournaments).where(eq(tournaments.slug, slug));
    if (!row) throw notFound('tournament');
    return row.id;
  }

  /** Registers the player: a linked Minecraft account, the window open, a place left, the fee paid (402 without it). */
  async register(userId: string, slug: string): Promise<Entrant> {
    const id = await this.tournamentId(slug);
    const players = await this.deps.minecraft.players([userId]);
    const mcName = players.get(userId)?.mcName;
    if (!mcName) throw conflict('ranked.notLinked');
    const row = await this.db.transaction(async (tx) => {
      const t = (await lockTournament(tx, id))!;
      const now = this.deps.clock();
      if (t.status !== 'SCHEDULED' || now < t.registrationOpensAt || now >= t.registrationClosesAt) throw conflict('tournaments.registrationClosed');
      const [mine] = await tx
        .select()
        .from(tournamentEntrants)
        .where(and(eq(tournamentEntrants.tournamentId, id), eq(tournamentEntrants.userId, userId)));
      if (mine && (active as readonly string[]).includes(mine.status)) throw conflict('tournaments.alreadyRegistered');
      const [taken] = await tx
        .select({ n: count() })
        .from(tournamentEntrants)
        .where(and(eq(tournamentEntrants.tournamentId, id), inArray(tournamentEntrants.status, [...active])));
      if ((taken?.n ?? 0) >= t.maxEntrants) throw conflict('tournaments.full', { max: t.maxEntrants });
      if (t.entryFee > 0) {
        await this.deps.credits.apply(tx, {
          userId,
          amount: -t.entryFee,
          kind: 'TOURNAMENT_FEE',
          reason: { key: 'tournamentFee', params: { name: t.name } },
          refType: 'tournament',
          refId: t.id,
        });
      }
      const values = { status: 'REGISTERED' as const, mcName, feePaid: t.entryFee, registeredAt: now, checkedInAt: null, withdrawnAt: null };
      const [entry] = mine
        ? await tx
            .update(tournamentEntrants)
            .set({ ...values, registrations: mine.registrations + 1 })
            .where(and(eq(tournamentEntrants.tournamentId, id), eq(tournamentEntrants.userId, userId)))
            .returning()
        : await tx
            .insert(tournamentEntrants)
            .values({ tournamentId: id, userId, ...values })
            .returning();
      await this.deps.notifications.notify(
        userId,
        { key: 'tournament.registered', params: { tournament: t.name, fee: t.entryFee, startsAt: t.startsAt.toISOString() }, link: tournamentLink(t.slug) },
        tx,
      );
      await tournamentChanged(tx, id);
      return entry!;
    });
    return entrantView(row, players);
  }

  /** Withdraws the player before the start, their fee given back once; 404 when not registered. */
  async withdraw(userId: string, slug: string): Promise<void> {
    const id = await this.tournamentId(slug);
    await this.db.transaction(async (tx) => {
      const t = (await lockTournament(tx, id))!;
      if (t.status !== 'SCHEDULED') throw conflict('tournaments.started');
      const { moved } = await refundEntrants(tx, this.deps, t, active, 'WITHDRAWN', userId);
      if (moved === 0) throw notFound('tournamentEntry');
      await tournamentChanged(tx, id);
    });
  }

  /** Checks the player in during the check-in window; checked in already, the same answer. */
  async checkIn(userId: string, slug: string): Promise<Entrant> {
    const id = await this.tournamentId(slug);
    const row = await this.db.transaction(async (tx) => {
      const t = (await lockTournament(tx, id))!;
      const mine = and(eq(tournamentEntrants.tournamentId, id), eq(tournamentEntrants.userId, userId));
      const [entry] = await tx.select().from(tournamentEntrants).where(mine);
      if (!entry || !(active as readonly string[]).includes(entry.status)) throw notFound('tournamentEntry');
      if (entry.status === 'CHECKED_IN') return entry;
      const now = this.deps.clock();
      if (t.status !== 'SCHEDULED' || now < t.checkInOpensAt || now >= t.checkInClosesAt) throw conflict('tournaments.checkInClosed');
      const [checked] = await tx.update(tournamentEntrants).set({ status: 'CHECKED_IN', checkedInAt: now }).where(mine).returning();
      await tournamentChanged(tx, id);
      return checked!;
    });
    return entrantView(row, await this.deps.minecraft.players([userId]));
  }
}
