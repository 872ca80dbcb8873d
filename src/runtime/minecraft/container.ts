/**
 * The game image's entry point (`deploy/game/Dockerfile`): one flying-squid server in a container
 * on Agones, set up by the same environment the `agones` driver gives the itzg/minecraft-server
 * image (VERSION, MOTD, MODE, RCON_PASSWORD, ENABLE_WHITELIST...), so `AGONES_IMAGE` can name
 * either. The world, the player lists and the icon are in `/data` (MC_DATA_DIR), as for itzg.
 *
 * It writes the launcher's config there, then runs the launcher with the local driver's memory
 * flags and hands it the pod's SIGTERM: the world is saved before the container ends.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { difficulties, gameModes, writeServerConfig, type ServerConfig } from './server-config.ts';
import { leanServerEnv, leanServerFlags } from './lean-node.ts';

type Env = Record<string, string | undefined>;

class ContainerConfigError extends Error {}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const value = env[name]?.toLowerCase();
  if (value === undefined || value === '') return fallback;
  if (!(values as readonly string[]).includes(value)) throw new ContainerConfigError(`${name}=${env[name]}: expected one of ${values.join(', ')}`);
  return value as T;
}

function integer(env: Env, name: string, min: number, max: number): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new ContainerConfigError(`${name}=${value}: expected a whole number from ${min} to ${max}`);
  return n;
}

function flag(env: Env, name: string): boolean | undefined {
  const value = env[name]?.toUpperCase();
  if (value === undefined || value === '') return undefined;
  if (value !== 'TRUE' && value !== 'FALSE') throw new ContainerConfigError(`${name}=${env[name]}: expected TRUE or FALSE`);
  return value === 'TRUE';
}

/** itzg's MEMORY (the heap: `768M`, `2G`) in MiB. */
function memoryMb(env: Env): number {
  const match = /^(\d{1,6})([MG])$/i.exec(env.MEMORY ?? '1G');
  if (!match) throw new ContainerConfigError(`MEMORY=${env.MEMORY}: expected a size like 768M or 2G`);
  return Number(match[1]) * (match[2]!.toUpperCase() === 'G' ? 1024 : 1);
}

/** The launcher's config from the container's environment, with the icon the lists' init container copied. */
export function configFromEnv(env: Env, dataDir: string): ServerConfig & { heapMb: number } {
  const version = env.VERSION;
  const rconPassword = env.RCON_PASSWORD;
  if (!version) throw new ContainerConfigError('VERSION is required: the Minecraft version to serve');
  if (!rconPassword) throw new ContainerConfigError('RCON_PASSWORD is required: the platform speaks to the server over RCON');
  const heapMb = memoryMb(env);
  const icon = path.join(dataDir, 'server-icon.png');
  const optional = {
    seed: env.SEED || undefined,
    // itzg's LEVEL_TYPE takes vanilla's names, with or without the `minecraft:` namespace.
    levelType: env.LEVEL_TYPE ? oneOf({ LEVEL_TYPE: env.LEVEL_TYPE.replace(/^minecraft:/i, '') }, 'LEVEL_TYPE', ['normal', 'flat'] as const, 'normal') : undefined,
    pvp: flag(env, 'PVP'),
    viewDistance: integer(env, 'VIEW_DISTANCE', 2, 32),
    spawnProtection: integer(env, 'SPAWN_PROTECTION', 0, 64),
    allowFlight: flag(env, 'ALLOW_FLIGHT'),
    icon: fs.existsSync(icon) ? fs.readFileSync(icon).toString('base64') : undefined,
  };
  return {
    version,
    port: integer(env, 'SERVER_PORT', 1, 65535) ?? 25565,
    rconPort: integer(env, 'RCON_PORT', 1, 65535) ?? 25575,
    rconPassword,
    motd: env.MOTD ?? 'A Minecraft Server',
    maxPlayers: integer(env, 'MAX_PLAYERS', 1, 1000) ?? 20,
    gameMode: oneOf(env, 'MODE', Object.keys(gameModes) as Array<keyof typeof gameModes>, 'survival'),
    difficulty: oneOf(env, 'DIFFICULTY', Object.keys(difficulties) as Array<keyof typeof difficulties>, 'easy'),
    whitelistEnabled: flag(env, 'ENABLE_WHITELIST') ?? false,
    // The package's RAM, which itzg's heap is three quarters of (the driver's MEMORY).
    ramMb: Math.ceil(heapMb / 0.75),
    heapMb,
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
  };
}

if (import.meta.main) {
  const dataDir = process.env.MC_DATA_DIR ?? '/data';
  let config: ReturnType<typeof configFromEnv>;
  try {
    config = configFromEnv(process.env, dataDir);
  } catch (err) {
    if (!(err instanceof ContainerConfigError)) throw err;
    console.error(`Configuration error: ${err.message}`);
    process.exit(78);
  }
  const { heapMb, ...serverConfig } = config;
  writeServerConfig(dataDir, serverConfig);
  const launcher = fileURLToPath(new URL('./launcher.ts', import.meta.url));
  const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, ...leanServerFlags, '--disable-warning=DEP0174', launcher, dataDir], {
    cwd: dataDir,
    env: { ...process.env, ...leanServerEnv },
    stdio: 'inherit',
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
