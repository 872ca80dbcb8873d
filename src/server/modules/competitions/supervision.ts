import { and, eq, inArray, isNotNull, isNull, notInArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rankedMatches, rankedModes, tournaments } from '../../db/schema/competitions.ts';
import { RoundLoop } from '../../lib/round-loop.ts';
import { liveMatchStatuses, MATCH_JOIN_SECONDS } from '../../../contract/competitions.ts';
import { parseDeath } from '../../../runtime/deaths.ts';
import type { GameRuntime } from '../games/runtime.ts';
import type { PlatformGames } from '../games/platform-games.ts';
import type { MinecraftService } from '../minecraft/service.ts';
import type { Notice, NotificationsService } from '../notifications/service.ts';
import type { MatchResults, MatchOutcome } from './results.ts';

/** A supervision round every this long (when loops run). */
const ROUND_MS = 1_000;
/** A player has this long from the server's start to join, or forfeits. */
const JOIN_MS = MATCH_JOIN_SECONDS * 1000;
/** Console lines read per match and round. */
const LINES_PER_ROUND = 2_000;
/** Matches looked at per round. */
const ROUND_LIMIT = 50;

/**
 * The server's line of a player joining: vanilla's `[..] [Server thread/INFO]: Name joined the game`,
 * flying-squid's `[INFO]: &eName joined the game.` (a chat line, `<Eve> Name joined…`, never matches).
 */
const joined = /\]:\s*(?:[§&][0-9a-fk-or])?([A-Za-z0-9_]{1,16}) joined the game\.?\s*$/;
// eslint-disable-next-line no-control-regex
const ansi = /\u001b\[[0-9;]*[A-Za-z]/g;

interface Deps {
  runtime: GameRuntime;
  minecraft: MinecraftService;
  notifications: NotificationsService;
  results: MatchResults;
  platformGames: PlatformGames;
  /** The game's address by name when the game gateway runs, as players' own servers show it. */
  namedAddress: (gameId: string) => string | null;
}

type MatchRow = typeof rankedMatches.$inferSelect;
type Ending = { outcome: MatchOutcome } | { voided: 'serverCrashed' | 'serverFailed' } | { cancelled: true };

/**
 * The match supervision (docs/architecture.md, "Competitions", supervision): each round takes the
 * open matches `FOR UPDATE SKIP LOCKED` (one replica per match per round), reads their servers'
 * console from the position stored on the match, and in the same transaction stores the kills,
 * who joined and the new position: a line is counted once however often it is read. The ending
 * (first to the mode's kills, the time limit, a no-show, a crash) is then written by
 * `MatchResults`, whose conditional update makes it once; ended matches' servers are removed.
 */
export class MatchSupervision {
  private readonly db: Db;
  private readonly deps: Deps;
  private loop: RoundLoop | undefined;
  /** The servers of the open matches at the last round: a change of their status wakes a round. */
  private watched = new Set<string>();
  /** Servers made since (heard at their match's commit), watched until a round sees their match. */
  private readonly fresh = new Set<string>();
  /** The consoles followed, of the open matches' servers on this replica: a kill wakes a round. */
  private readonly followed = new Map<string, () => void>();

  constructor(db: Db, deps: Deps) {
    this.db = db;
    this.deps = deps;
  }

  /** Rounds every `roundMs` (tests give a long one, to see what wakes it), and at once when woken. */
  start(roundMs = ROUND_MS): void {
    this.loop = new RoundLoop(
      () => this.tick(),
      () => roundMs,
      (err) => this.deps.runtime.log.error({ err }, 'match supervision round failed'),
    );
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop?.stop();
    for (const unfollow of this.followed.values()) unfollow();
    this.followed.clear();
  }

  /** A round now rather than at the end of the pause (nothing while the loop is off). */
  wake(): void {
    this.loop?.wake();
  }

  /** A match's server was made (told at its commit, on every replica): its status is watched from now. */
  serverMade(gameId: string): void {
    this.fresh.add(gameId);
  }

  /**
   * A game's status changed (told at its commit, on every replica): a match server's running makes
   * its match LIVE, its crash voids it, without waiting for the round.
   */
  statusChanged(gameId: string): void {
    if (this.watched.has(gameId) || this.fresh.has(gameId)) this.wake();
  }

  /** Follows the consoles of the open matches' servers, and no others: a kill printed wakes a round. */
  private follow(gameIds: string[]): void {
    const open = new Set(gameIds);
    for (const [gameId, unfollow] of this.followed) {
      if (open.has(gameId)) continue;
      unfollow();
      this.followed.delete(gameId);
    }
    for (const gameId of open) {
      if (this.followed.has(gameId)) continue;
      this.followed.set(
        gameId,
        this.deps.runtime.consoles.follow({ id: gameId }, (line) => {
          if (!line.command && parseDeath(line)?.killer) this.wake();
        }),
      );
    }
  }

  /** One round: the open matches read and ended when due, then the ended matches' servers removed; answers the matches ended. */
  async tick(): Promise<number> {
    const endings = await this.read();
    let ended = 0;
    for (const [match, ending] of endings) if (await this.end(match, ending)) ended++;
    await this.removeServers();
    return ended;
  }

  /** Reads each open match's server under its row lock; answers the matches to end. */
  private async read(): Promise<Array<[MatchRow, Ending]>> {
    const now = this.deps.runtime.clock();
    const open = await this.db
      .select({ id: rankedMatches.id, playerA: rankedMatches.playerA, playerB: rankedMatches.playerB, gameId: rankedMatches.gameId })
      .from(rankedMatches)
      .where(inArray(rankedMatches.status, [...liveMatchStatuses]))
      .limit(ROUND_LIMIT);
    const servers = open.flatMap((m) => (m.gameId ? [m.gameId] : []));
    this.watched = new Set(servers);
    for (const gameId of servers) this.fresh.delete(gameId);
    this.follow(servers);
    if (open.length === 0) return [];
    // Names are read before the transaction (the Minecraft service reads outside it).
    const players = await this.deps.minecraft.players(open.flatMap((m) => [m.playerA, m.playerB]));
    const live: Array<{ matchId: string; address: string | null }> = [];
    const endings = await this.db.transaction(async (tx) => {
      const rows = await tx
        .select()
        .from(rankedMatches)
        .where(
          inArray(
            rankedMatches.id,
            open.map((m) => m.id),
          ),
        )
        .for('update', { skipLocked: true });
      const out: Array<[MatchRow, Ending]> = [];
      for (const match of rows) {
        if (!liveMatchStatuses.includes(match.status as never)) continue;
        const [mode] = await tx.select().from(rankedModes).where(eq(rankedModes.id, match.modeId));
        const game = match.gameId ? await this.deps.platformGames.row(tx, match.gameId) : undefined;
        if (!game) {
          out.push([match, { voided: 'serverFailed' }]);
          continue;
        }
        if (game.status === 'CRASHED') {
          out.push([match, { voided: match.status === 'LIVE' ? 'serverCrashed' : 'serverFailed' }]);
          continue;
        }
        if (match.status === 'PENDING') {
          if (game.status !== 'RUNNING') continue;
          // The driver's look, not the games service's (it reads outside this transaction).
          const observed = (await this.deps.platformGames.observe(tx, game))?.address ?? null;
          const address = observed && (this.deps.namedAddress(game.id) ?? observed);
          await tx.update(rankedMatches).set({ status: 'LIVE', startedAt: now, address }).where(eq(rankedMatches.id, match.id));
          live.push({ matchId: match.id, address });
          continue;
        }
        const nameA = players.get(match.playerA)?.mcName?.toLowerCase();
        const nameB = players.get(match.playerB)?.mcName?.toLowerCase();
        let { killsA, killsB, joinedA, joinedB, consoleSeq } = match;
        for (const line of this.deps.runtime.consoles.lines(game, consoleSeq, LINES_PER_ROUND) ?? []) {
          consoleSeq = Math.max(consoleSeq, line.seq);
          if (line.command) continue;
          const death = parseDeath(line);
          // Only a kill between the match's two players counts: a mob's, a fall, another name never.
          const killer = death?.killer?.toLowerCase();
          const victim = death?.victim.toLowerCase();
          // Who is named joining, or dying or killing, is on the server.
          const seen = [joined.exec(line.text.replace(ansi, ''))?.[1]?.toLowerCase(), killer, victim];
          if (seen.includes(nameA ?? '\0')) joinedA = true;
          if (seen.includes(nameB ?? '\0')) joinedB = true;
          if (killer === nameA && victim === nameB) killsA++;
          else if (killer === nameB && victim === nameA) killsB++;
        }
        // Who the server says is online has joined too (a line missed while the API was down). Asked
        // only while a player is unseen: a server busy with its players' logins and chunks can take
        // seconds to answer, and every other match's round (a new one's LIVE) would wait for it.
        if (!joinedA || !joinedB) {
          const online = new Set(((await this.deps.platformGames.observe(tx, game))?.players ?? []).map((p) => p.toLowerCase()));
          if (nameA && online.has(nameA)) joinedA = true;
          if (nameB && online.has(nameB)) joinedB = true;
        }
        await tx.update(rankedMatches).set({ killsA, killsB, joinedA, joinedB, consoleSeq }).where(eq(rankedMatches.id, match.id));
        const counted = { ...match, killsA, killsB, joinedA, joinedB, consoleSeq };
        const kills = { [match.playerA]: killsA, [match.playerB]: killsB };
        const started = match.startedAt!.getTime();
        if (killsA >= mode!.killsToWin || killsB >= mode!.killsToWin) out.push([counted, { outcome: { winner: killsA > killsB ? match.playerA : match.playerB, kills } }]);
        else if (now.getTime() >= started + mode!.timeLimitSeconds * 1000)
          out.push([counted, { outcome: killsA === killsB ? { draw: true, kills } : { winner: killsA > killsB ? match.playerA : match.playerB, kills } }]);
        else if (now.getTime() >= started + JOIN_MS && !(joinedA && joinedB)) {
          if (!joinedA && !joinedB) out.push([counted, { cancelled: true }]);
          else out.push([counted, { outcome: { winner: joinedA ? match.playerA : match.playerB, kills } }]);
        }
      }
      return out;
    });
    for (const { matchId, address } of live) await this.tellReady(matchId, address, now);
    return endings;
  }

  private async tellReady(matchId: string, address: string | null, now: Date): Promise<void> {
    const [match] = await this.db.select().from(rankedMatches).where(eq(rankedMatches.id, matchId));
    if (!match) return;
    const [mode] = await this.db.select({ name: rankedModes.name }).from(rankedModes).where(eq(rankedModes.id, match.modeId));
    const joinBy = new Date(now.getTime() + JOIN_MS).toISOString();
    // A tournament's match says which tournament, and leads to its bracket.
    const [tournament] = match.tournamentId ? await this.db.select({ name: tournaments.name, slug: tournaments.slug }).from(tournaments).where(eq(tournaments.id, match.tournamentId)) : [];
    const notice: Notice = tournament
      ? { key: 'tournament.ready', params: { tournament: tournament.name, address: address ?? '', seconds: JOIN_MS / 1000, joinBy }, link: `/ranked/${tournament.slug}` }
      : { key: 'ranked.ready', params: { mode: mode!.name, address: address ?? '', seconds: JOIN_MS / 1000, joinBy }, link: '/dashboard/ranked' };
    for (const userId of [match.playerA, match.playerB]) await this.deps.notifications.notify(userId, notice);
    await this.deps.notifications.changed([match.playerA, match.playerB], { resource: 'ranked', ids: [matchId], type: 'updated' });
  }

  private async end(match: MatchRow, ending: Ending): Promise<boolean> {
    if ('outcome' in ending) return this.deps.results.recordResult(match.id, ending.outcome);
    if ('voided' in ending) return this.deps.results.voidMatch(match.id, ending.voided);
    return this.deps.results.cancelMatch(match.id);
  }

  /** The servers of ended matches, stopped then removed over the next rounds. */
  private async removeServers(): Promise<void> {
    const ended = await this.db
      .select({ id: rankedMatches.id, gameId: rankedMatches.gameId })
      .from(rankedMatches)
      .where(and(notInArray(rankedMatches.status, [...liveMatchStatuses]), isNotNull(rankedMatches.gameId), isNull(rankedMatches.serverRemovedAt)))
      .limit(ROUND_LIMIT);
    for (const { id, gameId } of ended) {
      if (await this.deps.platformGames.remove(gameId!)) {
        await this.db
          .update(rankedMatches)
          .set({ serverRemovedAt: this.deps.runtime.clock() })
          .where(and(eq(rankedMatches.id, id), isNull(rankedMatches.serverRemovedAt)));
      }
    }
  }
}
