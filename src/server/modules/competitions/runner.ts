import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rankedMatches, rankedModes, rankedQueue } from '../../db/schema/competitions.ts';
import { RoundLoop } from '../../lib/round-loop.ts';
import type { BlocklistService } from '../blocklist/service.ts';
import type { EventBus } from '../../events.ts';
import type { Clock } from '../games/runtime.ts';
import type { MinecraftService } from '../minecraft/service.ts';
import type { NotificationsService } from '../notifications/service.ts';
import { seasonOf } from './seasons.ts';

/** A matchmaking round every this long (when loops run). */
const ROUND_MS = 2_000;
/** The rating gap a player accepts as soon as they queue… */
const WINDOW_START = 100;
/** …widened by this much per second waited… */
const WINDOW_PER_SECOND = 5;
/** …up to this (after three minutes), so nobody waits forever for a close opponent. */
const WINDOW_MAX = 1_000;
/** Queued players of a mode read per round. */
const ROUND_LIMIT = 500;

interface Waiting {
  userId: string;
  rating: number;
  joinedAt: Date;
}

/** The rating gap a player who joined at `joinedAt` accepts at `now`. */
const windowAt = (joinedAt: Date, now: Date) => Math.min(WINDOW_MAX, WINDOW_START + (WINDOW_PER_SECOND * Math.max(0, now.getTime() - joinedAt.getTime())) / 1000);

/**
 * The pairs to make among the waiting players of one mode: the closest ratings first (ties: who
 * waited longest), a pair only when its gap is within the window of the one of the two who waited
 * longer (so a long wait is not held back by a newcomer's narrow window), never two players who
 * blocked each other (`blocked` holds `a|b` both ways), never a player with themselves. The
 * earlier to queue is the pair's first.
 */
function pairUp(waiting: readonly Waiting[], now: Date, blocked: ReadonlySet<string>): Array<[Waiting, Waiting]> {
  const candidates: Array<{ a: Waiting; b: Waiting; gap: number; since: number }> = [];
  for (let i = 0; i < waiting.length; i++) {
    for (let j = i + 1; j < waiting.length; j++) {
      const [a, b] = [waiting[i]!, waiting[j]!].sort((x, y) => x.joinedAt.getTime() - y.joinedAt.getTime()) as [Waiting, Waiting];
      if (a.userId === b.userId || blocked.has(`${a.userId}|${b.userId}`)) continue;
      const gap = Math.abs(a.rating - b.rating);
      if (gap <= windowAt(a.joinedAt, now)) candidates.push({ a, b, gap, since: a.joinedAt.getTime() });
    }
  }
  candidates.sort((x, y) => x.gap - y.gap || x.since - y.since);
  const taken = new Set<string>();
  const pairs: Array<[Waiting, Waiting]> = [];
  for (const { a, b } of candidates) {
    if (taken.has(a.userId) || taken.has(b.userId)) continue;
    taken.add(a.userId).add(b.userId);
    pairs.push([a, b]);
  }
  return pairs;
}

/**
 * The ladders' matchmaking (docs/architecture.md, "Competitions"): a round takes each mode's
 * queue under `FOR UPDATE SKIP LOCKED`, so replicas never pair the same player twice, and in the
 * same transaction deletes each pair's queue rows and makes their PENDING match, then tells both.
 */
export class MatchmakingRunner {
  private readonly db: Db;
  private readonly blocklist: BlocklistService;
  private readonly minecraft: MinecraftService;
  private readonly notifications: NotificationsService;
  private readonly events: EventBus;
  private readonly clock: Clock;
  private readonly log: { error(obj: object, msg: string): void };
  private loop: RoundLoop | undefined;

  constructor(
    db: Db,
    deps: { blocklist: BlocklistService; minecraft: MinecraftService; notifications: NotificationsService; events: EventBus },
    options: { clock: Clock; log: { error(obj: object, msg: string): void } },
  ) {
    this.db = db;
    this.blocklist = deps.blocklist;
    this.minecraft = deps.minecraft;
    this.notifications = deps.notifications;
    this.events = deps.events;
    this.clock = options.clock;
    this.log = options.log;
  }

  start(): void {
    this.loop = new RoundLoop(
      () => this.tick(),
      () => ROUND_MS,
      (err) => this.log.error({ err }, 'matchmaking round failed'),
    );
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop?.stop();
  }

  /** One round over every active mode; answers the matches made. */
  async tick(): Promise<number> {
    const modes = await this.db.select().from(rankedModes).where(eq(rankedModes.active, true));
    let made = 0;
    for (const mode of modes) made += await this.pairMode(mode);
    return made;
  }

  private async pairMode(mode: typeof rankedModes.$inferSelect): Promise<number> {
    const now = this.clock();
    // Names are read before the transaction (the Minecraft service reads outside it; on PGlite's one
    // connection it would wait for it): a player who joined since waits for the next round.
    const known = await this.db.select({ userId: rankedQueue.userId }).from(rankedQueue).where(eq(rankedQueue.modeId, mode.id)).limit(ROUND_LIMIT);
    if (known.length < 2) return 0;
    const players = await this.minecraft.players(known.map((k) => k.userId));
    const made = await this.db.transaction(async (tx) => {
      const waiting = await tx.select().from(rankedQueue).where(eq(rankedQueue.modeId, mode.id)).orderBy(asc(rankedQueue.joinedAt)).limit(ROUND_LIMIT).for('update', { skipLocked: true });
      if (waiting.length < 2) return [];
      const blocked = new Set(
        (
          await this.blocklist.among(
            waiting.map((w) => w.userId),
            tx,
          )
        ).flatMap(([a, b]) => [`${a}|${b}`, `${b}|${a}`]),
      );
      const pairs = pairUp(
        waiting.filter((w) => players.has(w.userId)),
        now,
        blocked,
      );
      if (pairs.length === 0) return [];
      const season = await seasonOf(tx, now);
      await tx.delete(rankedQueue).where(
        and(
          eq(rankedQueue.modeId, mode.id),
          inArray(
            rankedQueue.userId,
            pairs.flatMap(([a, b]) => [a.userId, b.userId]),
          ),
        ),
      );
      const matches = await tx
        .insert(rankedMatches)
        .values(pairs.map(([a, b]) => ({ modeId: mode.id, seasonId: season.id, playerA: a.userId, playerB: b.userId, status: 'PENDING' as const, createdAt: now })))
        .returning();
      for (const m of matches) {
        for (const [me, other] of [
          [m.playerA, m.playerB],
          [m.playerB, m.playerA],
        ] as const) {
          const opponent = players.get(other);
          await this.notifications.notify(me, { key: 'ranked.matched', params: { opponent: opponent?.mcName ?? opponent?.name ?? '', mode: mode.name }, link: '/dashboard/ranked' }, tx);
        }
        await this.notifications.changed([m.playerA, m.playerB], { resource: 'ranked', ids: [m.id], type: 'created' }, tx);
        await this.events.emit('competitions.matched', {
          tx,
          matchId: m.id,
          modeId: mode.id,
          definitionId: mode.definitionId,
          players: [m.playerA, m.playerB],
          names: [players.get(m.playerA)?.mcName ?? '', players.get(m.playerB)?.mcName ?? ''],
        });
      }
      return matches;
    });
    return made.length;
  }
}
