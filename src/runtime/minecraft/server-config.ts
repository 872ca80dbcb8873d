import fs from 'node:fs';
import path from 'node:path';
import type { GameSpec } from '../driver.ts';

/**
 * What the local driver tells the launcher about one game, written as `blockhost-server.json` in
 * the game's folder. It holds the RCON password, so the file is readable by its owner only.
 */
export interface ServerConfig {
  version: string;
  port: number;
  rconPort: number;
  rconPassword: string;
  motd: string;
  maxPlayers: number;
  gameMode: GameSpec['gameMode'];
  difficulty: GameSpec['difficulty'];
  seed?: string;
  /** Vanilla's `level-type` when the world is first made (GameSpec's `levelType`). */
  levelType?: GameSpec['levelType'];
  pvp?: boolean;
  viewDistance?: number;
  spawnProtection?: number;
  allowFlight?: boolean;
  /** The server icon, a 64×64 PNG in base64. */
  icon?: string;
  whitelistEnabled: boolean;
  /** Vanilla or Paper jar launched with `java -jar` instead of flying-squid (MC_SERVER_JAR). */
  jar?: string;
  /** RAM of the game's package, in MiB; the jar's JVM heap is taken from it. */
  ramMb: number;
}

export const configFile = 'blockhost-server.json';

/** The settings of the game's Settings page a server reads at start, those its owner set. */
export function startSettings(game: GameSpec): Pick<ServerConfig, 'pvp' | 'viewDistance' | 'spawnProtection' | 'allowFlight' | 'icon'> {
  const { pvp, viewDistance, spawnProtection, allowFlight, icon } = game;
  return Object.fromEntries(Object.entries({ pvp, viewDistance, spawnProtection, allowFlight, icon }).filter(([, v]) => v !== undefined));
}

/**
 * The file as written between starts: the local driver takes the ports at each start, so a game
 * never started has none yet; those of its last start are kept and preferred at the next.
 */
export type StoredConfig = Omit<ServerConfig, 'port' | 'rconPort'> & Partial<Pick<ServerConfig, 'port' | 'rconPort'>>;

export function readServerConfig(dir: string): ServerConfig {
  const file = path.join(dir, configFile);
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<ServerConfig>;
  for (const key of ['version', 'port', 'rconPort', 'rconPassword'] as const) {
    if (raw[key] === undefined) throw new Error(`${file} lacks "${key}"`);
  }
  return raw as ServerConfig;
}

export function writeServerConfig(dir: string, config: StoredConfig): void {
  const file = path.join(dir, configFile);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

export const gameModes = { survival: 0, creative: 1, adventure: 2, spectator: 3 } as const;
export const difficulties = { peaceful: 0, easy: 1, normal: 2, hard: 3 } as const;

/**
 * A seed as vanilla reads `level-seed`: a whole number is taken as is, any other text by Java's
 * `String.hashCode`. flying-squid's generator wants a positive 31-bit number, so we fold into it.
 */
export function numericSeed(seed: string): number {
  let n: number;
  if (/^-?\d+$/.test(seed)) {
    n = Number(BigInt.asIntN(32, BigInt(seed)));
  } else {
    n = 0;
    for (const ch of seed) n = (Math.imul(31, n) + ch.charCodeAt(0)) | 0;
  }
  // 0 would read as "no seed" to flying-squid, which then draws a random one.
  return Math.abs(n) % 2 ** 31 || 1;
}

/** The `server.properties` of a vanilla or Paper jar, for the same settings. */
export function serverProperties(config: ServerConfig): string {
  const props: Record<string, string | number | boolean> = {
    'server-port': config.port,
    'server-ip': '',
    'enable-rcon': true,
    'rcon.port': config.rconPort,
    'rcon.password': config.rconPassword,
    'broadcast-rcon-to-ops': false,
    motd: config.motd,
    'max-players': config.maxPlayers,
    'online-mode': false,
    gamemode: config.gameMode,
    // The game's mode is everyone's, as on flying-squid: a player who comes back plays it too.
    'force-gamemode': true,
    difficulty: config.difficulty,
    'level-seed': config.seed ?? '',
    ...(config.levelType === undefined ? {} : { 'level-type': config.levelType }),
    'white-list': config.whitelistEnabled,
    'enforce-whitelist': config.whitelistEnabled,
    'enable-status': true,
    ...(config.pvp === undefined ? {} : { pvp: config.pvp }),
    ...(config.viewDistance === undefined ? {} : { 'view-distance': config.viewDistance }),
    ...(config.spawnProtection === undefined ? {} : { 'spawn-protection': config.spawnProtection }),
    ...(config.allowFlight === undefined ? {} : { 'allow-flight': config.allowFlight }),
  };
  // Java properties escape backslashes and line breaks; a motd is one line anyway.
  const escape = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
  return `${Object.entries(props)
    .map(([k, v]) => `${k}=${escape(String(v))}`)
    .join('\n')}\n`;
}
