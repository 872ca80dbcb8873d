import { eq, sql } from 'drizzle-orm';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { gamePlayers, games } from '../../db/schema/games.ts';
import type { EventBus } from '../../events.ts';
import type { CatalogueService } from '../catalogue/service.ts';
import type { UsersService } from '../users/service.ts';
import { specOf, type GameRow, type GameRuntime } from './runtime.ts';
import { actionWrite } from './service.ts';

/**
 * A platform game's paid period never ends: the renewals open and settle only games whose period
 * ends, so they never look at it (it lives minutes, and is removed after its use).
 */
const NEVER = new Date('9999-01-01T00:00:00Z');

/**
 * The channel on which every replica hears, once committed, that a platform game was made wanted
 * running (its id): their reconcilers wake, and the one that leases it starts it at once.
 */
export const WANTED_CHANNEL = 'blockhost_platform_game_wanted';

/**
 * Games the platform runs for itself (docs/architecture.md, "Competitions", match servers): an
 * ordinary game to the reconciler and the drivers, owned by the platform's own account (so in no
 * player's list, nobody's to open, charged to no one), from a definition's smallest package.
 */
export class PlatformGames {
  private readonly db: Db;
  private readonly deps: { catalogue: CatalogueService; users: UsersService; runtime: GameRuntime; events: EventBus };

  constructor(db: Db, deps: { catalogue: CatalogueService; users: UsersService; runtime: GameRuntime; events: EventBus }) {
    this.db = db;
    this.deps = deps;
  }

  /**
   * In the caller's transaction: a game of the definition wanted running at once (the reconciler
   * provisions and starts it once committed), PvP on, on a flat world, whitelisted to `whitelist` only; its id, or
   * null when the definition or its packages are gone.
   */
  async create(tx: Tx, input: { definitionId: string; name: string; whitelist: string[] }): Promise<string | null> {
    const offer = await this.deps.catalogue.smallestOffer(tx, input.definitionId);
    if (!offer) return null;
    const { definition, package: pkg } = offer;
    const now = this.deps.runtime.clock();
    const [game] = await tx
      .insert(games)
      .values({
        ownerId: await this.deps.users.platformAccount(tx),
        definitionId: definition.id,
        packageId: pkg.id,
        name: input.name,
        addressName: input.name,
        version: definition.version,
        ramMb: pkg.ramMb,
        maxPlayers: Math.max(2, pkg.maxPlayers),
        settings: {
          motd: input.name,
          // A duel is fought in survival whatever the definition says: nobody is hurt in creative or
          // spectator, and flying-squid spares adventure players too (vanilla does not).
          gameMode: 'survival',
          difficulty: definition.settings.difficulty ?? 'normal',
          seed: definition.settings.seed ?? null,
          pvp: true,
          levelType: 'flat',
          // A match ends by its own rules (no-show, time limit) and its server is removed then: it never sleeps.
          sleepAfterMinutes: 0,
        },
        whitelistEnabled: true,
        periodEnd: NEVER,
        // As the owner's start writes it.
        desiredState: 'running',
        status: 'STARTING',
        statusChangedAt: now,
      })
      .returning({ id: games.id });
    const names = input.whitelist.filter((name) => name !== '');
    if (names.length > 0) await tx.insert(gamePlayers).values(names.map((name) => ({ gameId: game!.id, type: 'WHITELIST' as const, name })));
    // Heard at commit: a wake before it (an event of this process) would find the game not yet
    // there, and the server would wait for the next full round.
    await tx.execute(sql`select pg_notify(${WANTED_CHANNEL}, ${game!.id})`);
    return game!.id;
  }

  /** The game's row, deleted or not. */
  async row(executor: Executor, id: string): Promise<GameRow | undefined> {
    const [row] = await executor.select().from(games).where(eq(games.id, id));
    return row;
  }

  /** What the driver sees of the game now (its address, who is online); null when it does not answer. */
  async observe(executor: Executor, row: GameRow) {
    return this.deps.runtime.driver.observe(await specOf(executor, row)).catch(() => null);
  }

  /**
   * Stops the game and removes it (its world and what the driver keeps): no last backup, it is
   * nobody's game. Idempotent, a step per call; answers true once it is gone.
   */
  async remove(gameId: string): Promise<boolean> {
    const now = this.deps.runtime.clock();
    const row = await this.row(this.db, gameId);
    if (!row || row.worldDeletedAt) return true;
    if (row.status !== 'STOPPED' && row.status !== 'CREATED') {
      if (row.status !== 'STOPPING') {
        await this.db.update(games).set(actionWrite('stop', now)).where(eq(games.id, gameId));
        await this.deps.events.emit('games.actionAsked', { gameId });
      }
      return false;
    }
    await this.deps.runtime.driver.remove(await specOf(this.db, row));
    // Hidden and its world gone in one write: the backups' deletion rounds (which keep a player's
    // deleted game's last backup) never see it half done.
    await this.db
      .update(games)
      .set({ deletedAt: row.deletedAt ?? now, worldDeletedAt: now, desiredState: 'stopped', updatedAt: now })
      .where(eq(games.id, gameId));
    return true;
  }
}
