import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isSupportedVersion, maxVersion, minVersion } from '../contract/games.ts';
import { NoWorldError, type GameDriver, type GameSpec, type ObjectLocation, type Observed, type ResourceUsage } from './driver.ts';
import { classify } from './console-log.ts';
import { GameConsoles } from './consoles.ts';
import { lineSplitter } from './lines.ts';
import { syncList } from './minecraft/player-lists.ts';
import { parseList, pingServer, rconCommands, type RconTarget } from './minecraft/probe.ts';
import { leanServerEnv, leanServerFlags } from './minecraft/lean-node.ts';
import { configFile, startSettings, writeServerConfig, type StoredConfig } from './minecraft/server-config.ts';
import type { ArchiveResult } from './minecraft/world-archive.ts';
import { runWorldTool } from './minecraft/world-tool-client.ts';
import { compileCacheDir, plainJs } from './plain-js.ts';
import { ProcessUsage } from './process-usage.ts';
import { WorldQueue } from './world-queue.ts';
import { LocalPorts, type Ports } from './local-ports.ts';
import type { Target } from './gateway/gateway.ts';
import { handOver } from './gateway/hand-off.ts';

/**
 * The `local` driver: each game is a child process of this one (our launcher running flying-squid,
 * or a jar when MC_SERVER_JAR is set), with its folder under `<dataDir>/games/<id>` and a random
 * RCON password kept there. A game port and a loopback RCON port from the configured range are
 * taken at each start and given back when the process ends (stop or crash), so the range bounds
 * how many games run at once, not how many exist; a game gets its previous ports again when they
 * are free, so its address rarely changes.
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
  /** Called with each world tool process as it is spawned (`archive` or `restore`): tests kill it. */
  onWorldTool?: (tool: ChildProcess, command: string) => void;
  /** V8 flags of each server beside its heap limit; `leanServerFlags` unless given (the bench's baseline gives none). */
  serverFlags?: readonly string[];
  /** The runtime's consoles, where the servers' output goes; `localConsoles(dataDir)` when the driver runs alone. */
  consoles?: GameConsoles;
}

interface Child {
  process: ChildProcess;
  /** Where its server listens: the game port, and RCON with its password. */
  port: number;
  rconTarget: RconTarget;
  exited: Promise<void>;
  /** Set when the platform asked for the stop, so the exit is not a crash. */
  stopping: boolean;
  /** Set when the launcher said its server takes logins: from then on it takes handed connections too. */
  ready: boolean;
  stderrTail: string;
  /** Snapshots asked of the launcher over IPC, by id, until it answers or exits. */
  backups: Map<string, { resolve(result: ArchiveResult): void; reject(err: Error): void; onProgress?: (fraction: number) => void }>;
}

/** What the launcher answers a `backup` message with. */
interface BackupAnswer {
  type: 'backup-progress' | 'backup-done' | 'backup-failed';
  fraction?: number;
  id: string;
  sizeBytes?: number;
  sha256?: string;
  error?: string;
}

const launcherSource = fileURLToPath(new URL('./minecraft/launcher.ts', import.meta.url));
const stderrTailBytes = 2000;
const gameId = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * The heap a game's Node process may use, from its package's RAM: three quarters of it, leaving
 * the rest for code, buffers and the native side. flying-squid needs about 100 MiB of heap to load
 * its game data, so small packages get that floor.
 */
export function heapLimitMb(ramMb: number): number {
  return Math.min(Math.max(Math.floor(ramMb * 0.75), 160), 16_384);
}

/** A game's folder, `<dataDir>/games/<id>`: its world, its settings, its console. */
function gameFolder(dataDir: string, game: Pick<GameSpec, 'id'>): string {
  if (!gameId.test(game.id)) throw new Error(`game id "${game.id}" is invalid: expected letters, digits, "-" or "_"`);
  return path.join(dataDir, 'games', game.id);
}

/** The consoles of the local driver's games, each in its game's folder. */
export function localConsoles(dataDir: string): GameConsoles {
  return new GameConsoles((game) => gameFolder(dataDir, game));
}

export class LocalDriver implements GameDriver {
  readonly name = 'local';
  private readonly children = new Map<string, Child>();
  /** Where each game's server output goes. */
  private readonly consoles: GameConsoles;
  /** CPU readings of the servers' processes, to average each sample since the previous one. */
  private readonly processUsage = new ProcessUsage();
  /** Why a game's process ended without being asked to, until it is started or stopped again. */
  private readonly crashes = new Map<string, string>();
  /** The game and RCON ports of the servers, from the configured range. */
  private readonly ports: LocalPorts;
  /** The world tool runs of each game, one at a time, which a start waits for. */
  private readonly worlds = new WorldQueue();
  /** The launcher as plain JavaScript, made at the first start (./plain-js.ts). */
  private launcher: string | undefined;
  private readonly gamesDir: string;
  private readonly stopTimeoutMs: number;
  /** A jar serves whatever it is; flying-squid only the catalogue's releases. */
  private readonly checksVersion: boolean;
  private readonly options: LocalDriverOptions;
  private readonly readyListeners: Array<(gameId: string) => void> = [];

  constructor(options: LocalDriverOptions) {
    this.options = options;
    const { from, to } = options.portRange;
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1024 || to > 65535 || to - from < 1) {
      throw new Error(`port range ${from}-${to} is invalid: expected two ports from 1024 to 65535, at least two apart`);
    }
    this.gamesDir = path.join(options.dataDir, 'games');
    this.stopTimeoutMs = options.stopTimeoutMs ?? 30_000;
    this.checksVersion = !options.serverJar;
    this.consoles = options.consoles ?? localConsoles(options.dataDir);
    this.ports = new LocalPorts(options.portRange, this.gamesDir, (dir) => this.readPrevious(dir));
  }

  dir(game: Pick<GameSpec, 'id'>): string {
    return gameFolder(this.options.dataDir, game);
  }

  onReady(listener: (gameId: string) => void): void {
    this.readyListeners.push(listener);
  }

  private ready(gameId: string): void {
    for (const listener of this.readyListeners) listener(gameId);
  }

  async provision(game: GameSpec): Promise<void> {
    if (this.checksVersion && !isSupportedVersion(game.version)) {
      throw new Error(`Minecraft "${game.version}" is not served by flying-squid: expected a release from ${minVersion} to ${maxVersion}`);
    }
    const dir = this.dir(game);
    fs.mkdirSync(dir, { recursive: true });
    const previous = this.readPrevious(dir);
    const config: StoredConfig = {
      // The ports of its last start, if any: kept so the next start prefers them.
      ...(previous.port && previous.rconPort ? { port: previous.port, rconPort: previous.rconPort } : {}),
      rconPassword: previous.rconPassword ?? crypto.randomBytes(24).toString('base64url'),
      version: game.version,
      motd: game.motd,
      maxPlayers: game.maxPlayers,
      gameMode: game.gameMode,
      difficulty: game.difficulty,
      ...(game.seed ? { seed: game.seed } : {}),
      ...(game.levelType ? { levelType: game.levelType } : {}),
      ...startSettings(game),
      whitelistEnabled: game.whitelistEnabled,
      ramMb: game.ramMb,
      ...(this.options.serverJar ? { jar: this.options.serverJar } : {}),
    };
    writeServerConfig(dir, config);
    syncList(dir, 'whitelist', game.whitelist);
    syncList(dir, 'ops', game.ops);
    syncList(dir, 'banned', game.banned);
  }

  /** What an earlier provision or start wrote: the password stays the game's for good. */
  private readPrevious(dir: string): Partial<StoredConfig> {
    try {
      return JSON.parse(fs.readFileSync(path.join(dir, configFile), 'utf8')) as Partial<StoredConfig>;
    } catch {
      return {};
    }
  }

  /** Whether one more server could get ports now. */
  async hasCapacity(): Promise<boolean> {
    return this.ports.hasRoom();
  }

  async start(game: GameSpec): Promise<void> {
    if (this.children.has(game.id) || this.worlds.isStarting(game.id)) return;
    // A snapshot or restore of the stopped world finishes before the server loads it.
    await this.worlds.start(game.id, () => this.launch(game));
  }

  private async launch(game: GameSpec): Promise<void> {
    await this.provision(game);
    const dir = this.dir(game);
    const ports = await this.ports.take(game.id);
    // Another start of the same game got here first.
    if (!ports) return;
    // Held until the process ends; given back at once if it never launches.
    const release = () => this.ports.release(game.id, ports);
    let config: StoredConfig & Ports;
    try {
      config = { ...(this.readPrevious(dir) as StoredConfig), ...ports };
      writeServerConfig(dir, config);
    } catch (err) {
      release();
      throw err;
    }
    this.crashes.delete(game.id);
    fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
    const log = fs.createWriteStream(path.join(dir, 'logs', 'latest.log'), { flags: 'a' });
    const output = this.consoles.of(game);
    output.note('info', `Starting the server (Minecraft ${game.version})`);
    const flags = [
      `--max-old-space-size=${heapLimitMb(game.ramMb)}`,
      ...(this.options.serverFlags ?? leanServerFlags),
      // flying-squid's player files warn on each save (DEP0174); the noise would bury a crash's cause.
      '--disable-warning=DEP0174',
    ];
    this.launcher ??= plainJs(launcherSource);
    const child = spawn(process.execPath, [...flags, this.launcher, dir], {
      cwd: dir,
      env: { ...process.env, ...leanServerEnv, NODE_COMPILE_CACHE: compileCacheDir },
      // An IPC channel: the launcher notices when this process goes away, and the gateway hands it connections.
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    // Both streams go to the log file as they come, and line by line to the console.
    const splitters = (['stdout', 'stderr'] as const).map((stream) => {
      const lines = lineSplitter((line) => {
        const { level, text } = classify(line, stream);
        // The game's folder is the host's business: its owner reads paths from the world's folder.
        output.write(level, text.replaceAll(dir, '.'));
        // A jar's server opens RCON last, once it takes logins ("[time] [thread/INFO]: RCON running on";
        // a player's chat line has "<name>" after the colon).
        if (this.options.serverJar && stream === 'stdout' && /\]: RCON running on /.test(line)) this.ready(game.id);
      });
      child[stream]!.on('data', (chunk: Buffer) => {
        log.write(chunk);
        lines.push(chunk);
      });
      return lines;
    });
    const record: Child = {
      process: child,
      port: ports.port,
      rconTarget: { host: '127.0.0.1', port: ports.rconPort, password: config.rconPassword },
      exited: Promise.resolve(),
      stopping: false,
      ready: false,
      stderrTail: '',
      backups: new Map(),
    };
    child.on('message', (message: BackupAnswer | { type: 'ready' } | null) => {
      if (message?.type === 'ready') {
        record.ready = true;
        return void (this.children.get(game.id) === record && this.ready(game.id));
      }
      const pending = message && record.backups.get(message.id);
      if (!pending) return;
      if (message.type === 'backup-progress') return pending.onProgress?.(message.fraction!);
      record.backups.delete(message.id);
      if (message.type === 'backup-done') pending.resolve({ sizeBytes: message.sizeBytes!, sha256: message.sha256! });
      else pending.reject(new Error(`backup of game ${game.id} failed: ${message.error}`));
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      record.stderrTail = (record.stderrTail + chunk.toString('utf8')).slice(-stderrTailBytes);
    });
    record.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        for (const lines of splitters) lines.end();
        log.end();
        if (this.children.get(game.id) === record) this.children.delete(game.id);
        release();
        for (const pending of record.backups.values()) pending.reject(new Error(`backup of game ${game.id} failed: the server exited`));
        record.backups.clear();
        // The launcher exits 0 only after saving the world: a `stop` sent over RCON is no crash.
        if (!record.stopping && (code !== 0 || signal)) {
          const how = signal ? `killed by signal ${signal}` : `exited with code ${code}`;
          const tail = record.stderrTail.trim().split('\n').slice(-10).join('\n');
          this.crashes.set(game.id, tail ? `${how}: ${tail}` : how);
          output.note('error', `The server crashed: ${how}`);
        } else {
          output.note('info', 'The server stopped');
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
        if (this.children.get(game.id) === record) this.children.delete(game.id);
        release();
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
      await rconCommands(child.rconTarget, ['stop']);
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

  /**
   * The server's port, and, once flying-squid takes logins, the hand-off of a connection to its
   * process over the IPC channel (docs/decisions.md, "The gateway hands a local server its
   * connections"): the gateway in this process then copies nothing. A jar's server is Java, which
   * cannot take a Node socket, and a gateway of its own process has no channel to the launcher:
   * both copy to the port.
   */
  async gatewayTarget(game: Pick<GameSpec, 'id'>): Promise<Target | null> {
    const child = this.children.get(game.id);
    if (!child) return null;
    const target = { host: '127.0.0.1', port: child.port };
    if (this.options.serverJar || !child.ready || child.stopping) return target;
    return { ...target, handOff: (socket, head) => handOver(child.process, socket, head) };
  }

  async observe(game: GameSpec): Promise<Observed> {
    const base = { playersOnline: 0, maxPlayers: game.maxPlayers, players: [], version: null, motd: null, address: null };
    const child = this.children.get(game.id);
    if (!child) {
      const reason = this.crashes.get(game.id);
      return reason === undefined ? { ...base, status: 'STOPPED' } : { ...base, status: 'CRASHED', reason };
    }
    const [status, list] = await Promise.allSettled([pingServer('127.0.0.1', child.port), rconCommands(child.rconTarget, ['list']).then(([answer]) => parseList(answer ?? ''))]);
    if (status.status === 'rejected' || list.status === 'rejected' || this.children.get(game.id) !== child) return { ...base, status: 'STARTING' };
    return {
      status: 'RUNNING',
      // The count that goes with the names: a ping may still count a client refused at login
      // until its connection closes.
      playersOnline: list.value?.online ?? status.value.online,
      maxPlayers: status.value.max,
      players: list.value?.players ?? [],
      version: status.value.version,
      motd: status.value.motd,
      address: `${this.options.host}:${child.port}`,
    };
  }

  async rcon(game: GameSpec, command: string): Promise<string> {
    const child = this.children.get(game.id);
    if (!child) throw new Error(`game ${game.id} is not running`);
    const [answer] = await rconCommands(child.rconTarget, [command]);
    return answer ?? '';
  }

  /**
   * Whether the game's folder holds a world a server has created or a restore has put there; or
   * only `world.previous`, when a restore was killed between the renames of its swap: the world
   * tool or the launcher puts it back before anything else.
   */
  private hasWorld(game: GameSpec): boolean {
    return ['world', 'world.previous'].some((name) => fs.existsSync(path.join(this.dir(game), name, 'level.dat')));
  }

  /**
   * Running: the launcher zips its world between a pause and a resume of its saves. Stopped: the
   * world tool zips it. Either way the bytes go from the game's folder to the location directly.
   */
  async backup(game: GameSpec, location: ObjectLocation, onProgress?: (fraction: number) => void): Promise<ArchiveResult> {
    if (!this.hasWorld(game)) throw new NoWorldError(game.id);
    const child = this.children.get(game.id);
    if (child) {
      const id = crypto.randomUUID();
      return new Promise<ArchiveResult>((resolve, reject) => {
        child.backups.set(id, { resolve, reject, onProgress });
        child.process.send({ type: 'backup', id, location }, (err) => {
          if (!err) return;
          child.backups.delete(id);
          reject(new Error(`backup of game ${game.id} failed: ${err.message}`));
        });
      });
    }
    const answer = await this.runWorldTool(game, ['archive', this.dir(game)], location, onProgress);
    return { sizeBytes: Number(answer.sizeBytes), sha256: String(answer.sha256) };
  }

  /** Only a stopped world is replaced: the world tool swaps it once the zip passed every check. */
  async restore(game: GameSpec, location: ObjectLocation, maxArchiveBytes: number): Promise<void> {
    await this.runWorldTool(game, ['restore', this.dir(game), String(maxArchiveBytes)], location);
  }

  /**
   * Runs the world tool on a stopped game's folder, one run per game at a time; rejects with the
   * tool's WorldArchiveError when it refused, with its code.
   */
  private runWorldTool(game: GameSpec, args: string[], location: ObjectLocation, onProgress?: (fraction: number) => void): Promise<Record<string, unknown>> {
    return this.worlds.run(game.id, async () => {
      // Checked when the run begins: a start may have come while an earlier run went on.
      if (this.children.has(game.id) || this.worlds.isStarting(game.id)) {
        throw new Error(`game ${game.id} is running: stop it before a restore, or back it up while it runs`);
      }
      return runWorldTool(args, { cwd: this.dir(game), label: `game ${game.id}`, location, onProgress, onSpawn: (tool) => this.options.onWorldTool?.(tool, args[0]!) });
    });
  }

  async remove(game: GameSpec): Promise<void> {
    await this.stop(game);
    this.consoles.forget(game);
    this.crashes.delete(game.id);
    this.ports.forget(game.id);
    fs.rmSync(this.dir(game), { recursive: true, force: true });
  }

  async close(): Promise<void> {
    await Promise.all([...this.children.keys()].map((id) => this.stop({ id } as GameSpec)));
  }

  /** The server's process tree, as the launcher may run a jar as its child. */
  async usage(game: GameSpec): Promise<ResourceUsage | null> {
    this.processUsage.retain(new Set([...this.children.values()].flatMap((child) => (child.process.pid ? [child.process.pid] : []))));
    const pid = this.pid(game);
    return pid ? this.processUsage.read(pid) : null;
  }

  /** Process id of a game's server, for tests and benchmarks that watch it. */
  pid(game: Pick<GameSpec, 'id'>): number | undefined {
    return this.children.get(game.id)?.process.pid;
  }
}
