import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type * as K8s from '@kubernetes/client-node';
import { parse as parseYaml } from 'yaml';
import { GameServerCache } from './game-server-cache.ts';
import type { ApiException, ConfigurationOptions, CoreV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';

/**
 * The client, loaded at the first call: it costs some 80 MB and half a second to load, which an
 * API running the local driver, or an Agones one before its first game, need not pay.
 */
interface Client {
  k8s: typeof K8s;
  config: KubeConfig;
  core: CoreV1Api;
  custom: CustomObjectsApi;
  /** Bounds each call (the client sets no time-out of its own) and carries it on `agent`. */
  callOptions: ConfigurationOptions;
}

/**
 * The Agones driver's access to the Kubernetes API, and all of it, on the official client
 * (`@kubernetes/client-node`): its credentials (a kubeconfig file's current context, or the
 * cluster's address and CA with a bearer token) and its typed calls on namespaced objects (create,
 * get, replace, delete; the GameServers' list and watch, kept in memory by game-server-cache.ts).
 * A pod's log followed as it is written is the one call made here by hand, with the client's
 * credentials: see `followLog`. Nothing else of the driver speaks to the cluster.
 */
export interface KubernetesAccess {
  /**
   * A kubeconfig file, whose current context gives the cluster (server, CA, TLS checks) and the
   * user (client certificate and key, token, exec or auth-provider plugin), as kubectl reads it.
   * Instead of `apiUrl`, `token`, `tokenFile` and `caFile`, which are not given with it.
   */
  kubeconfig?: string;
  /** Kubernetes API base URL, e.g. https://kubernetes.default.svc; required without `kubeconfig`. */
  apiUrl?: string;
  /** Bearer token; else read from `tokenFile` at each call, as projected tokens rotate. */
  token?: string;
  tokenFile?: string;
  /**
   * PEM file of the CA(s) the API's certificate is checked against instead of Node's public roots,
   * e.g. the service account's `ca.crt`: a cluster signs its API certificate with its own CA.
   */
  caFile?: string;
  /** Where the game objects are: else the kubeconfig context's namespace, else `default`. */
  namespace?: string;
}

/** What is needed of a kubeconfig before the client loads it: its current context's server and namespace. */
export function readKubeconfig(file: string): { server: string; namespace?: string } {
  const config = parseYaml(fs.readFileSync(file, 'utf8')) as {
    'current-context'?: string;
    contexts?: Array<{ name?: string; context?: { cluster?: string; namespace?: string } }>;
    clusters?: Array<{ name?: string; cluster?: { server?: string } }>;
  } | null;
  const current = config?.['current-context'];
  if (!current) throw new Error('it has no current-context');
  const context = config.contexts?.find((c) => c.name === current)?.context;
  if (!context) throw new Error(`its current-context "${current}" is not among its contexts`);
  const server = config.clusters?.find((c) => c.name === context.cluster)?.cluster?.server;
  if (!server || !/^https?:\/\//.test(server)) throw new Error(`the cluster "${context.cluster ?? ''}" of its current context has no http(s):// server`);
  return { server: server.replace(/\/+$/, ''), ...(context.namespace ? { namespace: context.namespace } : {}) };
}

export interface ObjectMeta {
  name: string;
  uid?: string;
  labels?: Record<string, string>;
  resourceVersion?: string;
  deletionTimestamp?: string;
}

export interface GameServer {
  metadata: ObjectMeta;
  spec?: { template?: { spec?: { containers?: Array<{ name: string }> } } };
  status?: {
    state?: string;
    address?: string;
    addresses?: Array<{ type: string; address: string }>;
    ports?: Array<{ name: string; port: number }>;
  };
}

export interface Pod {
  metadata: ObjectMeta;
  status?: {
    phase?: string;
    podIP?: string;
    containerStatuses?: Array<{ state?: { terminated?: { exitCode?: number; reason?: string; message?: string } } }>;
  };
}

/** A pod's entry in the metrics API (metrics.k8s.io/v1beta1 PodMetrics). */
export interface PodMetrics {
  containers?: Array<{ name: string; usage?: { cpu?: string; memory?: string } }>;
}

/** Kubernetes' answer to a failed call, with its `Status` body's message. */
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
/** The user the token file stands for: its token is read at each call, as projected tokens rotate. */
const tokenFileUser = 'blockhost-token-file';

/** The objects the driver keeps, by their resource's plural. */
type Kind = 'secrets' | 'configmaps' | 'persistentvolumeclaims' | 'pods' | 'gameservers';

/** The message of a failed call's `Status` body, which the client hands over as text or as an object. */
function statusMessage(err: ApiException<unknown>): string {
  let body: unknown = err.body;
  if (typeof err.body === 'string') {
    try {
      body = JSON.parse(err.body) as unknown;
    } catch {
      return err.body;
    }
  }
  const message = (body as { message?: unknown } | undefined)?.message;
  if (typeof message === 'string') return message;
  // Some codes (401, 403) the client answers with their name and no body.
  return /\nMessage: (.*)\n/.exec(err.message)?.[1] ?? '';
}

export class Kubernetes {
  private readonly namespace: string;
  private readonly access: KubernetesAccess & { server: string; caData?: string };
  private client: Promise<Client> | undefined;
  /**
   * One pool of kept-alive connections for every call (the client would open a new connection for
   * each), made at the first call with the TLS material the client gives its own agents: the
   * cluster's CA, a client certificate and key, whether to check the API's certificate. The
   * client's own agent when the kubeconfig sends the API through a proxy (`proxy-url`).
   */
  private agent: http.Agent | undefined;
  /** The GameServers kept in memory by a watch, once asked for. */
  private cache: GameServerCache<GameServer> | undefined;

  constructor(access: KubernetesAccess) {
    let server: string;
    let caData: string | undefined;
    if (access.kubeconfig) {
      if (access.apiUrl || access.token || access.tokenFile || access.caFile) throw new Error('a kubeconfig file is instead of an API URL, token or CA file: give one or the other');
      let context: ReturnType<typeof readKubeconfig>;
      try {
        context = readKubeconfig(access.kubeconfig);
      } catch (err) {
        throw new Error(`the kubeconfig file ${access.kubeconfig} cannot be used: ${(err as Error).message}`, { cause: err });
      }
      server = context.server;
      this.namespace = access.namespace ?? context.namespace ?? 'default';
    } else {
      if (!access.apiUrl || !/^https?:\/\//.test(access.apiUrl)) throw new Error(`Kubernetes API URL "${access.apiUrl ?? ''}" is invalid: expected http(s)://...`);
      if (!access.token && !access.tokenFile) throw new Error('the agones driver needs a Kubernetes token or token file');
      if (access.caFile) {
        try {
          caData = fs.readFileSync(access.caFile).toString('base64');
        } catch (err) {
          throw new Error(`the Kubernetes CA file ${access.caFile} cannot be read: ${(err as Error).message}`, { cause: err });
        }
      }
      server = access.apiUrl.replace(/\/+$/, '');
      this.namespace = access.namespace ?? 'default';
    }
    this.access = { ...access, server, ...(caData ? { caData } : {}) };
  }

  /** The client with this access's credentials, loaded and made once (again after a failure). */
  private connect(): Promise<Client> {
    this.client ??= this.load().catch((err: unknown) => {
      this.client = undefined;
      throw err;
    });
    return this.client;
  }

  private async load(): Promise<Client> {
    const k8s = await import('@kubernetes/client-node');
    const { server, caData, tokenFile, token, kubeconfig } = this.access;
    const config = new k8s.KubeConfig();
    if (kubeconfig) {
      config.loadFromFile(kubeconfig);
    } else {
      if (!token && tokenFile) {
        config.addAuthenticator({
          isAuthProvider: (user) => user.name === tokenFileUser,
          applyAuthentication: (_user, opts) => {
            opts.headers = { ...opts.headers, Authorization: `Bearer ${fs.readFileSync(tokenFile, 'utf8').trim()}` };
            return Promise.resolve();
          },
        });
      }
      config.loadFromOptions({
        // The client refuses plain HTTP unless told to skip TLS checks, which plain HTTP has none of.
        clusters: [{ name: 'cluster', server, skipTLSVerify: server.startsWith('http:'), ...(caData ? { caData } : {}) }],
        users: [token ? { name: 'blockhost', token } : { name: tokenFileUser }],
        contexts: [{ name: 'blockhost', cluster: 'cluster', user: token ? 'blockhost' : tokenFileUser }],
        currentContext: 'blockhost',
      });
    }
    // What the client would give its own agent (it also runs an exec plugin, which may give a
    // client certificate), taken for ours rather than read from the files again.
    const tls: https.RequestOptions = {};
    await config.applyToHTTPSOptions(tls);
    if (config.getCurrentCluster()?.proxyUrl) this.agent = tls.agent as http.Agent;
    else if (!server.startsWith('https:')) this.agent = new http.Agent({ keepAlive: true });
    else {
      const { ca, cert, key, rejectUnauthorized, servername } = tls;
      this.agent = new https.Agent({ keepAlive: true, ca, cert, key, ...(rejectUnauthorized === false ? { rejectUnauthorized } : {}), ...(servername ? { servername } : {}) });
    }
    const agent = this.agent;
    const callOptions: ConfigurationOptions = {
      middleware: [
        {
          pre: (context) => {
            context.setSignal(AbortSignal.timeout(requestTimeoutMs));
            context.setAgent(agent);
            return new k8s.Observable(Promise.resolve(context));
          },
          post: (response) => new k8s.Observable(Promise.resolve(response)),
        },
      ],
      middlewareMergeStrategy: 'append',
    };
    return { k8s, config, core: config.makeApiClient(k8s.CoreV1Api), custom: config.makeApiClient(k8s.CustomObjectsApi), callOptions };
  }

  /** An object's path in the API, or its collection's without a name: what errors name. */
  pathOf(kind: Kind | 'metrics', name?: string): string {
    const base =
      kind === 'gameservers'
        ? `/apis/agones.dev/v1/namespaces/${this.namespace}/gameservers`
        : kind === 'metrics'
          ? `/apis/metrics.k8s.io/v1beta1/namespaces/${this.namespace}/pods`
          : `/api/v1/namespaces/${this.namespace}/${kind}`;
    return name ? `${base}/${name}` : base;
  }

  /** One call of the client, its failures told as before the client: method, path, status and message. */
  private async call<T>(method: string, path: string, send: (client: Client, options: ConfigurationOptions) => Promise<T>): Promise<T> {
    let client: Client | undefined;
    try {
      client = await this.connect();
      return await send(client, client.callOptions);
    } catch (err) {
      if (client && err instanceof client.k8s.ApiException) {
        throw new KubernetesError(err.code, `Kubernetes ${method} ${path}: ${err.code} ${statusMessage(err)}`);
      }
      const error = err as Error & { code?: string };
      if (error.name === 'AbortError') throw new Error(`Kubernetes ${method} ${path}: no answer within ${requestTimeoutMs / 1000} s`, { cause: err });
      const code = error.code ?? '';
      const untrusted = untrustedCertificate.test(code);
      // node-fetch puts the request's URL before Node's reason; Node's own hint for an untrusted
      // chain (try --use-system-ca) does not apply to a cluster's private CA.
      const reason = error.message.replace(/^request to \S+ failed, reason: /, '');
      const where = this.access.kubeconfig ? "in the kubeconfig's cluster (certificate-authority)" : 'given (KUBERNETES_CA_FILE)';
      const hint = untrusted ? `; the API's certificate is not trusted: is the cluster's CA ${where}?` : '';
      throw new Error(`Kubernetes ${method} ${path}: ${untrusted ? reason.split(';')[0]! : reason}${code ? ` (${code})` : ''}${hint}`, { cause: err });
    }
  }

  private gameServerRequest(name?: string) {
    return { group: 'agones.dev', version: 'v1', namespace: this.namespace, plural: 'gameservers', ...(name ? { name } : {}) };
  }

  /** Creates an object; rejects with 409 when one of that name exists. */
  async create(kind: Kind, object: { metadata: ObjectMeta }): Promise<unknown> {
    const created = await this.send(kind, object);
    if (kind === 'gameservers') this.cache?.wrote(object.metadata.name, (created as { metadata?: ObjectMeta }).metadata?.uid, true);
    return created;
  }

  private send(kind: Kind, object: { metadata: ObjectMeta }): Promise<unknown> {
    const namespace = this.namespace;
    const body = object as never;
    return this.call('POST', this.pathOf(kind), ({ core, custom }, options) => {
      switch (kind) {
        case 'secrets':
          return core.createNamespacedSecret({ namespace, body }, options);
        case 'configmaps':
          return core.createNamespacedConfigMap({ namespace, body }, options);
        case 'persistentvolumeclaims':
          return core.createNamespacedPersistentVolumeClaim({ namespace, body }, options);
        case 'pods':
          return core.createNamespacedPod({ namespace, body }, options);
        case 'gameservers':
          return custom.createNamespacedCustomObject({ ...this.gameServerRequest(), body }, options);
      }
    });
  }

  /** The object of that name; rejects with 404 when there is none. */
  get<T>(kind: Kind, name: string): Promise<T> {
    const namespace = this.namespace;
    return this.call('GET', this.pathOf(kind, name), ({ core, custom }, options): Promise<unknown> => {
      switch (kind) {
        case 'secrets':
          return core.readNamespacedSecret({ name, namespace }, options);
        case 'configmaps':
          return core.readNamespacedConfigMap({ name, namespace }, options);
        case 'persistentvolumeclaims':
          return core.readNamespacedPersistentVolumeClaim({ name, namespace }, options);
        case 'pods':
          return core.readNamespacedPod({ name, namespace }, options);
        case 'gameservers':
          return custom.getNamespacedCustomObject({ ...this.gameServerRequest(name), name }, options);
      }
    }) as Promise<T>;
  }

  private async delete(kind: Kind, name: string): Promise<unknown> {
    const deleted = await this.remove(kind, name);
    if (kind === 'gameservers') {
      // The object as it was deleted, or a Status naming it.
      const answer = deleted as { metadata?: ObjectMeta; details?: { uid?: string } } | undefined;
      this.cache?.wrote(name, answer?.metadata?.uid ?? answer?.details?.uid ?? this.cache.uidOf(name), false);
    }
    return deleted;
  }

  private remove(kind: Kind, name: string): Promise<unknown> {
    const namespace = this.namespace;
    return this.call('DELETE', this.pathOf(kind, name), ({ core, custom }, options): Promise<unknown> => {
      switch (kind) {
        case 'secrets':
          return core.deleteNamespacedSecret({ name, namespace }, options);
        case 'configmaps':
          return core.deleteNamespacedConfigMap({ name, namespace }, options);
        case 'persistentvolumeclaims':
          return core.deleteNamespacedPersistentVolumeClaim({ name, namespace }, options);
        case 'pods':
          return core.deleteNamespacedPod({ name, namespace }, options);
        case 'gameservers':
          return custom.deleteNamespacedCustomObject({ ...this.gameServerRequest(name), name }, options);
      }
    });
  }

  /** Creates an object unless one of that name exists. */
  async ensure(kind: Kind, object: { metadata: ObjectMeta }): Promise<void> {
    try {
      await this.create(kind, object);
    } catch (err) {
      if (!(err instanceof KubernetesError && err.status === 409)) throw err;
    }
  }

  /** Creates a ConfigMap, or replaces the one of that name. */
  async applyConfigMap(object: { metadata: ObjectMeta }): Promise<void> {
    try {
      await this.create('configmaps', object);
    } catch (err) {
      if (!(err instanceof KubernetesError && err.status === 409)) throw err;
      const { name } = object.metadata;
      await this.call('PUT', this.pathOf('configmaps', name), ({ core }, options) => core.replaceNamespacedConfigMap({ name, namespace: this.namespace, body: object as never }, options));
    }
  }

  async getOrNull<T>(kind: Kind, name: string): Promise<T | null> {
    try {
      return await this.get<T>(kind, name);
    } catch (err) {
      if (err instanceof KubernetesError && err.status === 404) return null;
      throw err;
    }
  }

  async deleteIfExists(kind: Kind, name: string): Promise<void> {
    try {
      await this.delete(kind, name);
    } catch (err) {
      if (!(err instanceof KubernetesError && err.status === 404)) throw err;
      // Already gone: what memory may still hold of it is not to be believed.
      if (kind === 'gameservers') this.cache?.wrote(name, this.cache.uidOf(name), false);
    }
  }

  /**
   * Keeps the GameServers with that label selector in memory from now on, for `watchedGameServer`:
   * one list, then one long-lived watch (game-server-cache.ts). `onChange` hears each GameServer
   * the watch shows added or modified, with what memory held of it before.
   */
  watchGameServers(labelSelector: string, onChange?: (previous: GameServer | undefined, next: GameServer) => void): void {
    this.cache ??= new GameServerCache<GameServer>(
      {
        listGameServers: async (selector) => {
          const list = (await this.call('GET', this.pathOf('gameservers'), ({ custom }, options) =>
            custom.listNamespacedCustomObject({ ...this.gameServerRequest(), labelSelector: selector }, options),
          )) as { items?: GameServer[]; metadata?: { resourceVersion?: string } };
          return { items: list.items ?? [], resourceVersion: list.metadata?.resourceVersion ?? '' };
        },
        openGameServerWatch: async (selector, resourceVersion, onEvent, onEnd) => {
          // The client's watch, on an agent of its own with the same credentials: one long-lived
          // connection, which the keep-alive pool's callers would otherwise queue behind.
          const { k8s, config } = await this.connect();
          const query = { labelSelector: selector, allowWatchBookmarks: true, ...(resourceVersion ? { resourceVersion } : {}) };
          const controller = await new k8s.Watch(config).watch(this.pathOf('gameservers'), query, onEvent, onEnd);
          return { stop: () => controller.abort() };
        },
      },
      labelSelector,
      onChange,
    );
  }

  /** Starts the watch of `watchGameServers` now rather than at the first `watchedGameServer`. */
  startWatching(): void {
    void this.cache?.ready();
  }

  /**
   * A GameServer from the watch's memory (`watchGameServers`), the API asked only when memory
   * cannot tell: not watching, the first list not done, the watch failed, or behind a create or
   * delete of this process. Null when there is none.
   */
  async watchedGameServer(name: string): Promise<GameServer | null> {
    if (this.cache) {
      await this.cache.ready();
      const known = this.cache.get(name);
      if (known !== undefined) return known;
    }
    return this.getOrNull<GameServer>('gameservers', name);
  }

  /** A pod's entry in the metrics API; null when it has none (not running, no metrics-server). */
  async podMetrics(name: string): Promise<PodMetrics | null> {
    try {
      return (await this.call('GET', this.pathOf('metrics', name), ({ custom }, options) =>
        custom.getNamespacedCustomObject({ group: 'metrics.k8s.io', version: 'v1beta1', namespace: this.namespace, plural: 'pods', name }, options),
      )) as PodMetrics;
    } catch (err) {
      if (err instanceof KubernetesError && err.status === 404) return null;
      throw err;
    }
  }

  /**
   * Follows a pod container's log (`follow=true`, with the kubelet's time stamps, from `sinceTime`
   * when given), each chunk handed to `onChunk`. `ended` resolves when the log ends, the call
   * fails or its connection drops, or there is no such pod or container yet (400, 404); `stop`
   * ends it. By hand, with the client's credentials: the client's `Log` pipes the answer into a
   * stream and never tells a dropped connection, so a follow would wait for ever instead of
   * asking again.
   */
  followLog(pod: string, container: string, sinceTime: string | undefined, onChunk: (chunk: Buffer) => void): { ended: Promise<void>; stop(): void } {
    const since = sinceTime ? `&sinceTime=${encodeURIComponent(sinceTime)}` : '';
    const url = new URL(`${this.access.server}${this.pathOf('pods', pod)}/log?container=${container}&follow=true&timestamps=true${since}`);
    let request: http.ClientRequest | undefined;
    let stopped = false;
    const ended = (async () => {
      const options: https.RequestOptions = { headers: { accept: '*/*' } };
      await (await this.connect()).config.applyToHTTPSOptions(options);
      options.agent = this.agent!;
      if (stopped) return;
      await new Promise<void>((resolve) => {
        const onAnswer = (res: http.IncomingMessage) => {
          if (res.statusCode !== 200) res.resume();
          else res.on('data', onChunk);
          res.on('end', resolve);
          res.on('error', () => resolve());
        };
        request = url.protocol === 'https:' ? https.get(url, options, onAnswer) : http.get(url, options, onAnswer);
        request.on('error', () => resolve());
      });
    })().catch(() => {
      // The client could not be made (its credentials, an exec plugin): the follower asks again.
    });
    return {
      ended,
      stop: () => {
        stopped = true;
        request?.destroy();
      },
    };
  }

  /** Closes the idle connections to the API. */
  close(): void {
    this.cache?.stop();
    this.agent?.destroy();
  }
}
