import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GameDriver, GameSpec, Observed } from './driver.ts';
import { syncList } from './minecraft/player-lists.ts';
import { parseList, pingServer, rconCommands } from './minecraft/probe.ts';
import { configFile, readServerConfig, writeServerConfig, type ServerConfig } from './minecraft/server-config.ts';

/**
 * The `local` driver: each game is a child process of this one (our launcher running flying-squid,
 * or a jar when MC_SERVER_JAR is set), with its folder under `<dataDir>/games/<id>`, a game port
 * and a loopback RCON port from the configured range, and a random RCON password kept in its folder.
 *
 * This process owns its servers. `close()` stops them cleanly; if this process dies instead, each
 * launcher sees its IPC channel close, saves its world and exits, so no server is orphaned. After a
 * restart nothing runs, and the reconciler starts again the games that should run.
 */
export interface LocalDriverOptions {
  dataDir: string;
  /** Host players connect to, shown in addresses. */
  host: string;
  /** Inclusive range the game and RCON ports are taken from. */
  portRange: { from: number; to: number };
  /** A vanilla or Paper jar to run with `java -jar` instead of flying-squid. */
  serverJar?: string;
  /** How long `stop` waits for the world to be saved before it kills the process. */
  stopTimeoutMs?: number;
}

interface Child {
  process: ChildProcess;
  exited: Promise<void>;
  /** Set when the platform asked for the stop, so the exit is not a crash. */
  stopping: boolean;
  stderrTail: string;
}

const launcher = fileURLToPath(new URL('./minecraft/launcher.ts', import.meta.url));
const stderrTailBytes = 2000;
const gameId = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * Whether flying-squid serves a Minecraft release: one minecraft-data knows, between the oldest and
 * the latest flying-squid supports (as its own check does), so 1.20.4 passes with 1.20.3's protocol.
 */
function flyingSquidServes(): { serves(version: string): boolean; range: string } {
  const require = createRequire(import.meta.url);
  type Known = { version: number; releaseType?: string };
  const known = (require('minecraft-data') as { versionsByMinecraftVersion: { pc: Record<string, Known> } }).versionsByMinecraftVersion.pc;
  const { oldestSupportedVersion: oldest, latestSupportedVersion: latest } = require('flying-squid/src/lib/version.js') as Record<string, string>;
  return {
    range: `${oldest} to ${latest}`,
    serves(version) {
      const v = Object.hasOwn(known, version) ? known[version]! : undefined;
      return !!v && (v.releaseType ?? 'release') === 'release' && v.version >= known[oldest!]!.version && v.version <= known[latest!]!.version;
    },
  };
}

/**
 * The heap a game's Node process may use, from its package's RAM: three quarters of it, leaving
 * the rest for code, buffers and the native side. flying-squid needs about 100 MiB of heap to load
 * its game data, so small packages get that floor.
 */
export function heapLimitMb(ramMb: number): number {
  return Math.min(Math.max(Math.floor(ramMb * 0.75), 160), 16_384);
}

async function portFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

export class LocalDriver implements GameDriver {
  readonly name = 'local';
  private readonly children = new Map<string, Child>();
  /** Why a game's process ended without being asked to, until it is started or stopped again. */
  private readonly crashes = new Map<string, string>();
  /** Provisions take ports one at a time, so two games never get the same. */
  private allocating: Promise<unknown> = Promise.resolve();
  private readonly gamesDir: string;
  private readonly stopTimeoutMs: number;
  private readonly versions: ReturnType<typeof flyingSquidServes> | null;
  private readonly options: LocalDriverOptions;

  constructor(options: LocalDriverOptions) {
    this.options = options;
    const { from, to } = options.portRange;
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1024 || to > 65535 || to - from < 1) {
      throw new Error(`port range ${from}-${to} is invalid: expected two ports from 1024 to 65535, at least two apart`);
    }
    this.gamesDir = path.join(options.dataDir, 'games');
    this.stopTimeoutMs = options.stopTimeoutMs ?? 30_000;
    this.versions = options.serverJar ? null : flyingSquidServes();
  }

  dir(game: Pick<GameSpec, 'id'>): string {
    if (!gameId.test(game.id)) throw new Error(`game id "${game.id}" is invalid: expected letters, digits, "-" or "_"`);
    return path.join(this.gamesDir, game.id);
  }

  async provision(game: GameSpec): Promise<void> {
    if (this.versions && !this.versions.serves(game.version)) {
      throw new Error(`Minecraft "${game.version}" is not served by flying-squid: expected a release from ${this.versions.range}`);
    }
    const dir = this.dir(game);
    fs.mkdirSync(dir, { recursive: true });
    const previous = this.readPrevious(dir);
    const ports = previous.port && previous.rconPort ? { port: previous.port, rconPort: previous.rconPort } : await this.allocatePorts(dir);
    const config: ServerConfig = {
      ...ports,
      rconPassword: previous.rconPassword ?? crypto.randomBytes(24).toString('base64url'),
      version: game.version,
      motd: game.motd,
      maxPlayers: game.maxPlayers,
      gameMode: game.gameMode,
      difficulty: game.difficulty,
      ...(game.seed ? { seed: game.seed } : {}),
      whitelistEnabled: game.whitelistEnabled,
      ramMb: game.ramMb,
      ...(this.options.serverJar ? { jar: this.options.serverJar } : {}),
    };
    writeServerConfig(dir, config);
    syncList(dir, 'whitelist', game.whitelist);
    syncList(dir, 'ops', game.ops);
    syncList(dir, 'banned', game.banned);
  }

  /** What an earlier provision wrote: ports and password stay the game's for good. */
  private readPrevious(dir: string): Partial<ServerConfig> {
    try {
      return JSON.parse(fs.readFileSync(path.join(dir, configFile), 'utf8')) as Partial<ServerConfig>;
    } catch {
      return {};
    }
  }

  private allocatePorts(dir: string): Promise<{ port: number; rconPort: number }> {
    const next = this.allocating.then(async () => {
      // A placeholder holds the ports for this game before its config is written.
      const taken = this.portsInUse();
      const free: number[] = [];
      for (let p = this.options.portRange.from; p <= this.options.portRange.to && free.length < 2; p++) {
        if (!taken.has(p) && (await portFree(p, '0.0.0.0'))) free.push(p);
      }
      if (free.length < 2) {
        const { from, to } = this.options.portRange;
        throw new Error(`no free ports left in the game port range ${from}-${to}`);
      }
      const ports = { port: free[0]!, rconPort: free[1]! };
      fs.writeFileSync(path.join(dir, configFile), JSON.stringify(ports), { mode: 0o600 });
      return ports;
    });
    this.allocating = next.catch(() => {});
    return next;
  }

  private portsInUse(): Set<number> {
    const taken = new Set<number>();
    if (!fs.existsSync(this.gamesDir)) return taken;
    for (const id of fs.readdirSync(this.gamesDir)) {
      const { port, rconPort } = this.readPrevious(path.join(this.gamesDir, id));
      if (port) taken.add(port);
      if (rconPort) taken.add(rconPort);
    }
    return taken;
  }

  async start(game: GameSpec): Promise<void> {
    if (this.children.has(game.id)) return;
    await this.provision(game);
    const dir = this.dir(game);
    this.crashes.delete(game.id);
    fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
    const log = fs.openSync(path.join(dir, 'logs', 'latest.log'), 'a');
    // flying-squid's player files warn on each save (DEP0174); the noise would bury a crash's cause.
    const flags = [`--max-old-space-size=${heapLimitMb(game.ramMb)}`, '--disable-warning=DEP0174'];
    const child = spawn(process.execPath, [...flags, launcher, dir], {
      cwd: dir,
      // An IPC channel, so the launcher notices when this process goes away.
      stdio: ['ignore', log, 'pipe', 'ipc'],
    });
    fs.closeSync(log);
    const record: Child = { process: child, exited: Promise.resolve(), stopping: false, stderrTail: '' };
    child.stderr!.on('data', (chunk: Buffer) => {
      fs.appendFile(path.join(dir, 'logs', 'latest.log'), chunk, () => {});
      record.stderrTail = (record.stderrTail + chunk.toString('utf8')).slice(-stderrTailBytes);
    });
    record.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        if (this.children.get(game.id) === record) this.children.delete(game.id);
        // The launcher exits 0 only after saving the world: a `stop` sent over RCON is no crash.
        if (!record.stopping && (code !== 0 || signal)) {
          const how = signal ? `killed by signal ${signal}` : `exited with code ${code}`;
          const tail = record.stderrTail.trim().split('\n').slice(-10).join('\n');
          this.crashes.set(game.id, tail ? `${how}: ${tail}` : how);
        }
        resolve();
      });
    });
    // The IPC channel must not keep this process alive by itself.
    child.channel?.unref();
    this.children.set(game.id, record);
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (err) => {
        this.children.delete(game.id);
        reject(new Error(`cannot launch game ${game.id}: ${err.message}`));
      });
    });
  }

  async stop(game: GameSpec): Promise<void> {
    this.crashes.delete(game.id);
    const child = this.children.get(game.id);
    if (!child) return;
    child.stopping = true;
    try {
      await rconCommands(this.rconTarget(game), ['stop']);
    } catch {
      // No RCON yet (still starting) or any more: the launcher saves and exits on SIGTERM too.
      child.process.kill('SIGTERM');
    }
    const saved = await Promise.race([child.exited.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), this.stopTimeoutMs).unref())]);
    if (!saved) {
      child.process.kill('SIGKILL');
      await child.exited;
    }
  }

  async observe(game: GameSpec): Promise<Observed> {
    const base = { playersOnline: 0, maxPlayers: game.maxPlayers, players: [], version: null, motd: null, address: null };
    const child = this.children.get(game.id);
    if (!child) {
      const reason = this.crashes.get(game.id);
      return reason === undefined ? { ...base, status: 'STOPPED' } : { ...base, status: 'CRASHED', reason };
    }
    const config = readServerConfig(this.dir(game));
    const [status, list] = await Promise.allSettled([
      pingServer('127.0.0.1', config.port),
      rconCommands(this.rconTarget(game), ['list']).then(([answer]) => parseList(answer ?? '')),
    ]);
    if (status.status === 'rejected' || list.status === 'rejected' || !this.children.has(game.id)) return { ...base, status: 'STARTING' };
    return {
      status: 'RUNNING',
      playersOnline: status.value.online,
      maxPlayers: status.value.max,
      players: list.value?.players ?? [],
      version: status.value.version,
      motd: status.value.motd,
      address: `${this.options.host}:${config.port}`,
    };
  }

  async rcon(game: GameSpec, command: string): Promise<string> {
    if (!this.children.has(game.id)) throw new Error(`game ${game.id} is not running`);
    const [answer] = await rconCommands(this.rconTarget(game), [command]);
    return answer ?? '';
  }

  async remove(game: GameSpec): Promise<void> {
    await this.stop(game);
    this.crashes.delete(game.id);
    fs.rmSync(this.dir(game), { recursive: true, force: true });
  }

  async close(): Promise<void> {
    await Promise.all([...this.children.keys()].map((id) => this.stop({ id } as GameSpec)));
  }

  /** Process id of a game's server, for tests and benchmarks that watch it. */
  pid(game: Pick<GameSpec, 'id'>): number | undefined {
    return this.children.get(game.id)?.process.pid;
  }

  private rconTarget(game: Pick<GameSpec, 'id'>) {
    const config = readServerConfig(this.dir(game));
    return { host: '127.0.0.1', port: config.rconPort, password: config.rconPassword };
  }
}
