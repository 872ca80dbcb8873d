import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { gamePlayers, games } from '../../db/schema/games.ts';
import { badRequest, conflict, forbidden, HttpProblem, notFound } from '../../lib/problems.ts';
import type { NotificationsService } from '../notifications/service.ts';
import { allows as mayChange, type GameAccessLevel } from '../../../contract/sharing.ts';
import { playerListLevels, playerListTypes, type PlayerAction, type PlayerList, type PlayerListType } from '../../../contract/games.ts';
import { listCommands, specOf, type GameRow, type GameRuntime } from './runtime.ts';
import type { GamesService } from './service.ts';

/** The channel on which every replica hears that a game's player lists or whitelist changed (its id): the gateway's sleeping games (sleep.ts). */
export const PLAYERS_CHANNEL = 'blockhost_game_players';

const MC_NAME = /^[A-Za-z0-9_]{3,16}$/;
/** Bounds a list so one game cannot grow the table without end. */
const MAX_LIST_NAMES = 500;

/**
 * A game's players: who is connected, its lists (whitelist, operators, bans) and the whitelist
 * switch, kept in the database and applied live over RCON while the server runs, and kicks.
 */
export class GamePlayersService {
  private readonly db: Db;
  private readonly games: GamesService;
  private readonly notifications: NotificationsService;
  private readonly runtime: GameRuntime;

  constructor(db: Db, deps: { games: GamesService; notifications: NotificationsService; runtime: GameRuntime }) {
    this.db = db;
    this.games = deps.games;
    this.notifications = deps.notifications;
    this.runtime = deps.runtime;
  }

  async connectedPlayers(id: string) {
    const row = await this.games.row(id);
    const none = { playersOnline: 0, maxPlayers: row.settings.maxPlayers ?? row.maxPlayers, players: [] };
    if (row.status !== 'RUNNING') return none;
    try {
      const observed = await this.runtime.driver.observe(await specOf(this.db, row));
      if (observed.status !== 'RUNNING') return none;
      return { playersOnline: observed.playersOnline, maxPlayers: observed.maxPlayers, players: observed.players.map((name) => ({ name })) };
    } catch (err) {
      this.runtime.log.warn({ err, gameId: id }, 'observe failed');
      return none;
    }
  }

  async players(id: string, type: PlayerListType): Promise<PlayerList> {
    await this.games.row(id);
    return this.playerList(id, type);
  }

  private async playerList(gameId: string, type: PlayerListType): Promise<PlayerList> {
    const rows = await this.db
      .select({ name: gamePlayers.name, createdAt: gamePlayers.createdAt })
      .from(gamePlayers)
      .where(and(eq(gamePlayers.gameId, gameId), eq(gamePlayers.type, type)))
      .orderBy(asc(gamePlayers.createdAt), asc(gamePlayers.name));
    return { type, players: rows.map((r) => ({ name: r.name, addedAt: r.createdAt.toISOString() })) };
  }

  /**
   * Adds names to, or removes them from, one of the game's lists (the social module adds a whole
   * friend group this way). Stored first, so the server gets them at its next start whatever
   * happens; applied live over RCON when it runs, unless `live` is false (the console runs the
   * command itself). Adding a name already there, or removing one that is not, changes nothing.
   * `as` is the caller's level on the game: 403 when it may not change this list (operators).
   */
  async patchPlayers(
    gameId: string,
    names: string[],
    type: PlayerListType,
    action: PlayerAction,
    { as = 'OWNER', live = true, reason }: { as?: GameAccessLevel; live?: boolean; reason?: string } = {},
  ): Promise<PlayerList> {
    if (!playerListTypes.includes(type)) throw badRequest('games.unknownList', { type }, [{ field: 'type', key: 'field.oneOf', params: { values: playerListTypes.join(', ') } }]);
    if (!mayChange(as, playerListLevels[type])) throw forbidden('sharing.roleTooLow');
    if (names.length > MAX_LIST_NAMES) throw badRequest('games.tooManyNames', { max: MAX_LIST_NAMES }, [{ field: 'names', key: 'field.atMostNames', params: { max: MAX_LIST_NAMES } }]);
    const bad = names.filter((n) => !MC_NAME.test(n));
    if (bad.length) throw badRequest('games.notNames', { names: bad.slice(0, 5).join(', ') }, [{ field: 'name', key: 'field.minecraftName' }]);
    const game = await this.games.row(gameId);
    // One entry per player, as first spelt: names are case-insensitive.
    const unique = names.filter((n, i) => names.findIndex((m) => m.toLowerCase() === n.toLowerCase()) === i);
    let changed: string[] = [];
    if (unique.length) {
      changed = await this.db.transaction(async (tx) => {
        const lower = unique.map((n) => n.toLowerCase());
        const sameList = and(eq(gamePlayers.gameId, gameId), eq(gamePlayers.type, type));
        if (action === 'REMOVE') {
          const removed = await tx
            .delete(gamePlayers)
            .where(and(sameList, inArray(sql`lower(${gamePlayers.name})`, lower)))
            .returning({ name: gamePlayers.name });
          await tx.execute(sql`select pg_notify(${PLAYERS_CHANNEL}, ${gameId})`);
          return removed.map((r) => r.name);
        }
        const added = await tx
          .insert(gamePlayers)
          .values(unique.map((name) => ({ gameId, type, name })))
          .onConflictDoNothing()
          .returning({ name: gamePlayers.name });
        const [size] = await tx.select({ n: count() }).from(gamePlayers).where(sameList);
        if ((size?.n ?? 0) > MAX_LIST_NAMES) throw conflict('games.listFull', { max: MAX_LIST_NAMES });
        await tx.execute(sql`select pg_notify(${PLAYERS_CHANNEL}, ${gameId})`);
        return added.map((r) => r.name);
      });
    }
    if (changed.length) await this.notifications.changed(game.ownerId, { resource: 'games', ids: [gameId], type: 'updated' });
    // A ban's reason goes with it to the running server, which shows it to the player; one RCON
    // command per name, so a line break in it must not start another.
    const why = type === 'BANNED' && action === 'ADD' ? reason?.replace(/\p{Cc}+/gu, ' ').trim() : undefined;
    if (live && game.status === 'RUNNING')
      await this.rconQuietly(
        game,
        changed.map((name) => (why ? `${listCommands[type][action]} ${name} ${why}` : `${listCommands[type][action]} ${name}`)),
      );
    return this.playerList(gameId, type);
  }

  async whitelistEnabled(id: string): Promise<{ enabled: boolean }> {
    return { enabled: (await this.games.row(id)).whitelistEnabled };
  }

  /** Turns the whitelist on or off; applied live when it runs, unless `live` is false (the console runs the command itself). */
  async setWhitelist(id: string, enabled: boolean, live = true): Promise<{ enabled: boolean }> {
    const [row] = await this.db.update(games).set({ whitelistEnabled: enabled, updatedAt: this.runtime.clock() }).where(eq(games.id, id)).returning();
    if (!row) throw notFound('game');
    await this.db.execute(sql`select pg_notify(${PLAYERS_CHANNEL}, ${id})`);
    await this.notifications.changed(row.ownerId, { resource: 'games', ids: [id], type: 'updated' });
    if (live && row.status === 'RUNNING') await this.rconQuietly(row, [`whitelist ${enabled ? 'on' : 'off'}`]);
    return { enabled };
  }

  /** Kicks a player from the running server; 409 when it does not run. */
  async kick(id: string, name: string, reason?: string): Promise<{ message: string }> {
    const row = await this.games.row(id);
    if (row.status !== 'RUNNING') throw conflict('games.kickNotRunning', { status: row.status });
    // One RCON command per call: a line break in the reason must not start another one.
    const why = reason?.replace(/\p{Cc}+/gu, ' ').trim();
    try {
      const message = await this.runtime.driver.rcon(await specOf(this.db, row), why ? `kick ${name} ${why}` : `kick ${name}`);
      return { message };
    } catch (err) {
      throw new HttpProblem(503, 'games.noAnswer');
    }
  }

  /**
   * Live changes the database already holds, in order: the server is described once for all of
   * them. A failure is logged and ends the batch (the server is not answering); the next start
   * applies them all.
   */
  private async rconQuietly(game: GameRow, commands: string[]): Promise<void> {
    if (!commands.length) return;
    const spec = await specOf(this.db, game);
    for (const [i, command] of commands.entries()) {
      try {
        await this.runtime.driver.rcon(spec, command);
      } catch (err) {
        this.runtime.log.warn({ err, gameId: game.id, command, left: commands.length - i - 1 }, 'live change not applied; the next start applies it');
        return;
      }
    }
  }
}
