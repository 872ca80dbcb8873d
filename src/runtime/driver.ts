/**
 * Game hosting, seen from the platform: a driver provisions, starts, stops and watches one game
 * server per game, and speaks vanilla RCON to it. The `local` driver runs a child process per game;
 * the `agones` driver a GameServer on Kubernetes. The platform never knows which.
 */

import type { Target } from './gateway/gateway.ts';

/** Drivers GAME_DRIVER may name; `createRuntime` in index.ts builds them. */
export const gameDrivers = ['local', 'agones'] as const;
export type GameDriverName = (typeof gameDrivers)[number];

/** What the platform tells a driver about a game. */
export interface GameSpec {
  id: string;
  /** Minecraft version the server speaks, e.g. "1.21.4". */
  version: string;
  ramMb: number;
  maxPlayers: number;
  motd: string;
  gameMode: 'survival' | 'creative' | 'adventure' | 'spectator';
  difficulty: 'peaceful' | 'easy' | 'normal' | 'hard';
  seed?: string;
  /**
   * Vanilla's `level-type`, read when the world is first made: `flat`, a superflat world (bedrock,
   * dirt, grass on top), level and the same everywhere; left out, the usual terrain.
   * No Settings field sets it yet: tests do, to know where the ground is.
   */
  levelType?: 'normal' | 'flat';
  // Set on the game's Settings; left out, the server's defaults.
  pvp?: boolean;
  viewDistance?: number;
  spawnProtection?: number;
  allowFlight?: boolean;
  /** The server icon, a 64×64 PNG in base64. */
  icon?: string;
  /** Player lists written to the server before it starts (applied live over RCON afterwards). */
  whitelist: string[];
  ops: string[];
  banned: string[];
  whitelistEnabled: boolean;
}

export type ObservedStatus = 'RUNNING' | 'STARTING' | 'STOPPED' | 'CRASHED';

export interface Observed {
  status: ObservedStatus;
  playersOnline: number;
  maxPlayers: number;
  /** Names of the players online, when the server answered. */
  players: string[];
  version: string | null;
  motd: string | null;
  /** host:port players connect to; null while not running. */
  address: string | null;
  /** Why the server is CRASHED (exit code, last error), when known. */
  reason?: string;
}

/**
 * A start refused because the host has no room for one more server now (the local driver: no free
 * ports). Nothing was launched or changed: the same start may succeed once another server stops.
 */
export class NoCapacityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoCapacityError';
  }
}

/**
 * Where a world snapshot is written or read: a file on a disk the game's host shares with the
 * object store, or a presigned URL (S3) to PUT or GET. World bytes go there straight from the
 * game's host, never through the API process.
 */
export type ObjectLocation = { kind: 'file'; path: string } | { kind: 'url'; url: string; method: 'GET' | 'PUT'; headers: Record<string, string> };

/** A backup asked of a game that has no world yet (never started): there is nothing to keep. */
export class NoWorldError extends Error {
  constructor(gameId: string) {
    super(`game ${gameId} has no world yet`);
    this.name = 'NoWorldError';
  }
}

/**
 * What a game server's process uses at a moment, for the usage history: resident memory, and CPU
 * as cores busy on average since the driver's previous reading (1 = one full core).
 */
export interface ResourceUsage {
  memoryBytes: number;
  cpuCores: number;
}

/** What a driver cannot do (yet): nothing was attempted or changed. */
export class UnsupportedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedError';
  }
}

export interface GameDriver {
  readonly name: string;
  /** Prepares the game's home (folder, secrets); idempotent. */
  provision(game: GameSpec): Promise<void>;
  /**
   * Launches the server; resolves once launched, not once RUNNING (observe tells that). Rejects
   * with NoCapacityError when the host cannot run one more server now.
   */
  start(game: GameSpec): Promise<void>;
  /**
   * Whether a start could launch one more server now: a cheap look, not a reservation, so a start
   * may still meet NoCapacityError. A driver without it always has room.
   */
  hasCapacity?(): Promise<boolean>;
  /** Saves the world and stops the server (RCON `stop`, a kill only after the save or a bound). */
  stop(game: GameSpec): Promise<void>;
  /** RUNNING only when the server answered a Server List Ping and an RCON login. */
  observe(game: GameSpec): Promise<Observed>;
  /**
   * Calls `listener` with a game's id as soon as its server says it takes logins (the local
   * driver's launcher once flying-squid and RCON listen, a jar's RCON line; a GameServer turning
   * Ready in the Agones watch): the platform observes it then rather than at its next look. A hint
   * only: `observe` still decides, and a driver without it is seen running by the rounds alone.
   */
  onReady?(listener: (gameId: string) => void): void;
  /** One vanilla RCON command; rejects when the server is not reachable. */
  rcon(game: GameSpec, command: string): Promise<string>;
  /**
   * Zips the world to `location` (running: the server pauses its saves, flushes and zips while
   * players play on; stopped: a child tool zips it). Rejects when the game has no world yet.
   * `onProgress` hears how far it is, from 0 to 1, now and then (a driver may stay silent).
   */
  backup(game: GameSpec, location: ObjectLocation, onProgress?: (fraction: number) => void): Promise<{ sizeBytes: number; sha256: string }>;
  /**
   * Replaces the world by the zip at `location`, only while the server is stopped. An unsafe or
   * broken zip is refused with a WorldArchiveError (its code a translation key) and the world
   * stays as it was.
   */
  restore(game: GameSpec, location: ObjectLocation, maxArchiveBytes: number): Promise<void>;
  /** Stops and deletes everything of the game. */
  remove(game: GameSpec): Promise<void>;
  /** Stops every server this process launched, cleanly (API shutdown). */
  close(): Promise<void>;
  /**
   * Where the game gateway sends the game's players now, from what the driver keeps in memory (the
   * local driver's processes, the Agones driver's watched GameServers): null when no server of the
   * game runs. Asked at every connection, so it never waits on the network when it can help it.
   * The local driver's targets may also take the connection itself (`handOff`: the server is a
   * child of this process), so the gateway copies nothing.
   */
  gatewayTarget?(game: Pick<GameSpec, 'id'>): Promise<Target | null>;

  // Usage history: read once a minute per running game by the platform's sampler.
  /**
   * What the game's server uses now; null when this driver sees no server of the game running
   * (stopped, or on another replica's host), or cannot measure it here.
   */
  usage(game: GameSpec): Promise<ResourceUsage | null>;
}
