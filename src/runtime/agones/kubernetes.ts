import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';

/**
 * The Agones driver's access to the Kubernetes API, and all of it: plain JSON calls on namespaced
 * objects (create, get, replace, delete), with a bearer token, and a pod's log followed as it is
 * written. Nothing else of the driver speaks HTTP to the cluster.
 */
export interface KubernetesAccess {
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
}

export interface ObjectMeta {
  name: string;
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

export class Kubernetes {
  private readonly access: KubernetesAccess;
  /**
   * Carries every HTTPS call, with the cluster's CA when given. node:https rather than fetch: giving
   * fetch a CA takes an undici Agent, and undici is not a dependency here.
   */
  private readonly agent: https.Agent;

  constructor(access: KubernetesAccess) {
    if (!/^https?:\/\//.test(access.apiUrl)) throw new Error(`Kubernetes API URL "${access.apiUrl}" is invalid: expected http(s)://...`);
    if (!access.token && !access.tokenFile) throw new Error('the agones driver needs a Kubernetes token or token file');
    let ca: Buffer | undefined;
    if (access.caFile) {
      try {
        ca = fs.readFileSync(access.caFile);
      } catch (err) {
        throw new Error(`the Kubernetes CA file ${access.caFile} cannot be read: ${(err as Error).message}`, { cause: err });
      }
    }
    this.access = { ...access, apiUrl: access.apiUrl.replace(/\/+$/, '') };
    this.agent = new https.Agent({ keepAlive: true, ...(ca ? { ca } : {}) });
  }

  /** A namespaced core (v1) object's path, or its collection's without a name. */
  core(kind: 'secrets' | 'configmaps' | 'persistentvolumeclaims' | 'pods', name?: string): string {
    return `/api/v1/namespaces/${this.access.namespace}/${kind}${name ? `/${name}` : ''}`;
  }

  /** A GameServer's path, or the collection's without a name. */
  gameServers(name?: string): string {
    return `/apis/agones.dev/v1/namespaces/${this.access.namespace}/gameservers${name ? `/${name}` : ''}`;
  }

  /** A pod's entry in the metrics API. */
  podMetrics(name: string): string {
    return `/apis/metrics.k8s.io/v1beta1/namespaces/${this.access.namespace}/pods/${name}`;
  }

  private token(): string {
    return this.access.token ?? fs.readFileSync(this.access.tokenFile!, 'utf8').trim();
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${this.token()}`, accept: 'application/json' };
    if (payload !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
    let res: { status: number; text: string };
    try {
      res = await this.send(method, new URL(`${this.access.apiUrl}${path}`), headers, payload);
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

  /** Creates an object unless one of that name exists. */
  async ensure(path: string, object: { metadata: ObjectMeta }): Promise<void> {
    try {
      await this.request('POST', path, object);
    } catch (err) {
      if (!(err instanceof KubernetesError && err.status === 409)) throw err;
    }
  }

  /** Creates an object, or replaces the one of that name. */
  async apply(path: string, object: { metadata: ObjectMeta }): Promise<void> {
    try {
      await this.request('POST', path, object);
    } catch (err) {
      if (!(err instanceof KubernetesError && err.status === 409)) throw err;
      await this.request('PUT', `${path}/${object.metadata.name}`, object);
    }
  }

  async getOrNull<T>(path: string): Promise<T | null> {
    try {
      return await this.request<T>('GET', path);
    } catch (err) {
      if (err instanceof KubernetesError && err.status === 404) return null;
      throw err;
    }
  }

  async deleteIfExists(path: string): Promise<void> {
    try {
      await this.request('DELETE', path);
    } catch (err) {
      if (!(err instanceof KubernetesError && err.status === 404)) throw err;
    }
  }

  /**
   * Follows a pod container's log (`follow=true`, with the kubelet's time stamps, from `sinceTime`
   * when given), each chunk handed to `onChunk`. `ended` resolves when the log ends, the call
   * fails, or there is no such pod or container yet (400, 404); `stop` ends it.
   */
  followLog(pod: string, container: string, sinceTime: string | undefined, onChunk: (chunk: Buffer) => void): { ended: Promise<void>; stop(): void } {
    const since = sinceTime ? `&sinceTime=${encodeURIComponent(sinceTime)}` : '';
    const url = new URL(`${this.access.apiUrl}${this.core('pods', pod)}/log?container=${container}&follow=true&timestamps=true${since}`);
    let request: http.ClientRequest | undefined;
    const ended = new Promise<void>((resolve) => {
      const options = { headers: { authorization: `Bearer ${this.token()}`, accept: '*/*' } };
      const onAnswer = (res: http.IncomingMessage) => {
        if (res.statusCode !== 200) res.resume();
        else res.on('data', onChunk);
        res.on('end', resolve);
        res.on('error', () => resolve());
      };
      request = url.protocol === 'https:' ? https.get(url, { ...options, agent: this.agent }, onAnswer) : http.get(url, options, onAnswer);
      request.on('error', () => resolve());
    });
    return { ended, stop: () => request?.destroy() };
  }

  /** Closes the idle connections to the API. */
  close(): void {
    this.agent.destroy();
  }
}
