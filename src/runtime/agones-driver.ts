import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { UnsupportedError, type GameDriver, type GameSpec, type Observed } from './driver.ts';
import { newEntry, type ListName } from './minecraft/player-lists.ts';
import { parseList, pingServer, rconCommands } from './minecraft/probe.ts';

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
}

interface ObjectMeta {
  name: string;
  labels?: Record<string, string>;
  resourceVersion?: string;
}
interface GameServer {
  metadata: ObjectMeta;
  status?: {
    state?: string;
    address?: string;
    addresses?: Array<{ type: string; address: string }>;
    ports?: Array<{ name: string; port: number }>;
  };
}

/** Kubernetes' answer to a failed call, with its `Status` body. */
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

export class AgonesDriver implements GameDriver {
  readonly name = 'agones';
  private readonly options: KubernetesOptions;
  private readonly passwords = new Map<string, string>();
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
    this.agent = new https.Agent({ keepAlive: true, ...(ca ? { ca } : {}) });
  }

  private names(game: Pick<GameSpec, 'id'>) {
    const base = `blockhost-${game.id.toLowerCase()}`;
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(base) || base.length > 50) {
      throw new Error(`game id "${game.id}" is invalid: expected at most 40 letters, digits or "-"`);
    }
    return { gameServer: base, secret: `${base}-rcon`, world: `${base}-world`, lists: `${base}-lists` };
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

  private core(kind: 'secrets' | 'configmaps' | 'persistentvolumeclaims', name?: string) {
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
      { name: 'DIFFICULTY', value: game.difficulty },
      ...(game.seed ? [{ name: 'SEED', value: game.seed }] : []),
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
                command: ['sh', '-c', 'cp /lists/*.json /data/'],
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

  async start(game: GameSpec): Promise<void> {
    const n = this.names(game);
    await this.provision(game);
    const existing = await this.getOrNull<GameServer>(this.gameServers(n.gameServer));
    if (existing && aliveStates.has(existing.status?.state ?? 'Creating')) return;
    // A GameServer whose server ended (Shutdown, Unhealthy, Error) is not restarted by Agones.
    if (existing) await this.deleteIfExists(this.gameServers(n.gameServer));
    await this.request('POST', this.gameServers(), this.gameServerManifest(game));
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
   * The world lives on the pod's volume and its bytes must not pass through the API: the pod's
   * launcher will make snapshots and restores there (a later change). Until then, none.
   */
  async backup(game: GameSpec): Promise<{ sizeBytes: number; sha256: string }> {
    throw new UnsupportedError(`game ${game.id}: backups are not available on Agones yet`);
  }

  async restore(game: GameSpec): Promise<void> {
    throw new UnsupportedError(`game ${game.id}: restores are not available on Agones yet`);
  }

  async remove(game: GameSpec): Promise<void> {
    const n = this.names(game);
    await this.stop(game);
    await this.deleteIfExists(this.core('configmaps', n.lists));
    await this.deleteIfExists(this.core('persistentvolumeclaims', n.world));
    await this.deleteIfExists(this.core('secrets', n.secret));
    this.passwords.delete(game.id);
  }

  /** The cluster keeps the servers running; only the idle API connections are this process's. */
  async close(): Promise<void> {
    this.agent.destroy();
  }

  private publicAddress(gs: GameServer): { host: string; port: number } | null {
    const port = gs.status?.ports?.find((p) => p.name === 'minecraft')?.port;
    const host = gs.status?.address;
    return host && port ? { host, port } : null;
  }

  private async rconTarget(game: Pick<GameSpec, 'id'>, gs: GameServer) {
    const host = gs.status?.addresses?.find((a) => a.type === 'PodIP')?.address;
    if (!host) throw new Error(`GameServer ${gs.metadata.name} has no pod IP yet`);
    let password = this.passwords.get(game.id);
    if (!password) {
      const secret = await this.request<{ data?: { password?: string } }>('GET', this.core('secrets', this.names(game).secret));
      if (!secret.data?.password) throw new Error(`secret ${this.names(game).secret} has no password`);
      password = Buffer.from(secret.data.password, 'base64').toString('utf8');
      this.passwords.set(game.id, password);
    }
    return { host, port: this.options.rconPort ?? 25575, password };
  }
}
