import { and, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rankedMatches, rankedModes, rankedRatings, rankedSeasons, ratingHistory } from '../../db/schema/competitions.ts';
import { liveMatchStatuses } from '../../../contract/competitions.ts';
import { bothLanguages } from '../../lib/messages.ts';
import type { Clock } from '../games/runtime.ts';
import type { EventBus } from '../../events.ts';
import type { MinecraftService } from '../minecraft/service.ts';
import type { NotificationsService } from '../notifications/service.ts';
import { glicko2 } from './ratings.ts';
import { ratingRow } from './seasons.ts';
import type { MatchEndReason, MatchRow } from './views.ts';

/** How a match ended: its winner (a user id) or a draw, and each player's kills by user id. */
export type MatchOutcome = ({ winner: string } | { draw: true }) & { kills: Record<string, number> };

const LINK = '/dashboard/ranked';

/**
 * The end of a ranked match (docs/architecture.md, "Competitions", exactly once): the match
 * supervision calls these, however many times it reads the same ending. Each ends the match by a
 * conditional update from PENDING or LIVE, in the transaction of everything the ending does (the
 * ratings, their history, the notices): a second call finds nothing to update and does nothing.
 */
export class MatchResults {
  private readonly db: Db;
  private readonly minecraft: MinecraftService;
  private readonly notifications: NotificationsService;
  private readonly events: EventBus;
  private readonly clock: Clock;

  constructor(db: Db, deps: { minecraft: MinecraftService; notifications: NotificationsService; events: EventBus }, options: { clock: Clock }) {
    this.db = db;
    this.minecraft = deps.minecraft;
    this.notifications = deps.notifications;
    this.events = deps.events;
    this.clock = options.clock;
  }

  /** Ends the match with a result and applies Glicko-2 to both players; false when it had ended already. */
  async recordResult(matchId: string, outcome: MatchOutcome): Promise<boolean> {
    const now = this.clock();
    const [before] = await this.db.select().from(rankedMatches).where(eq(rankedMatches.id, matchId));
    if (!before) return false;
    const { playerA, playerB } = before;
    // Read before the transaction: the Minecraft service reads outside it.
    const players = await this.minecraft.players([playerA, playerB]);
    return this.db.transaction(async (tx) => {
      const winner = 'winner' in outcome ? outcome.winner : null;
      if (winner !== null && winner !== playerA && winner !== playerB) throw new Error(`the winner ${winner} is not a player of match ${matchId}`);
      const result = winner === null ? 'DRAW' : winner === playerA ? 'PLAYER_A' : 'PLAYER_B';
      const [match] = await this.end(tx, matchId, { status: 'FINISHED', result, killsA: outcome.kills[playerA] ?? 0, killsB: outcome.kills[playerB] ?? 0, endedAt: now });
      if (!match) return false;
      const [season] = await tx.select().from(rankedSeasons).where(eq(rankedSeasons.id, match.seasonId));
      // Locked in one order whoever is A, so two results at once cannot wait on each other.
      const [first, second] = [playerA, playerB].sort();
      const locked = new Map<string, Awaited<ReturnType<typeof ratingRow>>>();
      for (const id of [first!, second!]) locked.set(id, await ratingRow(tx, id, match.modeId, season!, { lock: true }));
      const a = locked.get(playerA)!;
      const b = locked.get(playerB)!;
      const scoreA = winner === null ? 0.5 : winner === playerA ? 1 : 0;
      const sides = [
        { me: a, other: b, score: scoreA, next: glicko2(a, [{ opponent: b, score: scoreA }]) },
        { me: b, other: a, score: 1 - scoreA, next: glicko2(b, [{ opponent: a, score: 1 - scoreA }]) },
      ];
      const mode = await this.mode(tx, match.modeId);
      for (const { me, other, score, next } of sides) {
        await tx
          .update(rankedRatings)
          .set({
            ...next,
            matches: me.matches + 1,
            wins: me.wins + (score === 1 ? 1 : 0),
            losses: me.losses + (score === 0 ? 1 : 0),
            draws: me.draws + (score === 0.5 ? 1 : 0),
            updatedAt: now,
          })
          .where(and(eq(rankedRatings.userId, me.userId), eq(rankedRatings.modeId, me.modeId), eq(rankedRatings.seasonId, me.seasonId)));
        await tx.insert(ratingHistory).values({
          matchId,
          userId: me.userId,
          modeId: me.modeId,
          seasonId: me.seasonId,
          ratingBefore: me.rating,
          ratingAfter: next.rating,
          rdBefore: me.rd,
          rdAfter: next.rd,
          createdAt: now,
        });
        const opponent = players.get(other.userId);
        const key = score === 1 ? 'ranked.won' : score === 0 ? 'ranked.lost' : 'ranked.drew';
        const [myKills, theirKills] = me.userId === playerA ? [match.killsA, match.killsB] : [match.killsB, match.killsA];
        await this.notifications.notify(
          me.userId,
          {
            key,
            params: { opponent: opponent?.mcName ?? opponent?.name ?? '', mode: mode.name, kills: myKills, opponentKills: theirKills, before: Math.round(me.rating), after: Math.round(next.rating) },
            link: LINK,
          },
          tx,
        );
      }
      await this.notifications.changed([playerA, playerB], { resource: 'ranked', ids: [matchId], type: 'updated' }, tx);
      await this.events.emit('competitions.matchEnded', { tx, matchId, status: 'FINISHED' });
      return true;
    });
  }

  /** Ends the match without a result (its server crashed or never came up): no rating changes, both told why. */
  async voidMatch(matchId: string, reason: MatchEndReason): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [match] = await this.end(tx, matchId, { status: 'VOID', reason, endedAt: this.clock() });
      if (!match) return false;
      const mode = await this.mode(tx, match.modeId);
      for (const userId of [match.playerA, match.playerB]) {
        await this.notifications.notify(userId, { key: 'ranked.voided', params: { mode: mode.name, reason: bothLanguages(`notices.ranked.reasons.${reason}`) }, link: LINK }, tx);
      }
      await this.notifications.changed([match.playerA, match.playerB], { resource: 'ranked', ids: [matchId], type: 'updated' }, tx);
      await this.events.emit('competitions.matchEnded', { tx, matchId, status: 'VOID' });
      return true;
    });
  }

  /** Ends the match as CANCELLED (neither player joined its server): no rating changes, both told. */
  async cancelMatch(matchId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [match] = await this.end(tx, matchId, { status: 'CANCELLED', reason: 'noShow', endedAt: this.clock() });
      if (!match) return false;
      const mode = await this.mode(tx, match.modeId);
      for (const userId of [match.playerA, match.playerB]) await this.notifications.notify(userId, { key: 'ranked.cancelled', params: { mode: mode.name }, link: LINK }, tx);
      await this.notifications.changed([match.playerA, match.playerB], { resource: 'ranked', ids: [matchId], type: 'updated' }, tx);
      await this.events.emit('competitions.matchEnded', { tx, matchId, status: 'CANCELLED' });
      return true;
    });
  }

  /** The one write that ends a match: only from PENDING or LIVE, so only once. */
  private end(tx: Tx, matchId: string, values: Partial<MatchRow>) {
    return tx
      .update(rankedMatches)
      .set(values)
      .where(and(eq(rankedMatches.id, matchId), inArray(rankedMatches.status, [...liveMatchStatuses])))
      .returning();
  }

  private async mode(tx: Tx, modeId: string) {
    const [mode] = await tx.select().from(rankedModes).where(eq(rankedModes.id, modeId));
    return mode!;
  }
}
