import { and, asc, eq, inArray, isNull, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rankedRatings, tournamentEntrants, tournaments } from '../../db/schema/competitions.ts';
import { RoundLoop } from '../../lib/round-loop.ts';
import { Bracket } from './brackets.ts';
import { NEW_PLAYER } from './ratings.ts';
import { refundEntrants } from './registration.ts';
import { seasonOf } from './seasons.ts';
import { lockTournament, tournamentChanged, tournamentLink, type PlayDeps, type TournamentPlay } from './tournament-play.ts';

/** A round every this long (when loops run). */
const ROUND_MS = 2_000;
/** Tournaments looked at per round and step. */
const ROUND_LIMIT = 20;

/**
 * The tournaments' rounds (docs/architecture.md, "Competitions", tournaments): check-in notices,
 * starts, and the matches of live brackets whose players were busy. Each tournament is taken
 * `FOR UPDATE SKIP LOCKED` in its own transaction: one replica acts on it per round, and what a
 * step writes is conditional on the status it read.
 */
export class TournamentRounds {
  private readonly db: Db;
  private readonly deps: PlayDeps & { play: TournamentPlay; log: { error(obj: object, msg: string): void } };
  private loop: RoundLoop | undefined;

  constructor(db: Db, deps: PlayDeps & { play: TournamentPlay; log: { error(obj: object, msg: string): void } }) {
    this.db = db;
    this.deps = deps;
  }

  start(): void {
    this.loop = new RoundLoop(
      () => this.tick(),
      () => ROUND_MS,
      (err) => this.deps.log.error({ err }, 'tournament round failed'),
    );
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop?.stop();
  }

  /** One round; answers the tournaments started. */
  async tick(): Promise<number> {
    await this.checkInNotices();
    const started = await this.starts();
    await this.livePass();
    return started;
  }

  /** Tells the registered players once that the check-in is open. */
  private async checkInNotices(): Promise<void> {
    const now = this.deps.clock();
    await this.db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(tournaments)
        .where(and(eq(tournaments.status, 'SCHEDULED'), lte(tournaments.checkInOpensAt, now), isNull(tournaments.checkInNoticeAt)))
        .limit(ROUND_LIMIT)
        .for('update', { skipLocked: true });
      for (const t of due) {
        await tx.update(tournaments).set({ checkInNoticeAt: now }).where(eq(tournaments.id, t.id));
        const registered = await tx
          .select({ userId: tournamentEntrants.userId })
          .from(tournamentEntrants)
          .where(and(eq(tournamentEntrants.tournamentId, t.id), eq(tournamentEntrants.status, 'REGISTERED')));
        for (const { userId } of registered) {
          await this.deps.notifications.notify(userId, { key: 'tournament.checkInOpen', params: { tournament: t.name, until: t.checkInClosesAt.toISOString() }, link: tournamentLink(t.slug) }, tx);
        }
      }
    });
  }

  /**
   * Starts the tournaments whose time has come: who did not check in leaves (fee refunded), the
   * checked-in players are seeded by their rating in the mode this season (best first; unrated, a
   * new player's 1500; ties, who registered first), the bracket made and its first matches
   * started. Fewer than two players: cancelled, fees refunded.
   */
  private async starts(): Promise<number> {
    const now = this.deps.clock();
    const due = await this.db
      .select({ id: tournaments.id })
      .from(tournaments)
      .where(and(eq(tournaments.status, 'SCHEDULED'), lte(tournaments.startsAt, now)))
      .orderBy(asc(tournaments.startsAt))
      .limit(ROUND_LIMIT);
    let started = 0;
    for (const { id } of due) {
      const done = await this.db.transaction(async (tx) => {
        const t = await lockTournament(tx, id, { skipLocked: true });
        if (t?.status !== 'SCHEDULED') return false;
        for (const userId of (await refundEntrants(tx, this.deps, t, ['REGISTERED'], 'MISSED')).told) {
          await this.deps.notifications.notify(userId, { key: 'tournament.missed', params: { tournament: t.name }, link: tournamentLink(t.slug) }, tx);
        }
        const present = await tx
          .select()
          .from(tournamentEntrants)
          .where(and(eq(tournamentEntrants.tournamentId, id), eq(tournamentEntrants.status, 'CHECKED_IN')));
        // A deleted account whose erasure has not run yet leaves now as it would then (withdrawn, the fee kept), unseeded.
        const living = await this.deps.users.living(
          tx,
          present.map((e) => e.userId),
        );
        for (const e of present) if (!living.has(e.userId)) await this.deps.play.leave(tx, t, e.userId);
        const checked = present.filter((e) => living.has(e.userId));
        if (checked.length < 2) {
          await tx.update(tournaments).set({ status: 'CANCELLED', cancelReason: 'notEnoughEntrants', endedAt: now, updatedAt: now }).where(eq(tournaments.id, id));
          for (const userId of (await refundEntrants(tx, this.deps, t, ['CHECKED_IN'], 'WITHDRAWN')).told) {
            await this.deps.notifications.notify(userId, { key: 'tournament.notEnough', params: { tournament: t.name }, link: tournamentLink(t.slug) }, tx);
          }
          await tournamentChanged(tx, id);
          return false;
        }
        const season = await seasonOf(tx, now);
        const ratings = await tx
          .select({ userId: rankedRatings.userId, rating: rankedRatings.rating })
          .from(rankedRatings)
          .where(
            and(
              eq(rankedRatings.modeId, t.modeId),
              eq(rankedRatings.seasonId, season.id),
              inArray(
                rankedRatings.userId,
                checked.map((e) => e.userId),
              ),
            ),
          );
        const ratingOf = new Map(ratings.map((r) => [r.userId, r.rating]));
        const seeded = [...checked].sort(
          (a, b) => (ratingOf.get(b.userId) ?? NEW_PLAYER.rating) - (ratingOf.get(a.userId) ?? NEW_PLAYER.rating) || a.registeredAt.getTime() - b.registeredAt.getTime(),
        );
        const bracket = await Bracket.create(
          t.format,
          seeded.map((e) => e.userId),
          { thirdPlace: t.prizeThird > 0 },
        );
        const participants = await bracket.participants();
        for (const [i, e] of seeded.entries()) {
          await tx
            .update(tournamentEntrants)
            .set({ seed: i + 1, participantId: participants.get(e.userId)! })
            .where(and(eq(tournamentEntrants.tournamentId, id), eq(tournamentEntrants.userId, e.userId)));
        }
        const [live] = await tx
          .update(tournaments)
          .set({ status: 'LIVE', startedAt: now, updatedAt: now, bracket: await bracket.save() })
          .where(eq(tournaments.id, id))
          .returning();
        // Byes were decided by the bracket's making: `advance` starts what is playable, and ends a bracket already over.
        await this.deps.play.advance(tx, live!, async () => {});
        return true;
      });
      if (done) started++;
    }
    return started;
  }

  /** Live brackets: the matches whose players were busy in another match start once they are free. */
  private async livePass(): Promise<void> {
    const live = await this.db.select({ id: tournaments.id }).from(tournaments).where(eq(tournaments.status, 'LIVE')).limit(ROUND_LIMIT);
    for (const { id } of live) {
      await this.db.transaction(async (tx) => {
        const t = await lockTournament(tx, id, { skipLocked: true });
        if (t?.status !== 'LIVE' || !t.bracket) return;
        const bracket = Bracket.load(t.format, t.bracket);
        if ((await this.deps.play.launch(tx, t, bracket, await this.deps.play.entrantsByParticipant(tx, id))) > 0) await tournamentChanged(tx, id);
      });
    }
  }
}
