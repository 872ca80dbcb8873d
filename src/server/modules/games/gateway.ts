import { eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { games } from '../../db/schema/games.ts';
import type { Gateway, Target } from '../../../runtime/gateway/gateway.ts';
import { Sleepers } from './sleep.ts';
import { STATUS_CHANNEL } from './world.ts';
import type { Wakes, WakeAnswer } from './wakes.ts';
import type { GameRuntime } from './runtime.ts';
import { words, type GatewayText } from '../../../runtime/gateway/words.ts';
import type { Intent } from '../../../runtime/gateway/packets.ts';

/** The channel migration 0033's trigger NOTIFYs when a game's name is given, changed or freed. */
const CHANNEL = 'game_addresses_changed';
/** The port players reach without typing one. */
const MINECRAFT_PORT = 25565;
/** A wake reads the game again at least this often: a lock freed on another replica says nothing here. */
const RECHECK_MS = 2_000;

/**
 * Where a gateway learns what the database does not hold for it: the two ways it runs
 * (docs/architecture.md, "The game gateway"). In the API, targets are the driver's memory and a
 * wake is a call into the wakes service (wakes.ts); in a gateway process (gateway-main.ts),
 * targets are the rows' `gateway_target`, kept in memory from the database's notices
 * (gateway-targets.ts), and a wake is an internal HTTP call to the API.
 */
export interface GatewaySource {
  /** Where the game's players go now; null when no server of it runs. `fresh`: a wake just saw it RUNNING, so no memory that may lag. */
  target(gameId: string, fresh?: boolean): Promise<Target | null>;
  /** Asks for the sleeping game's wake, for a login from `address` (`first`: its first ask, counted against the limits). */
  wake(gameId: string, address: string | undefined, first: boolean): Promise<WakeAnswer>;
  start?(): Promise<void>;
  stop?(): Promise<void>;
}

/** The gateway inside the API: the driver's memory says where a game's server is; a wake is the wakes service's. */
export function inApiSource(runtime: GameRuntime, wakes: Wakes): GatewaySource {
  return {
    target: async (gameId) => (await runtime.driver.gatewayTarget?.({ id: gameId })) ?? null,
    wake: (gameId, address, first) => wakes.ask(gameId, address, first),
  };
}

interface GatewayLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface GameGatewayOptions {
  /** The port players reach the games on (0: any free one). */
  port: number;
  domain: string;
  /** False when a gateway process serves the port: this one keeps the names, for the addresses it shows, and opens nothing. */
  open: boolean;
  /** Connections at once, per process and per client address; past them a client is answered "full". */
  maxConnections: number;
  connectionsPerAddress: number;
}

/**
 * The game gateway's wiring, the same in the API and in a gateway process: every game's address
 * name kept in memory, loaded once and again whenever the database says one changed (on any
 * replica, at commit), a sleeping game's list entry from `Sleepers`, and the wake of a sleeping
 * game by a player allowed on it, the login held until the server runs; so a ping or a login never
 * queries the database. Where a running game's server is, and the wake itself, are the source's.
 */
export class GameGateway {
  private readonly database: Database;
  private readonly source: GatewaySource;
  private readonly log: GatewayLog;
  private readonly options: GameGatewayOptions;
  private readonly sleepers: Sleepers;
  private ids = new Map<string, string>();
  private names = new Map<string, string>();
  private gateway: Gateway | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private listening = 0;
  /** A reload under way, and whether another was asked meanwhile (its notice may be newer than the read). */
  private reloading: Promise<void> | null = null;
  private again = false;
  /** Wakes this process waits for, shared by the logins arriving meanwhile. */
  private readonly waking = new Map<string, Promise<WakeAnswer | 'running' | 'failed'>>();

  constructor(database: Database, source: GatewaySource, log: GatewayLog, options: GameGatewayOptions) {
    this.database = database;
    this.source = source;
    this.log = log;
    this.options = options;
    this.sleepers = new Sleepers(database);
  }

  /** Names now, and every change from now on; then the port opens. */
  async start(): Promise<void> {
    this.unlisten = await this.database.listen(CHANNEL, () => void this.reload(), { onReconnect: () => void this.reload() });
    await this.reload();
    if (!this.options.open) return;
    await this.source.start?.();
    await this.sleepers.start();
    // The Minecraft wire format (minecraft-protocol, some 300 modules) is loaded by the API that serves
    // the port, not by every API, most of which have no gateway or leave it to a process of its own.
    const { createGateway } = await import('../../../runtime/gateway/gateway.ts');
    this.gateway = createGateway({
      route: (request) => this.route(request),
      log: (message, err) => this.log.warn({ err }, message),
      maxConnections: this.options.maxConnections,
      connectionsPerAddress: this.options.connectionsPerAddress,
    });
    this.listening = await this.gateway.listen(this.options.port);
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    await this.gateway?.close();
    await this.sleepers.stop();
    await this.source.stop?.();
  }

  /** The port it listens on (0 until it does). */
  get port(): number {
    return this.listening;
  }

  /** The address players type for a game: `name.domain`, with the port unless it is Minecraft's own. */
  addressOf(gameId: string): string | null {
    const name = this.names.get(gameId);
    const port = this.options.open ? this.listening : this.options.port;
    if (!name || !port) return null;
    return port === MINECRAFT_PORT ? `${name}.${this.options.domain}` : `${name}.${this.options.domain}:${port}`;
  }

  /**
   * A running game's server; a sleeping game's list entry from memory, or its wake for a player
   * allowed on it, the login held meanwhile; 'stopped' otherwise.
   */
  private async route(request: { host: string; intent: Intent; username?: string; remoteAddress: string | undefined; signal: AbortSignal }) {
    const { host, intent } = request;
    const suffix = `.${this.options.domain}`;
    const name = host.endsWith(suffix) ? host.slice(0, -suffix.length) : null;
    const id = name ? this.ids.get(name) : undefined;
    if (!id) return null;
    const target = await this.source.target(id);
    if (target) return target;
    const asleep = await this.sleepers.asleep(id);
    if (!asleep) return 'stopped';
    if (intent === 'status') return { answer: words.sleeping(asleep.motd, asleep.version) };
    const refusal = this.sleepers.refusal(asleep, host, request.username);
    if (refusal) return { answer: refusal };
    return this.wake(id, host, request.remoteAddress, request.signal);
  }

  /**
   * Wakes the game for a login from `address` and resolves once its server runs, with where the
   * login goes; or with the words to refuse it (too many wakes, or the wake failed). Logins
   * arriving meanwhile on this process share the wake under way (and are not counted again).
   */
  async wake(gameId: string, host: string, address: string | undefined, signal: AbortSignal): Promise<Target | { answer: GatewayText }> {
    let waking = this.waking.get(gameId);
    if (!waking) {
      waking = this.wakeAndWait(gameId, address).finally(() => this.waking.delete(gameId));
      this.waking.set(gameId, waking);
    }
    const aborted = new Promise<'failed'>((resolve) => signal.addEventListener('abort', () => resolve('failed'), { once: true }));
    const outcome = await Promise.race([waking, aborted]).catch((err: unknown) => {
      this.log.warn({ err, gameId }, 'wake failed');
      return 'failed' as const;
    });
    if (outcome === 'limited') return { answer: words.wakeLimited(host) };
    const target = outcome === 'running' ? await this.source.target(gameId, true) : null;
    return target ?? { answer: words.wakeFailed(host) };
  }

  /** Asks for the wake, then waits until the game runs ('running'), or will not ('failed', 'limited'). */
  private async wakeAndWait(gameId: string, address: string | undefined): Promise<WakeAnswer | 'running' | 'failed'> {
    let changed = () => {};
    const unlisten = await this.database.listen(STATUS_CHANNEL, (id) => id === gameId && changed(), { onReconnect: () => changed() });
    try {
      let answer = await this.source.wake(gameId, address, true);
      for (;;) {
        if (answer === 'limited' || answer === 'gone') return answer === 'gone' ? 'failed' : answer;
        const next = new Promise<void>((resolve) => {
          changed = resolve;
          setTimeout(resolve, RECHECK_MS).unref();
        });
        const [row] = await this.database.db.select({ status: games.status, deletedAt: games.deletedAt }).from(games).where(eq(games.id, gameId));
        if (!row || row.deletedAt) return 'failed';
        if (row.status === 'RUNNING') return 'running';
        if (row.status !== 'SLEEPING' && row.status !== 'STARTING' && row.status !== 'STOPPING') return 'failed';
        await next;
        // Still asleep: a backup's or a restore's lock held the start, which is asked again.
        if (row.status === 'SLEEPING') answer = await this.source.wake(gameId, address, false);
      }
    } finally {
      await unlisten();
    }
  }

  private reload(): Promise<void> {
    if (this.reloading) {
      this.again = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      do {
        this.again = false;
        try {
          const rows = await this.database.db.select({ id: games.id, name: games.addressName }).from(games).where(isNull(games.deletedAt));
          this.ids = new Map(rows.map((r) => [r.name, r.id]));
          this.names = new Map(rows.map((r) => [r.id, r.name]));
        } catch (err) {
          this.log.error({ err }, 'game gateway: names not read; the previous ones stay');
        }
      } while (this.again);
      this.reloading = null;
    })();
    return this.reloading;
  }
}
