import { isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { games } from '../../db/schema/games.ts';
import { createGateway, type Gateway } from '../../../runtime/gateway/gateway.ts';
import type { GameRuntime } from './runtime.ts';
import type { Sleepers } from './sleep.ts';
import { words } from '../../../runtime/gateway/words.ts';
import type { Intent } from '../../../runtime/gateway/packets.ts';

/** The channel migration 0030's trigger NOTIFYs when a game's name is given, changed or freed. */
const CHANNEL = 'game_addresses_changed';
/** The port players reach without typing one. */
const MINECRAFT_PORT = 25565;

/**
 * The game gateway of this API process (docs/architecture.md, "The game gateway"): every game's
 * address name kept in memory, loaded once and again whenever the database says one changed (on
 * any replica, at commit), so a ping or a login never queries the database; where a name leads
 * is then the driver's to say, from its own memory.
 */
export class GameGateway {
  private readonly database: Database;
  private readonly runtime: GameRuntime;
  private readonly port: number;
  private readonly domain: string;
  private readonly sleepers: Sleepers;
  private ids = new Map<string, string>();
  private names = new Map<string, string>();
  private gateway: Gateway | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private listening = 0;
  /** A reload under way, and whether another was asked meanwhile (its notice may be newer than the read). */
  private reloading: Promise<void> | null = null;
  private again = false;

  constructor(database: Database, runtime: GameRuntime, sleepers: Sleepers, options: { port: number; domain: string }) {
    this.database = database;
    this.runtime = runtime;
    this.sleepers = sleepers;
    this.port = options.port;
    this.domain = options.domain;
  }

  /** Names now, and every change from now on; then the port opens. */
  async start(): Promise<void> {
    this.unlisten = await this.database.listen(CHANNEL, () => void this.reload(), { onReconnect: () => void this.reload() });
    await this.reload();
    await this.sleepers.start();
    this.gateway = createGateway({
      route: (request) => this.route(request),
      log: (message, err) => this.runtime.log.warn({ err }, message),
    });
    this.listening = await this.gateway.listen(this.port);
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    await this.sleepers.stop();
    await this.gateway?.close();
  }

  /** The address players type for a game named `name`: `name.domain`, with the port unless it is Minecraft's own. */
  addressOf(gameId: string): string | null {
    const name = this.names.get(gameId);
    if (!name || !this.listening) return null;
    return this.listening === MINECRAFT_PORT ? `${name}.${this.domain}` : `${name}.${this.domain}:${this.listening}`;
  }

  /**
   * A running game's server; a sleeping game's list entry from memory, or its wake for a player
   * allowed on it, the login held meanwhile (sleep.ts); 'stopped' otherwise.
   */
  private async route(request: { host: string; intent: Intent; username?: string; remoteAddress: string | undefined; signal: AbortSignal }) {
    const { host, intent } = request;
    const suffix = `.${this.domain}`;
    const name = host.endsWith(suffix) ? host.slice(0, -suffix.length) : null;
    const id = name ? this.ids.get(name) : undefined;
    if (!id) return null;
    const target = await this.runtime.driver.gatewayTarget?.({ id });
    if (target) return target;
    const asleep = await this.sleepers.asleep(id);
    if (!asleep) return 'stopped';
    if (intent === 'status') return { answer: words.sleeping(asleep.motd, asleep.version) };
    const refusal = this.sleepers.refusal(asleep, host, request.username);
    if (refusal) return { answer: refusal };
    return this.sleepers.wake(id, host, request.remoteAddress, request.signal);
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
          this.runtime.log.error({ err }, 'game gateway: names not read; the previous ones stay');
        }
      } while (this.again);
      this.reloading = null;
    })();
    return this.reloading;
  }
}
