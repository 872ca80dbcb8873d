import http from 'node:http';
import { NoWorldError, type GameSpec } from '../driver.ts';
import { jsonLineReader } from '../lines.ts';
import { WorldArchiveError, type WorldArchiveCode } from '../minecraft/world-archive.ts';
import { agentErrors, heartbeatMs } from './agent-protocol.ts';
import type { Kubernetes, Pod } from './kubernetes.ts';
import { namesOf, worldPodManifest, type ManifestOptions } from './manifests.ts';

/**
 * The driver's side of the world agent (world-agent.ts), which zips or restores a world where it
 * lives: its calls, whether to the sidecar of a running GameServer or to the short-lived Pod
 * `blockhost-<id>-world` this client runs on a stopped game's volume. The agent answers in JSON
 * lines, a line every few seconds while it works, its result last.
 */
export class WorldAgentClient {
  private readonly kubernetes: Kubernetes;
  private readonly manifests: ManifestOptions;
  private readonly port: number;
  /** How long a stopped game's world pod may take to run (scheduling, image pull, volume attach). */
  private readonly podTimeoutMs: number;

  constructor(kubernetes: Kubernetes, manifests: ManifestOptions, podTimeoutMs = 180_000) {
    this.kubernetes = kubernetes;
    this.manifests = manifests;
    this.port = manifests.agentPort;
    this.podTimeoutMs = podTimeoutMs;
  }

  /**
   * Runs one call of the agent on a pod of its own with the game's volume, and deletes the pod
   * afterwards whatever happened. `token` gives the game's RCON password, the agent's token.
   */
  async onWorldPod(game: GameSpec, token: () => Promise<string>, operation: 'backup' | 'restore', body: object, onProgress?: (fraction: number) => void): Promise<Record<string, unknown>> {
    const pod = namesOf(game).worldPod;
    // One left by a crashed API: its name is the one needed.
    await this.deleteAndWait(pod);
    await this.kubernetes.create('pods', worldPodManifest(game, this.manifests));
    try {
      const host = await this.podIp(game, pod);
      return await this.call(game, host, await token(), operation, body, onProgress);
    } finally {
      await this.kubernetes.deleteIfExists('pods', pod);
    }
  }

  private async deleteAndWait(pod: string): Promise<void> {
    if (!(await this.kubernetes.getOrNull('pods', pod))) return;
    await this.kubernetes.deleteIfExists('pods', pod);
    const until = Date.now() + this.podTimeoutMs;
    while (await this.kubernetes.getOrNull('pods', pod)) {
      if (Date.now() > until) throw new Error(`${this.kubernetes.pathOf('pods', pod)} is still being deleted`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  /**
   * Waits for the world pod's agent to answer, with a bound: an image that cannot be pulled or a
   * volume still held must not hang a backup. A container is Running before it listens, and may
   * end instead: the pod's status says why.
   */
  private async podIp(game: GameSpec, name: string): Promise<string> {
    const timeoutMs = this.podTimeoutMs;
    const until = Date.now() + timeoutMs;
    for (;;) {
      const pod = await this.kubernetes.getOrNull<Pod>('pods', name);
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
    return new URL(`http://${host.includes(':') ? `[${host}]` : host}:${this.port}${path}`);
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
  async call(game: GameSpec, host: string, token: string, operation: 'backup' | 'restore', body: object, onProgress?: (fraction: number) => void): Promise<Record<string, unknown>> {
    const until = Date.now() + this.podTimeoutMs;
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
}
