import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { gamePlayers, games } from '../../db/schema/games.ts';
import { words, type GatewayText } from '../../../runtime/gateway/words.ts';
import { STATUS_CHANNEL } from './world.ts';
import { PLAYERS_CHANNEL } from './players.ts';

/** What the gateway needs of a sleeping game, kept in memory: its list entry, and who may wake it. */
interface Asleep {
  motd: string;
  version: string;
  whitelistEnabled: boolean;
  /** Lower-cased names (Minecraft's are case-insensitive): the whitelist and the operators, whom vanilla lets past it. */
  whitelisted: Set<string>;
  banned: Set<string>;
}

/**
 * Sleeping games as a gateway sees them (docs/architecture.md, "Sleeping and waking"): each one's
 * list entry and player lists read once and kept until its status or its lists change (heard from
 * the database, whichever replica wrote them), and who may wake it. Read by the gateway in the API
 * and by a gateway process alike: it needs the database only.
 */
export class Sleepers {
  private readonly database: Database;
  private readonly cache = new Map<string, Promise<Asleep | null>>();
  private unlisten: Array<() => Promise<void>> = [];

  constructor(database: Database) {
    this.database = database;
  }

  async start(): Promise<void> {
    const forget = (id: string) => this.cache.delete(id);
    const forgetAll = () => this.cache.clear();
    this.unlisten = [await this.database.listen(STATUS_CHANNEL, forget, { onReconnect: forgetAll }), await this.database.listen(PLAYERS_CHANNEL, forget, { onReconnect: forgetAll })];
  }

  async stop(): Promise<void> {
    await Promise.all(this.unlisten.map((unlisten) => unlisten()));
  }

  /** The sleeping game's list entry and lists; null when the game does not sleep. */
  asleep(gameId: string): Promise<Asleep | null> {
    let known = this.cache.get(gameId);
    if (!known) {
      known = this.read(gameId);
      this.cache.set(gameId, known);
      // A failed read is not kept: the next connection reads again.
      known.catch(() => this.cache.delete(gameId));
    }
    return known;
  }

  private async read(gameId: string): Promise<Asleep | null> {
    const db = this.database.db;
    const [row] = await db
      .select({ status: games.status, settings: games.settings, version: games.version, whitelistEnabled: games.whitelistEnabled })
      .from(games)
      .where(and(eq(games.id, gameId), isNull(games.deletedAt)));
    if (row?.status !== 'SLEEPING') return null;
    const lists = await db.select({ type: gamePlayers.type, name: gamePlayers.name }).from(gamePlayers).where(eq(gamePlayers.gameId, gameId));
    const names = (type: string) => new Set(lists.filter((p) => p.type === type).map((p) => p.name.toLowerCase()));
    return { motd: row.settings.motd, version: row.version, whitelistEnabled: row.whitelistEnabled, whitelisted: new Set([...names('WHITELIST'), ...names('OPS')]), banned: names('BANNED') };
  }

  /** Why `username` may not wake the game, in the gateway's words; null when they may. */
  refusal(asleep: Asleep, host: string, username: string | undefined): GatewayText | null {
    const name = username?.toLowerCase();
    if (!name) return words.wakeFailed(host);
    if (asleep.banned.has(name)) return words.banned(host);
    if (asleep.whitelistEnabled && !asleep.whitelisted.has(name)) return words.notWhitelisted(host);
    return null;
  }
}
