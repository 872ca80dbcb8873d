import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { agentDefaultPort, agentErrors, heartbeatMs } from './agones/agent-protocol.ts';
import { NoWorldError, UnsupportedError, type GameDriver, type GameSpec, type ObjectLocation, type Observed, type ResourceUsage } from './driver.ts';
import { classify } from './console-log.ts';
import { GameConsoles } from './consoles.ts';
import { jsonLineReader, lineSplitter } from './lines.ts';
import { newEntry, type ListName } from './minecraft/player-lists.ts';
import { parseList, pingServer, rconCommands, type RconTarget } from './minecraft/probe.ts';
import { WorldQueue } from './world-queue.ts';
import { WorldArchiveError, type ArchiveResult, type WorldArchiveCode } from './minecraft/world-archive.ts';

/**
 * The `agones` driver: one Agones `GameServer` per game on Kubernetes, running the
 * itzg/minecraft-server image, with beside it the game's objects, kept between runs:
 * - a Secret `blockhost-<id>-rcon` with the RCON password,
 * - a PersistentVolumeClaim `blockhost-<id>-world` mounted on `/data` (the world),
 * - a ConfigMap `blockhost-<id>-lists` with the three vanilla player lists, copied into `/data` by
 *   an init container at each start, so lists written before the start apply.
 * The image knows nothing of Agones, so a sidecar marks the GameServer Ready and healthy through
 * the Agones SDK's REST port once the server answers `mc-health`.
 *
 * The cluster runs the servers, not this process: `close()` leaves them be, and after an API
 * restart `observe` finds them again by name. RCON is reached on the pod's IP, inside the cluster.
 *
 * Backups and restores are done by the world agent (agones/world-agent.ts, the `toolImage`) where
 * the world is, writing to or reading from the presigned URL it is handed: a running server's
 * GameServer has it as a sidecar, and a stopped game's volume gets a short-lived Pod
 * `blockhost-<id>-world` running it.
 */
export interface KubernetesOptions {
  /** Kubernetes API base URL, e.g. https://kubernetes.default.svc. */
  apiUrl: string;
  /** Bearer token; else read from `tokenFile` at each call, as projected tokens rotate. */
  token?: string;
  tokenFile?: string;
  /**
   * PEM file of the CA(s) the API's certificate is checked against instead of Node's public roots,
   * e.g. the service account's `ca.crt`: a cluster signs its API certificate with its own CA.
   */
  caFile?: string;
  namespace: string;
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

interface ObjectMeta {
  name: string;
  labels?: Record<string, string>;
  resourceVersion?: string;
  deletionTimestamp?: string;
}
interface GameServer {
  metadata: ObjectMeta;
  spec?: { template?: { spec?: { containers?: Array<{ name: string }> } } };
  status?: {
    state?: string;
    address?: string;
    addresses?: Array<{ type: string; address: string }>;
    ports?: Array<{ name: string; port: number }>;
  };
}

/** How long a log follow waits before asking again (no pod yet, or the log ended). */
const logRetryMs = 1000;

/**
 * A log line's time stamp as a key that sorts as the times do: the kubelet writes RFC 3339 with
 * up to nine fraction digits and drops trailing zeros, so the fraction is padded.
 */
function stampKey(stamp: string): string {
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(stamp);
  return match ? `${match[1]}.${(match[2] ?? '').padEnd(9, '0')}` : '';
}

/** Kubernetes' answer to a failed call, with its `Status` body. */
/** A pod's entry in the metrics API (metrics.k8s.io/v1beta1 PodMetrics). */
interface PodMetrics {
  containers?: Array<{ name: string; usage?: { cpu?: string; memory?: string } }>;
}

const quantitySuffixes: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };

/** A Kubernetes quantity ("250m", "123456789n", "524288Ki", "1Gi") as a number. */
function quantity(text: string): number {
  const match = /^([0-9.]+)([a-zA-Z]*)$/.exec(text.trim());
  const factor = match ? quantitySuffixes[match[2]!] : undefined;
  if (!match || factor === undefined) throw new Error(`"${text}" is not a Kubernetes quantity`);
  return Number(match[1]) * factor;
}

class KubernetesError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** What a stalled connection may hold a call (and the reconciler waiting on it) for. */
const requestTimeoutMs = 30_000;
/** Node's codes for a certificate chain it found no trusted CA for (not an expired or misnamed one). */
const untrustedCertificate = /^(UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_UNTRUSTED)$/;

const gamePort = 25565;
const heapShare = 0.75;
/** States where the GameServer's pod is up or coming up. */
const aliveStates = new Set(['PortAllocation', 'Creating', 'Starting', 'Scheduled', 'RequestReady', 'Ready', 'Reserved', 'Allocated']);
const readyStates = new Set(['Ready', 'Reserved', 'Allocated']);
/** The itzg image runs the server as 1000:1000: a restored world must be that user's to be saved. */
const serverUser = 1000;
/** A flush of a big world is slow, and vanilla answers `save-all flush` only once it is done. */
const flushTimeoutMs = 300_000;
/** The world agent's script in the tool image, whose working directory is the repository's root. */
const worldAgentScript = new URL('./agones/world-agent.ts', import.meta.url).href.slice(new URL('../../', import.meta.url).href.length);
/** A world pod a crashed API left behind ends by itself, and gives its volume back. */
const worldPodDeadlineSeconds = 3 * 3600;

interface Pod {
  metadata: ObjectMeta;
  status?: {
    phase?: string;
    podIP?: string;
    containerStatuses?: Array<{ state?: { terminated?: { exitCode?: number; reason?: string; message?: string } } }>;
  };
}

/** The Kubernetes names of a game's objects, all from `blockhost-<id>`. */
function namesOf(game: Pick<GameSpec, 'id'>) {
  const base = `blockhost-${game.id.toLowerCase()}`;
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(base) || base.length > 50) {
    throw new Error(`game id "${game.id}" is invalid: expected at most 40 letters, digits or "-"`);
  }
  return { gameServer: base, secret: `${base}-rcon`, world: `${base}-world`, lists: `${base}-lists`, worldPod: `${base}-world` };
}

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
  private readonly passwords = new Map<string, string>();
  /** Where each game's server log goes. */
  private readonly consoles: GameConsoles;
  /** The log follows under way, by game, with what stops each. */
  private readonly logFollows = new Map<string, () => void>();
  /** A stopped game's backups and restores, one at a time, which its start waits for. */
  private readonly worlds = new WorldQueue();
  /**
   * Carries every HTTPS call, with the cluster's CA when given. node:https rather than fetch: giving
   * fetch a CA takes an undici Agent, and undici is not a dependency here.
   */
  private readonly agent: https.Agent;

  constructor(options: KubernetesOptions) {
    if (!/^https?:\/\//.test(options.apiUrl)) throw new Error(`Kubernetes API URL "${options.apiUrl}" is invalid: expected http(s)://...`);
    if (!options.token && !options.tokenFile) throw new Error('the agones driver needs a Kubernetes token or token file');
    let ca: Buffer | undefined;
    if (options.caFile) {
      try {
        ca = fs.readFileSync(options.caFile);
      } catch (err) {
        throw new Error(`the Kubernetes CA file ${options.caFile} cannot be read: ${(err as Error).message}`, { cause: err });
      }
    }
    this.options = { ...options, apiUrl: options.apiUrl.replace(/\/+$/, '') };
    this.consoles = options.consoles ?? agonesConsoles(options.consoleDir);
    this.agent = new https.Agent({ keepAlive: true, ...(ca ? { ca } : {}) });
  }

  private names(game: Pick<GameSpec, 'id'>) {
    return namesOf(game);
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const token = this.options.token ?? fs.readFileSync(this.options.tokenFile!, 'utf8').trim();
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${token}`, accept: 'application/json' };
    if (payload !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
    let res: { status: number; text: string };
    try {
      res = await this.send(method, new URL(`${this.options.apiUrl}${path}`), headers, payload);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      const untrusted = untrustedCertificate.test(code);
      // Node's own hint for these (try --use-system-ca) does not apply to a cluster's private CA.
      const reason = untrusted ? (err as Error).message.split(';')[0]! : (err as Error).message;
      const hint = untrusted ? "; the API's certificate is not trusted: is the cluster's CA given (KUBERNETES_CA_FILE)?" : '';
      throw new Error(`Kubernetes ${method} ${path}: ${reason}${code ? ` (${code})` : ''}${hint}`, { cause: err });
    }
    const parsed: unknown = res.text ? JSON.parse(res.text) : {};
    if (res.status < 200 || res.status > 299) {
      const message = (parsed as { message?: string }).message ?? res.text;
      throw new KubernetesError(res.status, `Kubernetes ${method} ${path}: ${res.status} ${message}`);
    }
    return parsed as T;
  }

  /** One HTTP(S) exchange: the status and body of the answer. */
  private send(method: string, url: URL, headers: http.OutgoingHttpHeaders, payload?: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const options = { method, headers, timeout: requestTimeoutMs };
      const onAnswer = (res: http.IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      };
      const req = url.protocol === 'https:' ? https.request(url, { ...options, agent: this.agent }, onAnswer) : http.request(url, options, onAnswer);
      req.on('timeout', () => req.destroy(new Error(`no answer within ${requestTimeoutMs / 1000} s`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  private core(kind: 'secrets' | 'configmaps' | 'persistentvolumeclaims' | 'pods', name?: string) {
    return `/api/v1/namespaces/${this.options.namespace}/${kind}${name ? `/${name}` : ''}`;
  }

  private gameServers(name?: string) {
    return `/apis/agones.dev/v1/namespaces/${this.options.namespace}/gameservers${name ? `/${name}` : ''}`;
  }

  /** Creates an object unless one of that name exists. */
  private async ensure(path: string, object: { metadata: ObjectMeta }): Promise<void> {
    try {
      await this.request('POST', path, object);
    } catch (err) {
      if (!(err instanceof KubernetesError && err.status === 409)) throw err;
    }
  }

  private async getOrNull<T>(path: string): Promise<T | null> {
    try {
      return await this.request<T>('GET', path);
    } catch (err) {
      if (err instanceof KubernetesError && err.status === 404) return null;
      throw err;
    }
  }

  private async deleteIfExists(path: string): Promise<void> {
    try {
      await this.request('DELETE', path);
    } catch (err) {
      if (!(err instanceof KubernetesError && err.status === 404)) throw err;
    }
  }

  private labels(game: Pick<GameSpec, 'id'>) {
    return { 'app.kubernetes.io/managed-by': 'blockhost', 'blockhost.io/game': game.id.toLowerCase() };
  }

  async provision(game: GameSpec): Promise<void> {
    const n = this.names(game);
    const labels = this.labels(game);
    await this.ensure(this.core('secrets'), {
      metadata: { name: n.secret, labels },
      type: 'Opaque',
      data: { password: Buffer.from(crypto.randomBytes(24).toString('base64url')).toString('base64') },
    } as { metadata: ObjectMeta });
    await this.ensure(this.core('persistentvolumeclaims'), {
      metadata: { name: n.world, labels },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: this.options.worldSize ?? '2Gi' } } },
    } as { metadata: ObjectMeta });
    const file = (list: ListName, names: string[]) =>
      `${JSON.stringify(
        names.map((name) => newEntry(list, name)),
        null,
        2,
      )}\n`;
    const lists = {
      metadata: { name: n.lists, labels },
      data: { 'whitelist.json': file('whitelist', game.whitelist), 'ops.json': file('ops', game.ops), 'banned-players.json': file('banned', game.banned) },
      // The server icon (a 64×64 PNG, base64) travels with the lists: itzg's ICON wants a URL the
      // pod can reach, while a server-icon.png already in /data is what the server shows.
      ...(game.icon ? { binaryData: { 'server-icon.png': game.icon } } : {}),
    };
    try {
      await this.request('POST', this.core('configmaps'), lists);
    } catch (err) {
      if (!(err instanceof KubernetesError && err.status === 409)) throw err;
      await this.request('PUT', this.core('configmaps', n.lists), lists);
    }
  }

  /** The GameServer of a game, as the itzg image wants its settings. */
  gameServerManifest(game: GameSpec) {
    const n = this.names(game);
    const image = this.options.image;
    const rconPort = this.options.rconPort ?? 25575;
    const upper = (v: boolean) => (v ? 'TRUE' : 'FALSE');
    const env = [
      { name: 'EULA', value: 'TRUE' },
      { name: 'VERSION', value: game.version },
      { name: 'MEMORY', value: `${Math.max(Math.floor(game.ramMb * heapShare), 256)}M` },
      { name: 'MOTD', value: game.motd },
      { name: 'MAX_PLAYERS', value: String(game.maxPlayers) },
      { name: 'MODE', value: game.gameMode },
      // The game's mode is everyone's, as on flying-squid: a player who comes back plays it too.
      { name: 'FORCE_GAMEMODE', value: 'TRUE' },
      { name: 'DIFFICULTY', value: game.difficulty },
      ...(game.seed ? [{ name: 'SEED', value: game.seed }] : []),
      ...(game.levelType ? [{ name: 'LEVEL_TYPE', value: game.levelType.toUpperCase() }] : []),
      ...(game.pvp === undefined ? [] : [{ name: 'PVP', value: upper(game.pvp) }]),
      ...(game.viewDistance === undefined ? [] : [{ name: 'VIEW_DISTANCE', value: String(game.viewDistance) }]),
      ...(game.spawnProtection === undefined ? [] : [{ name: 'SPAWN_PROTECTION', value: String(game.spawnProtection) }]),
      ...(game.allowFlight === undefined ? [] : [{ name: 'ALLOW_FLIGHT', value: upper(game.allowFlight) }]),
      { name: 'ONLINE_MODE', value: 'FALSE' },
      { name: 'ENABLE_WHITELIST', value: upper(game.whitelistEnabled) },
      { name: 'ENFORCE_WHITELIST', value: upper(game.whitelistEnabled) },
      { name: 'ENABLE_RCON', value: 'TRUE' },
      { name: 'RCON_PORT', value: String(rconPort) },
      { name: 'RCON_PASSWORD', valueFrom: { secretKeyRef: { name: n.secret, key: 'password' } } },
    ];
    const sdk = 'http://localhost:${AGONES_SDK_HTTP_PORT:-9358}';
    const post = (what: string) => `curl -fsS -X POST -H 'Content-Type: application/json' -d '{}' ${sdk}/${what} >/dev/null`;
    return {
      apiVersion: 'agones.dev/v1',
      kind: 'GameServer',
      metadata: { name: n.gameServer, labels: this.labels(game) },
      spec: {
        container: 'minecraft',
        ports: [{ name: 'minecraft', portPolicy: 'Dynamic', containerPort: gamePort, protocol: 'TCP', container: 'minecraft' }],
        health: { initialDelaySeconds: 180, periodSeconds: 15, failureThreshold: 4 },
        template: {
          metadata: { labels: this.labels(game) },
          spec: {
            // On deletion the image turns SIGTERM into a `stop`: leave it time to save the world.
            terminationGracePeriodSeconds: 90,
            initContainers: [
              {
                name: 'player-lists',
                image,
                // The icon too, or none once its owner removed it.
                command: ['sh', '-c', 'cp /lists/*.json /data/ && if [ -f /lists/server-icon.png ]; then cp /lists/server-icon.png /data/; else rm -f /data/server-icon.png; fi'],
                volumeMounts: [
                  { name: 'world', mountPath: '/data' },
                  { name: 'lists', mountPath: '/lists' },
                ],
              },
            ],
            containers: [
              {
                name: 'minecraft',
                image,
                env,
                resources: { requests: { memory: `${game.ramMb}Mi` }, limits: { memory: `${game.ramMb}Mi` } },
                volumeMounts: [{ name: 'world', mountPath: '/data' }],
              },
              {
                name: 'agones-ready',
                image,
                command: ['sh', '-c', `until mc-health; do sleep 5; done; ${post('ready')}; while sleep 10; do mc-health && ${post('health')}; done`],
                resources: { requests: { memory: '32Mi' }, limits: { memory: '64Mi' } },
              },
              // Backs the world up while it runs; never restores under the running server.
              ...(this.options.toolImage ? [this.worldAgent(game, true)] : []),
            ],
            volumes: [
              { name: 'world', persistentVolumeClaim: { claimName: n.world } },
              { name: 'lists', configMap: { name: n.lists } },
            ],
          },
        },
      },
    };
  }

  /** The world agent's container, on the game's volume, its token the game's RCON password. */
  private worldAgent(game: GameSpec, readOnly: boolean) {
    const n = this.names(game);
    return {
      name: 'world-agent',
      image: this.options.toolImage,
      command: ['node', '--max-old-space-size=256', worldAgentScript],
      env: [
        { name: 'WORLD_AGENT_PORT', value: String(this.agentPort()) },
        { name: 'WORLD_AGENT_TOKEN', valueFrom: { secretKeyRef: { name: n.secret, key: 'password' } } },
        { name: 'WORLD_DIR', value: '/data' },
        ...(readOnly ? [{ name: 'WORLD_AGENT_READ_ONLY', value: 'true' }] : []),
      ],
      ports: [{ name: 'world-agent', containerPort: this.agentPort(), protocol: 'TCP' }],
      // A failed agent's last words become its status' message, which the driver reports.
      terminationMessagePolicy: 'FallbackToLogsOnError',
      securityContext: { runAsUser: serverUser, runAsGroup: serverUser },
      // It streams: memory stays flat whatever the world's size.
      resources: { requests: { memory: '64Mi' }, limits: { memory: '384Mi' } },
      volumeMounts: [{ name: 'world', mountPath: '/data' }],
    };
  }

  private agentPort() {
    return this.options.agentPort ?? agentDefaultPort;
  }

  /** The short-lived Pod that runs the world agent on a stopped game's volume. */
  private worldPodManifest(game: GameSpec) {
    const n = this.names(game);
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: n.worldPod, labels: this.labels(game) },
      spec: {
        restartPolicy: 'Never',
        activeDeadlineSeconds: worldPodDeadlineSeconds,
        terminationGracePeriodSeconds: 10,
        // A volume no server ran on yet is root's: the group makes it the agent's to restore into.
        securityContext: { fsGroup: serverUser },
        containers: [this.worldAgent(game, false)],
        volumes: [{ name: 'world', persistentVolumeClaim: { claimName: n.world } }],
      },
    };
  }

  async start(game: GameSpec): Promise<void> {
    // A backup or restore of the stopped world finishes before a server takes its volume.
    await this.worlds.start(game.id, async () => {
      const n = this.names(game);
      await this.provision(game);
      const existing = await this.getOrNull<GameServer>(this.gameServers(n.gameServer));
      if (existing && aliveStates.has(existing.status?.state ?? 'Creating')) return;
      // A GameServer whose server ended (Shutdown, Unhealthy, Error) is not restarted by Agones.
      if (existing) await this.deleteIfExists(this.gameServers(n.gameServer));
      await this.request('POST', this.gameServers(), this.gameServerManifest(game));
      this.followLog(game);
    });
  }

  async stop(game: GameSpec): Promise<void> {
    const n = this.names(game);
    const gs = await this.getOrNull<GameServer>(this.gameServers(n.gameServer));
    if (!gs) return;
    if (readyStates.has(gs.status?.state ?? '')) {
      try {
        await rconCommands(await this.rconTarget(game, gs), ['stop']);
        // The server saves and exits; the container ending takes the GameServer out of Ready.
        const until = Date.now() + (this.options.stopTimeoutMs ?? 60_000);
        while (Date.now() < until) {
          const now = await this.getOrNull<GameServer>(this.gameServers(n.gameServer));
          if (!now || !readyStates.has(now.status?.state ?? '')) break;
          await new Promise((r) => setTimeout(r, 1000));
        }
      } catch {
        // Unreachable over RCON: the pod's own termination (SIGTERM) makes the image save the world.
      }
    }
    await this.deleteIfExists(this.gameServers(n.gameServer));
  }

  async observe(game: GameSpec): Promise<Observed> {
    const base = { playersOnline: 0, maxPlayers: game.maxPlayers, players: [], version: null, motd: null, address: null };
    const gs = await this.getOrNull<GameServer>(this.gameServers(this.names(game).gameServer));
    const state = gs?.status?.state;
    if (!gs || state === 'Shutdown') return { ...base, status: 'STOPPED' };
    if (aliveStates.has(state ?? 'Creating')) this.followLog(game);
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
    const gs = await this.getOrNull<GameServer>(this.gameServers(this.names(game).gameServer));
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
      if (!(await this.getOrNull(this.core('persistentvolumeclaims', this.names(game).world)))) throw new NoWorldError(game.id);
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
      answer = await this.callAgent(game, target.host, target.password, 'backup', { location }, onProgress);
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
    const path = `/apis/metrics.k8s.io/v1beta1/namespaces/${this.options.namespace}/pods/${this.names(game).gameServer}`;
    const metrics = await this.getOrNull<PodMetrics>(path);
    const server = metrics?.containers?.find((c) => c.name === 'minecraft');
    if (!server?.usage?.cpu || !server.usage.memory) return null;
    return { memoryBytes: quantity(server.usage.memory), cpuCores: quantity(server.usage.cpu) };
  }

  /**
   * Follows the `minecraft` container's log (`follow=true`, with the kubelet's time stamps) while
   * the game's GameServer lives, and numbers its lines into the game's console. A log that ends
   * while the GameServer lives (the container restarted, the API's connection dropped) is asked
   * again from the last line's time stamp, lines up to that one skipped, so none is taken twice.
   * Started by `start`, and by `observe` after this process restarted.
   */
  private followLog(game: Pick<GameSpec, 'id'>) {
    if (this.logFollows.has(game.id)) return;
    const n = this.names(game);
    const output = this.consoles.of(game);
    const last = output.last;
    // After a restart the last line's own time stands for the kubelet's stamp: kept to the
    // millisecond, so lines of that millisecond count as taken (a later one there would be lost).
    let lastStamp = last ? `${stampKey(last.at).slice(0, -6)}999999` : '';
    let request: http.ClientRequest | undefined;
    let stopped = false;
    const stop = () => {
      stopped = true;
      request?.destroy();
    };
    this.logFollows.set(game.id, stop);
    const follow = async () => {
      while (!stopped) {
        const gs = await this.getOrNull<GameServer>(this.gameServers(n.gameServer)).catch(() => undefined);
        if (gs === null || (gs && !aliveStates.has(gs.status?.state ?? 'Creating'))) break;
        const since = lastStamp ? `&sinceTime=${encodeURIComponent(`${lastStamp.slice(0, 19)}Z`)}` : '';
        const lines = lineSplitter((raw) => {
          const space = raw.indexOf(' ');
          const stamp = stampKey(raw.slice(0, space));
          if (space < 0 || stamp <= lastStamp) return;
          lastStamp = stamp;
          const { level, text } = classify(raw.slice(space + 1), 'stdout');
          output.write(level, text, Date.parse(raw.slice(0, space)));
        });
        await new Promise<void>((resolve) => {
          const url = new URL(`${this.options.apiUrl}${this.core('pods', n.gameServer)}/log?container=minecraft&follow=true&timestamps=true${since}`);
          const token = this.options.token ?? fs.readFileSync(this.options.tokenFile!, 'utf8').trim();
          const options = { headers: { authorization: `Bearer ${token}`, accept: '*/*' } };
          const onAnswer = (res: http.IncomingMessage) => {
            // No pod or no container yet (400, 404): asked again below.
            if (res.statusCode !== 200) res.resume();
            else res.on('data', (chunk: Buffer) => lines.push(chunk));
            res.on('end', resolve);
            res.on('error', () => resolve());
          };
          request = url.protocol === 'https:' ? https.get(url, { ...options, agent: this.agent }, onAnswer) : http.get(url, options, onAnswer);
          request.on('error', () => resolve());
        });
        lines.end();
        if (!stopped) await new Promise((r) => setTimeout(r, logRetryMs));
      }
      if (this.logFollows.get(game.id) === stop) this.logFollows.delete(game.id);
    };
    void follow();
  }

  /** The game's GameServer unless there is none or it is going away (its pod saving and ending). */
  private async liveGameServer(game: GameSpec): Promise<GameServer | null> {
    const gs = await this.getOrNull<GameServer>(this.gameServers(this.names(game).gameServer));
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

  /**
   * Runs one call of the world agent on a pod of its own with the game's volume, one per game at a
   * time, and deletes the pod afterwards whatever happened.
   */
  private onWorldPod(game: GameSpec, operation: 'backup' | 'restore', body: object, onProgress?: (fraction: number) => void): Promise<Record<string, unknown>> {
    return this.worlds.run(game.id, async () => {
      const path = this.core('pods', this.names(game).worldPod);
      // One left by a crashed API: its name is the one needed.
      await this.deleteAndWait(path);
      await this.request('POST', this.core('pods'), this.worldPodManifest(game));
      try {
        const host = await this.podIp(game, path);
        return await this.callAgent(game, host, await this.password(game), operation, body, onProgress);
      } finally {
        await this.deleteIfExists(path);
      }
    });
  }

  private async deleteAndWait(path: string): Promise<void> {
    if (!(await this.getOrNull(path))) return;
    await this.deleteIfExists(path);
    const until = Date.now() + (this.options.worldPodTimeoutMs ?? 180_000);
    while (await this.getOrNull(path)) {
      if (Date.now() > until) throw new Error(`${path} is still being deleted`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  /**
   * Waits for the world pod's agent to answer, with a bound: an image that cannot be pulled or a
   * volume still held must not hang a backup. A container is Running before it listens, and may
   * end instead: the pod's status says why.
   */
  private async podIp(game: GameSpec, path: string): Promise<string> {
    const timeoutMs = this.options.worldPodTimeoutMs ?? 180_000;
    const until = Date.now() + timeoutMs;
    for (;;) {
      const pod = await this.getOrNull<Pod>(path);
      if (!pod) throw new Error(`the world pod of game ${game.id} was deleted before it ran`);
      const phase = pod.status?.phase ?? 'Pending';
      let waiting = phase;
      if (phase === 'Running' && pod.status?.podIP) {
        const unhealthy = await this.agentHealth(pod.status.podIP);
        if (!unhealthy) return pod.status.podIP;
        waiting = `Running, its agent: ${unhealthy}`;
      }
      if (phase === 'Failed' || phase === 'Succeeded') {
        const ended = pod.status?.containerStatuses?.[0]?.state?.terminated;
        throw new Error(`the world pod of game ${game.id} ended (${phase}${ended ? `, exit code ${ended.exitCode}: ${(ended.message ?? ended.reason ?? '').trim()}` : ''})`);
      }
      if (Date.now() > until) throw new Error(`the world pod of game ${game.id} is not serving after ${timeoutMs / 1000} s (${waiting}): is AGONES_TOOL_IMAGE pullable and the volume free?`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  private agentUrl(host: string, path: string): URL {
    return new URL(`http://${host.includes(':') ? `[${host}]` : host}:${this.agentPort()}${path}`);
  }

  /** Why the agent at `host` does not answer its health check, or null when it does. */
  private async agentHealth(host: string): Promise<string | null> {
    try {
      const { status } = await this.agentExchange('GET', this.agentUrl(host, '/healthz'), {}, () => {});
      return status === 200 ? null : `answered ${status}`;
    } catch (err) {
      return (err as Error).message;
    }
  }

  /**
   * Calls the agent at `host` once it answers (a sidecar the pod restarted takes a moment). Its
   * answer ends with the result or `{ error, detail }`: a WorldArchiveError keeps its code, a
   * missing world is a NoWorldError.
   */
  private async callAgent(game: GameSpec, host: string, token: string, operation: 'backup' | 'restore', body: object, onProgress?: (fraction: number) => void): Promise<Record<string, unknown>> {
    const until = Date.now() + (this.options.worldPodTimeoutMs ?? 180_000);
    for (;;) {
      const unhealthy = await this.agentHealth(host);
      if (!unhealthy) break;
      if (Date.now() > until) throw new Error(`the world agent of game ${game.id} does not answer at ${this.agentUrl(host, '').host}: ${unhealthy}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const payload = JSON.stringify(body);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) };
    let answer: Record<string, unknown> | undefined;
    const res = await this.agentExchange(
      'POST',
      this.agentUrl(host, `/${operation}`),
      headers,
      (value) => {
        if (typeof value.progress === 'number') onProgress?.(value.progress);
        else answer = value;
      },
      payload,
    );
    if (!answer) throw new Error(`world ${operation} of game ${game.id} failed: the agent answered ${res.status} without a result`);
    if (typeof answer.error !== 'string') return answer;
    const detail = String(answer.detail ?? '');
    if (answer.error === agentErrors.noWorld) throw new NoWorldError(game.id);
    if ((Object.values(agentErrors) as string[]).includes(answer.error)) throw new Error(`world ${operation} of game ${game.id} failed: ${detail}`);
    throw new WorldArchiveError(answer.error as WorldArchiveCode, detail);
  }

  /**
   * One exchange with an agent, in the cluster's network (plain HTTP, a bearer token), each JSON
   * line of its answer handed to `onObject`. The agent sends a line every few seconds while it works, so
   * silence means a dead pod, not a big world.
   */
  private agentExchange(method: string, url: URL, headers: http.OutgoingHttpHeaders, onObject: (value: Record<string, unknown>) => void, payload?: string): Promise<{ status: number }> {
    return new Promise((resolve, reject) => {
      const idleMs = 3 * heartbeatMs;
      const req = http.request(url, { method, headers, timeout: idleMs }, (res) => {
        const lines = jsonLineReader(onObject);
        res.setEncoding('utf8');
        res.on('data', (text: string) => lines.push(text));
        res.on('error', reject);
        res.on('end', () => {
          lines.end();
          resolve({ status: res.statusCode ?? 0 });
        });
      });
      req.on('timeout', () => req.destroy(new Error(`the world agent was silent for ${idleMs / 1000} s`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  async remove(game: GameSpec): Promise<void> {
    const n = this.names(game);
    await this.stop(game);
    // A world pod would keep the volume from being deleted.
    await this.deleteIfExists(this.core('pods', n.worldPod));
    await this.deleteIfExists(this.core('configmaps', n.lists));
    await this.deleteIfExists(this.core('persistentvolumeclaims', n.world));
    await this.deleteIfExists(this.core('secrets', n.secret));
    this.passwords.delete(game.id);
    this.logFollows.get(game.id)?.();
    this.logFollows.delete(game.id);
    this.consoles.forget(game);
    fs.rmSync(consoleFolder(this.options.consoleDir, game), { recursive: true, force: true });
  }

  /** The cluster keeps the servers running; only the idle API connections are this process's. */
  async close(): Promise<void> {
    for (const stop of this.logFollows.values()) stop();
    this.logFollows.clear();
    this.agent.destroy();
  }

  private publicAddress(gs: GameServer): { host: string; port: number } | null {
    const port = gs.status?.ports?.find((p) => p.name === 'minecraft')?.port;
    const host = gs.status?.address;
    return host && port ? { host, port } : null;
  }

  private async rconTarget(game: Pick<GameSpec, 'id'>, gs: GameServer): Promise<RconTarget> {
    const host = gs.status?.addresses?.find((a) => a.type === 'PodIP')?.address;
    if (!host) throw new Error(`GameServer ${gs.metadata.name} has no pod IP yet`);
    return { host, port: this.options.rconPort ?? 25575, password: await this.password(game) };
  }

  /** The game's RCON password, which is also its world agent's token. */
  private async password(game: Pick<GameSpec, 'id'>): Promise<string> {
    let password = this.passwords.get(game.id);
    if (!password) {
      const secret = await this.request<{ data?: { password?: string } }>('GET', this.core('secrets', this.names(game).secret));
      if (!secret.data?.password) throw new Error(`secret ${this.names(game).secret} has no password`);
      password = Buffer.from(secret.data.password, 'base64').toString('utf8');
      this.passwords.set(game.id, password);
    }
    return password;
  }
}
