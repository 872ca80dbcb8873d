import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { agentDefaultPort } from './agones/agent-protocol.ts';
import { WorldAgentClient } from './agones/agent-client.ts';
import { Kubernetes, type GameServer, type KubernetesAccess } from './agones/kubernetes.ts';
import { LogFollower } from './agones/log-follower.ts';
import { aliveStates, gameLabel, gameServerManifest, listsManifest, managedSelector, namesOf, readyStates, secretManifest, worldClaimManifest, type ManifestOptions } from './agones/manifests.ts';
import { GameConsoles } from './consoles.ts';
import { NoWorldError, UnsupportedError, type GameDriver, type GameSpec, type ObjectLocation, type Observed, type ResourceUsage } from './driver.ts';
import { parseList, pingServer, rconCommands, type RconTarget } from './minecraft/probe.ts';
import type { ArchiveResult } from './minecraft/world-archive.ts';
import { WorldQueue } from './world-queue.ts';

/**
 * The `agones` driver: one Agones `GameServer` per game on Kubernetes, running the
 * itzg/minecraft-server image, with beside it the game's objects, kept between runs (a Secret
 * with the RCON password, the world's volume, a ConfigMap with the player lists: manifests.ts).
 * This file is the servers' lifecycle; the driver is split by concern under agones/:
 * - kubernetes.ts, the access to the Kubernetes API,
 * - game-server-cache.ts, the GameServers kept in memory by a watch, which `observe` reads,
 * - manifests.ts, what is written to the cluster,
 * - log-follower.ts, the server's log followed into the game's console,
 * - agent-client.ts, the calls to the world agent (backups and restores).
 *
 * The cluster runs the servers, not this process: `close()` leaves them be, and after an API
 * restart `observe` finds them again by name. RCON is reached on the pod's IP, inside the cluster.
 *
 * Backups and restores are done by the world agent (agones/world-agent.ts, the `toolImage`) where
 * the world is, writing to or reading from the presigned URL it is handed: a running server's
 * GameServer has it as a sidecar, and a stopped game's volume gets a short-lived Pod
 * `blockhost-<id>-world` running it.
 */
export interface KubernetesOptions extends KubernetesAccess {
  /** Image of the game servers (itzg/minecraft-server or a pinned tag of it). */
  image: string;
  /** Size of each game's world volume, e.g. "2Gi". */
  worldSize?: string;
  /** Port RCON listens on inside the pod. */
  rconPort?: number;
  stopTimeoutMs?: number;
  /**
   * Image of the platform itself (this repository with its dependencies, working directory at its
   * root), which runs the world agent for backups and restores. Unset: neither is available.
   */
  toolImage?: string;
  /** Port the world agent listens on inside the pod. */
  agentPort?: number;
  /** Where each game's console is kept (`<consoleDir>/blockhost-<id>/console.jsonl`); the system's temporary folder when unset. */
  consoleDir?: string;
  /** The runtime's consoles, where the servers' logs go; `agonesConsoles(consoleDir)` when the driver runs alone. */
  consoles?: GameConsoles;
  /** How long a stopped game's world pod may take to run (scheduling, image pull, volume attach). */
  worldPodTimeoutMs?: number;
}

const quantitySuffixes: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };

/** A Kubernetes quantity ("250m", "123456789n", "524288Ki", "1Gi") as a number. */
function quantity(text: string): number {
  const match = /^([0-9.]+)([a-zA-Z]*)$/.exec(text.trim());
  const factor = match ? quantitySuffixes[match[2]!] : undefined;
  if (!match || factor === undefined) throw new Error(`"${text}" is not a Kubernetes quantity`);
  return Number(match[1]) * factor;
}

/** A flush of a big world is slow, and vanilla answers `save-all flush` only once it is done. */
const flushTimeoutMs = 300_000;

/** A game's console folder on the API's side, `<consoleDir>/blockhost-<id>`. */
function consoleFolder(consoleDir: string | undefined, game: Pick<GameSpec, 'id'>): string {
  return path.join(consoleDir ?? path.join(os.tmpdir(), 'blockhost-consoles'), namesOf(game).gameServer);
}

/** The consoles of the Agones driver's games, kept where this process runs. */
export function agonesConsoles(consoleDir: string | undefined): GameConsoles {
  return new GameConsoles((game) => consoleFolder(consoleDir, game));
}

export class AgonesDriver implements GameDriver {
  readonly name = 'agones';
  private readonly options: KubernetesOptions;
  private readonly kubernetes: Kubernetes;
  private readonly manifests: ManifestOptions;
  /** Where each game's server log goes. */
  private readonly consoles: GameConsoles;
  private readonly logs: LogFollower;
  private readonly agents: WorldAgentClient;
  private readonly passwords = new Map<string, string>();
  /** A stopped game's backups and restores, one at a time, which its start waits for. */
  private readonly worlds = new WorldQueue();
  private readonly readyListeners: Array<(gameId: string) => void> = [];

  constructor(options: KubernetesOptions) {
    this.options = options;
    this.kubernetes = new Kubernetes(options);
    // The reconciler's looks (observe) read the GameServers from one watch, not a GET each; a
    // GameServer turning Ready there (the sidecar's SDK call once the server answers a ping) is
    // told to `onReady`'s listeners, so the platform observes it then rather than at its next look.
    this.kubernetes.watchGameServers(managedSelector, (previous, next) => {
      const gameId = next.metadata.labels?.[gameLabel];
      if (!gameId || !readyStates.has(next.status?.state ?? '') || readyStates.has(previous?.status?.state ?? '')) return;
      for (const listener of this.readyListeners) listener(gameId);
    });
    this.manifests = { image: options.image, rconPort: options.rconPort ?? 25575, agentPort: options.agentPort ?? agentDefaultPort, ...(options.toolImage ? { toolImage: options.toolImage } : {}) };
    this.consoles = options.consoles ?? agonesConsoles(options.consoleDir);
    this.logs = new LogFollower(this.kubernetes, this.consoles);
    this.agents = new WorldAgentClient(this.kubernetes, this.manifests, options.worldPodTimeoutMs);
  }

  onReady(listener: (gameId: string) => void): void {
    this.readyListeners.push(listener);
    // Someone listens: the watch runs from now, not from the first look.
    this.kubernetes.startWatching();
  }

  async provision(game: GameSpec): Promise<void> {
    await this.kubernetes.ensure('secrets', secretManifest(game));
    await this.kubernetes.ensure('persistentvolumeclaims', worldClaimManifest(game, this.options.worldSize ?? '2Gi'));
    await this.kubernetes.applyConfigMap(listsManifest(game));
  }

  /** The GameServer of a game, as the itzg image wants its settings. */
  gameServerManifest(game: GameSpec) {
    return gameServerManifest(game, this.manifests);
  }

  /** A stopped game's world operation on a world pod, after the game's earlier ones; its start waits for it. */
  private onWorldPod(game: GameSpec, operation: 'backup' | 'restore', body: object, onProgress?: (fraction: number) => void): Promise<Record<string, unknown>> {
    return this.worlds.run(game.id, () => this.agents.onWorldPod(game, () => this.password(game), operation, body, onProgress));
  }

  async start(game: GameSpec): Promise<void> {
    // A backup or restore of the stopped world finishes before a server takes its volume.
    await this.worlds.start(game.id, async () => {
      const n = namesOf(game);
      await this.provision(game);
      const existing = await this.kubernetes.getOrNull<GameServer>('gameservers', n.gameServer);
      if (existing && aliveStates.has(existing.status?.state ?? 'Creating')) return;
      // A GameServer whose server ended (Shutdown, Unhealthy, Error) is not restarted by Agones.
      if (existing) await this.kubernetes.deleteIfExists('gameservers', n.gameServer);
      await this.kubernetes.create('gameservers', this.gameServerManifest(game));
      this.logs.follow(game);
    });
  }

  async stop(game: GameSpec): Promise<void> {
    const n = namesOf(game);
    const gs = await this.kubernetes.getOrNull<GameServer>('gameservers', n.gameServer);
    if (!gs) return;
    if (readyStates.has(gs.status?.state ?? '')) {
      try {
        await rconCommands(await this.rconTarget(game, gs), ['stop']);
        // The server saves and exits; the container ending takes the GameServer out of Ready.
        const until = Date.now() + (this.options.stopTimeoutMs ?? 60_000);
        while (Date.now() < until) {
          const now = await this.kubernetes.getOrNull<GameServer>('gameservers', n.gameServer);
          if (!now || !readyStates.has(now.status?.state ?? '')) break;
          await new Promise((r) => setTimeout(r, 1000));
        }
      } catch {
        // Unreachable over RCON: the pod's own termination (SIGTERM) makes the image save the world.
      }
    }
    await this.kubernetes.deleteIfExists('gameservers', n.gameServer);
  }

  async gatewayTarget(game: Pick<GameSpec, 'id'>): Promise<{ host: string; port: number } | null> {
    const gs = await this.kubernetes.watchedGameServer(namesOf(game).gameServer);
    return gs && readyStates.has(gs.status?.state ?? '') ? this.publicAddress(gs) : null;
  }

  async observe(game: GameSpec): Promise<Observed> {
    const base = { playersOnline: 0, maxPlayers: game.maxPlayers, players: [], version: null, motd: null, address: null };
    const gs = await this.kubernetes.watchedGameServer(namesOf(game).gameServer);
    const state = gs?.status?.state;
    if (!gs || state === 'Shutdown') return { ...base, status: 'STOPPED' };
    if (aliveStates.has(state ?? 'Creating')) this.logs.follow(game);
    if (state === 'Unhealthy' || state === 'Error') return { ...base, status: 'CRASHED', reason: `GameServer ${gs.metadata.name} is ${state}` };
    if (!readyStates.has(state ?? '')) return { ...base, status: 'STARTING' };
    const address = this.publicAddress(gs);
    if (!address) return { ...base, status: 'STARTING' };
    const [status, list] = await Promise.allSettled([pingServer(address.host, address.port), this.rconTarget(game, gs).then((t) => rconCommands(t, ['list']))]);
    if (status.status === 'rejected' || list.status === 'rejected') return { ...base, status: 'STARTING' };
    const players = parseList(list.value[0] ?? '');
    return {
      status: 'RUNNING',
      // The count that goes with the names: a ping may still count a client being refused.
      playersOnline: players?.online ?? status.value.online,
      maxPlayers: status.value.max,
      players: players?.players ?? [],
      version: status.value.version,
      motd: status.value.motd,
      address: `${address.host}:${address.port}`,
    };
  }

  async rcon(game: GameSpec, command: string): Promise<string> {
    const gs = await this.kubernetes.getOrNull<GameServer>('gameservers', namesOf(game).gameServer);
    if (!gs || !readyStates.has(gs.status?.state ?? '')) throw new Error(`game ${game.id} is not running`);
    const [answer] = await rconCommands(await this.rconTarget(game, gs), [command]);
    return answer ?? '';
  }

  /**
   * Running: saves paused (`save-off`), everything flushed (`save-all flush`), the GameServer's
   * agent zips the world, saves resumed (`save-on`) whatever happened; players stay connected.
   * Stopped: a world pod's agent zips it. Either way the bytes go from the volume to the URL.
   */
  async backup(game: GameSpec, location: ObjectLocation, onProgress?: (fraction: number) => void): Promise<ArchiveResult> {
    this.checkWorldAccess(game, 'backup', location);
    const gs = await this.liveGameServer(game);
    if (!gs) {
      // A game never provisioned has no volume, so no world: no pod is worth starting for it.
      if (!(await this.kubernetes.getOrNull('persistentvolumeclaims', namesOf(game).world))) throw new NoWorldError(game.id);
      const answer = await this.onWorldPod(game, 'backup', { location }, onProgress);
      return { sizeBytes: Number(answer.sizeBytes), sha256: String(answer.sha256) };
    }
    const state = gs.status?.state ?? 'Creating';
    if (!readyStates.has(state)) throw new Error(`game ${game.id} is ${state}: back it up once it runs or is stopped`);
    if (!gs.spec?.template?.spec?.containers?.some((c) => c.name === 'world-agent')) {
      throw new Error(`game ${game.id} runs without the world agent (started before AGONES_TOOL_IMAGE was set): back it up once it restarted or stopped`);
    }
    const target = await this.rconTarget(game, gs);
    let answer: Record<string, unknown>;
    try {
      // Vanilla answers `save-all flush` once every chunk is written: then the files hold it all.
      await rconCommands(target, ['save-off', 'save-all flush'], flushTimeoutMs);
      answer = await this.agents.call(game, target.host, target.password, 'backup', { location }, onProgress);
    } catch (err) {
      await this.resumeSaves(game, target).catch(() => {});
      throw err;
    }
    await this.resumeSaves(game, target);
    return { sizeBytes: Number(answer.sizeBytes), sha256: String(answer.sha256) };
  }

  /** Only a stopped world is replaced, by a world pod's agent, once the zip passed every check. */
  async restore(game: GameSpec, location: ObjectLocation, maxArchiveBytes: number): Promise<void> {
    this.checkWorldAccess(game, 'restore', location);
    if (await this.liveGameServer(game)) throw new Error(`game ${game.id} is running: stop it before a restore`);
    // A world may be restored into a game that never ran: its volume and secret are made first.
    await this.provision(game);
    await this.onWorldPod(game, 'restore', { location, maxArchiveBytes });
  }

  /** What no call to the cluster can change: the agent's image is known, the location reachable. */
  private checkWorldAccess(game: GameSpec, operation: string, location: ObjectLocation) {
    if (!this.options.toolImage) throw new UnsupportedError(`game ${game.id}: a ${operation} on Agones needs the world agent's image (AGONES_TOOL_IMAGE)`);
    if (location.kind !== 'url') throw new UnsupportedError(`game ${game.id}: a ${operation} on Agones needs BACKUP_STORE=s3, as a pod cannot reach this process's files`);
  }

  /**
   * The `minecraft` container's usage from the metrics API (metrics-server): its CPU is already an
   * average over the kubelet's last window, its memory the working set. Null when the pod has no
   * metrics (not running, just started, or no metrics-server in the cluster).
   */
  async usage(game: GameSpec): Promise<ResourceUsage | null> {
    const metrics = await this.kubernetes.podMetrics(namesOf(game).gameServer);
    const server = metrics?.containers?.find((c) => c.name === 'minecraft');
    if (!server?.usage?.cpu || !server.usage.memory) return null;
    return { memoryBytes: quantity(server.usage.memory), cpuCores: quantity(server.usage.cpu) };
  }

  /** The game's GameServer unless there is none or it is going away (its pod saving and ending). */
  private async liveGameServer(game: GameSpec): Promise<GameServer | null> {
    const gs = await this.kubernetes.getOrNull<GameServer>('gameservers', namesOf(game).gameServer);
    return gs && !gs.metadata.deletionTimestamp && gs.status?.state !== 'Shutdown' ? gs : null;
  }

  /** `save-on`, tried again a few times: a server left with its saves off loses what players do. */
  private async resumeSaves(game: GameSpec, target: RconTarget): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await rconCommands(target, ['save-on']);
        return;
      } catch (err) {
        if (attempt === 3) throw new Error(`game ${game.id}: its saves could not be resumed (save-on): ${(err as Error).message}`, { cause: err });
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  async remove(game: GameSpec): Promise<void> {
    const n = namesOf(game);
    await this.stop(game);
    // A world pod would keep the volume from being deleted.
    await this.kubernetes.deleteIfExists('pods', n.worldPod);
    await this.kubernetes.deleteIfExists('configmaps', n.lists);
    await this.kubernetes.deleteIfExists('persistentvolumeclaims', n.world);
    await this.kubernetes.deleteIfExists('secrets', n.secret);
    this.passwords.delete(game.id);
    this.logs.stop(game);
    this.consoles.forget(game);
    fs.rmSync(consoleFolder(this.options.consoleDir, game), { recursive: true, force: true });
  }

  /** The cluster keeps the servers running; only the log follows and idle API connections are this process's. */
  async close(): Promise<void> {
    this.logs.close();
    this.kubernetes.close();
  }

  private publicAddress(gs: GameServer): { host: string; port: number } | null {
    const port = gs.status?.ports?.find((p) => p.name === 'minecraft')?.port;
    const host = gs.status?.address;
    return host && port ? { host, port } : null;
  }

  private async rconTarget(game: Pick<GameSpec, 'id'>, gs: GameServer): Promise<RconTarget> {
    const host = gs.status?.addresses?.find((a) => a.type === 'PodIP')?.address;
    if (!host) throw new Error(`GameServer ${gs.metadata.name} has no pod IP yet`);
    return { host, port: this.manifests.rconPort, password: await this.password(game) };
  }

  /** The game's RCON password, which is also its world agent's token. */
  private async password(game: Pick<GameSpec, 'id'>): Promise<string> {
    let password = this.passwords.get(game.id);
    if (!password) {
      const secret = await this.kubernetes.get<{ data?: { password?: string } }>('secrets', namesOf(game).secret);
      if (!secret.data?.password) throw new Error(`secret ${namesOf(game).secret} has no password`);
      password = Buffer.from(secret.data.password, 'base64').toString('utf8');
      this.passwords.set(game.id, password);
    }
    return password;
  }
}
