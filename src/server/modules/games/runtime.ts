import { asc, eq, inArray, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { gamePlayers, games } from '../../db/schema/games.ts';
import type { GameSpec } from '../../../runtime/driver.ts';
import type { Runtime } from '../../../runtime/index.ts';
import type { PlayerAction, PlayerListType } from '../../../contract/games.ts';
import { settingDefaults } from '../../../contract/values.ts';

export type GameRow = typeof games.$inferSelect;

/** Time as the games module sees it; tests pass their own to skip minutes without sleeping. */
export type Clock = () => Date;

/** What the games module needs from the process: the runtime (driver and consoles), a clock and a logger. */
export interface GameRuntime extends Runtime {
  clock: Clock;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** What the driver is told about a game: its row and its player lists. */
export async function specOf(executor: Executor, game: GameRow): Promise<GameSpec> {
  const players = await executor.select().from(gamePlayers).where(eq(gamePlayers.gameId, game.id)).orderBy(asc(gamePlayers.createdAt));
  const names = (type: string) => players.filter((p) => p.type === type).map((p) => p.name);
  return {
    id: game.id,
    version: game.version,
    ramMb: game.ramMb,
    // The owner's choice on the Settings page, within what the package bought.
    maxPlayers: game.settings.maxPlayers ?? game.maxPlayers,
    motd: game.settings.motd,
    gameMode: game.settings.gameMode,
    difficulty: game.settings.difficulty,
    ...(game.settings.seed ? { seed: game.settings.seed } : {}),
    // Only the platform's games (match servers) set it: a flat arena, nothing in the way of a fight.
    ...(game.settings.levelType ? { levelType: game.settings.levelType } : {}),
    ...startSettings(game.settings),
    whitelist: names('WHITELIST'),
    ops: names('OPS'),
    banned: names('BANNED'),
    whitelistEnabled: game.whitelistEnabled,
  };
}

/**
 * What the owner set on the Settings page that the server reads at start; unset, the server's own
 * defaults, but for the view distance, always given so every server runs what the page shows.
 */
function startSettings(settings: GameRow['settings']): Pick<GameSpec, 'pvp' | 'viewDistance' | 'spawnProtection' | 'allowFlight' | 'icon'> {
  const { pvp, viewDistance = settingDefaults.viewDistance, spawnProtection, allowFlight, icon } = settings;
  return Object.fromEntries(Object.entries({ pvp, viewDistance, spawnProtection, allowFlight, icon }).filter(([, v]) => v !== undefined));
}

/** The message of anything thrown, bounded for a status reason or a notification. */
export function reasonOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 300);
}

/** The vanilla RCON command that applies a list change live. */
export const listCommands: Record<PlayerListType, Record<PlayerAction, string>> = {
  WHITELIST: { ADD: 'whitelist add', REMOVE: 'whitelist remove' },
  OPS: { ADD: 'op', REMOVE: 'deop' },
  BANNED: { ADD: 'ban', REMOVE: 'pardon' },
};

const listKeys = { WHITELIST: 'whitelist', OPS: 'ops', BANNED: 'banned' } as const;

/**
 * The RCON commands that bring a server launched with `launched` to what the platform holds now
 * (`now`): changes made while it started could not be sent live. Without `launched` (it was
 * launched elsewhere or before a restart), every entry is sent again: the commands are idempotent.
 */
export function listChanges(launched: GameSpec | undefined, now: GameSpec): string[] {
  const commands: string[] = [];
  if (launched ? launched.whitelistEnabled !== now.whitelistEnabled : now.whitelistEnabled) commands.push(`whitelist ${now.whitelistEnabled ? 'on' : 'off'}`);
  for (const [type, key] of Object.entries(listKeys) as Array<[PlayerListType, (typeof listKeys)[PlayerListType]]>) {
    const had = new Set((launched?.[key] ?? []).map((n) => n.toLowerCase()));
    const has = new Set(now[key].map((n) => n.toLowerCase()));
    for (const name of now[key]) if (!had.has(name.toLowerCase())) commands.push(`${listCommands[type].ADD} ${name}`);
    for (const name of launched?.[key] ?? []) if (!has.has(name.toLowerCase())) commands.push(`${listCommands[type].REMOVE} ${name}`);
  }
  return commands;
}

/**
 * Takes the games `due` selects (a `FOR UPDATE SKIP LOCKED` query) for `replica` until `until`:
 * the lease column keeps other replicas off them without a transaction held across driver calls.
 */
export function leaseGames(executor: Executor, due: SQLWrapper, replica: string, until: Date): Promise<GameRow[]> {
  return executor.update(games).set({ leaseOwner: replica, leaseUntil: until }).where(inArray(games.id, due)).returning();
}
