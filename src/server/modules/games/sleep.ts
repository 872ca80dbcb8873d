import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { gamePlayers, games } from '../../db/schema/games.ts';
import { words, type GatewayText } from '../../../runtime/gateway/words.ts';
import type { Target } from '../../../runtime/gateway/gateway.ts';
import type { GameRuntime } from './runtime.ts';
import type { NotificationsService } from '../notifications/service.ts';
import { actionWrite, type GamesService } from './service.ts';
import { GameLock } from './lock.ts';
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
 * The wakes' limits, per window: one client address may wake at most `PER_ADDRESS` servers, and
 * one game be woken at most `PER_GAME` times (logins arriving while it wakes share that wake).
 */
const WINDOW_MS = 10 * 60_000;
const PER_ADDRESS = 10;
const PER_GAME = 20;
/** A wake reads the game again at least this often: a lock freed on another replica says nothing here. */
const RECHECK_MS = 2_000;

type Wake = Target | { answer: GatewayText };

/**
 * Sleeping games as the gateway sees them (docs/architecture.md, "Sleeping and waking"): each one's
 * list entry and player lists read once and kept until its status or its lists change (heard on
 * every replica), and the wake of a sleeping game by a player allowed on it, the login held until
 * the server runs. The wake is the owner's start (GamesService.act): through the game's lock, so
 * a wake during a backup waits for the backup to end.
 */
export class Sleepers {
  private readonly database: Database;
  private readonly runtime: GameRuntime;
  private readonly games: GamesService;
  private readonly notifications: NotificationsService;
  private readonly cache = new Map<string, Promise<Asleep | null>>();
  private readonly waking = new Map<string, Promise<boolean>>();
  private readonly counts = new Map<string, { since: number; count: number }>();
  private unlisten: Array<() => Promise<void>> = [];

  constructor(database: Database, deps: { runtime: GameRuntime; games: GamesService; notifications: NotificationsService }) {
    this.database = database;
    this.runtime = deps.runtime;
    this.games = deps.games;
    this.notifications = deps.notifications;
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

  /**
   * Wakes the game for a login from `address` and resolves once its server runs, with where the
   * login goes; or with the words to refuse it (too many wakes, or the wake failed).
   */
  async wake(gameId: string, host: string, address: string | undefined, signal: AbortSignal): Promise<Wake> {
    if (!this.allow(`address:${address ?? ''}`, PER_ADDRESS)) return { answer: words.wakeLimited(host) };
    let waking = this.waking.get(gameId);
    if (!waking) {
      if (!this.allow(`game:${gameId}`, PER_GAME)) return { answer: words.wakeLimited(host) };
      waking = this.startAndWait(gameId).finally(() => this.waking.delete(gameId));
      this.waking.set(gameId, waking);
    }
    const aborted = new Promise<false>((resolve) => signal.addEventListener('abort', () => resolve(false), { once: true }));
    const running = await Promise.race([waking, aborted]).catch((err: unknown) => {
      this.runtime.log.warn({ err, gameId }, 'wake failed');
      return false;
    });
    const target = running ? await this.runtime.driver.gatewayTarget?.({ id: gameId }) : null;
    return target ?? { answer: words.wakeFailed(host) };
  }

  /** Starts the sleeping game as its owner's start does, and waits until it runs (true) or will not (false). */
  private async startAndWait(gameId: string): Promise<boolean> {
    let changed = () => {};
    const unlisten = await this.database.listen(STATUS_CHANNEL, (id) => id === gameId && changed(), { onReconnect: () => changed() });
    try {
      for (;;) {
        const next = new Promise<void>((resolve) => {
          changed = resolve;
          setTimeout(resolve, RECHECK_MS).unref();
        });
        const [row] = await this.database.db.select({ status: games.status, deletedAt: games.deletedAt }).from(games).where(eq(games.id, gameId));
        if (!row || row.deletedAt) return false;
        if (row.status === 'RUNNING') return true;
        if (row.status === 'SLEEPING') {
          if (await this.startSleeping(gameId)) continue;
          // Under a backup's or a restore's lock: the start waits for it to be freed.
        } else if (row.status !== 'STARTING' && row.status !== 'STOPPING') return false;
        await next;
      }
    } finally {
      await unlisten();
    }
  }

  /**
   * The owner's start, from SLEEPING only (an owner's stop in between wins) and only while the
   * game's lock is free; the reconciler then launches it. False when it did not apply.
   */
  private async startSleeping(gameId: string): Promise<boolean> {
    const now = this.runtime.clock();
    const [row] = await this.database.db
      .update(games)
      .set(actionWrite('start', now))
      .where(and(eq(games.id, gameId), isNull(games.deletedAt), eq(games.status, 'SLEEPING'), GameLock.free(now)))
      .returning();
    if (!row) return false;
    await this.notifications.changed(row.ownerId, { resource: 'games', ids: [gameId], type: 'updated' });
    this.games.actionAsked(gameId);
    return true;
  }

  /** One more wake under `key`'s limit in the current window, or false past it. */
  private allow(key: string, limit: number): boolean {
    const now = Date.now();
    if (this.counts.size > 10_000) for (const [k, c] of this.counts) if (now - c.since >= WINDOW_MS) this.counts.delete(k);
    const entry = this.counts.get(key);
    if (!entry || now - entry.since >= WINDOW_MS) {
      this.counts.set(key, { since: now, count: 1 });
      return true;
    }
    if (entry.count >= limit) return false;
    entry.count += 1;
    return true;
  }
}
