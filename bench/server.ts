import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface BenchServer {
  origin: string;
  port: number;
  pid: number;
  /** The server's DATA_DIR (games live under `games/<id>`). */
  dataDir: string;
  token(user: string, roles?: string[]): string;
  /** Calls the API as `user` (a token made once per user and roles); JSON in and out, throws on a non-2xx. */
  call<T = { id: string }>(user: string, method: string, url: string, body?: unknown, roles?: string[]): Promise<T>;
  rssKb(): number;
  /** A full garbage collection in the server, so RSS shows what is held, not garbage not yet swept. */
  collectGarbage(): Promise<void>;
  stop(): Promise<void>;
  /** A message to the server's process and its answer (a server started with `entry: 'bench/clock-server.ts'`). */
  ask(message: object): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** With BENCH_CPU_PROF=<folder>, the server writes a CPU profile there when it stops (open it in Chrome's DevTools). */
function profileFlags(): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
}

/**
 * Starts the real server (`src/server/main.ts`, or `entry`, a bench's variant of it that answers
 * messages) on a free port with a fresh data folder.
 */
export async function startServer(extraEnv: Record<string, string> = {}, { entry = 'src/server/main.ts' } = {}): Promise<BenchServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-bench-'));
  const origin = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: origin,
    DATA_DIR: dataDir,
    WEB_DIR: path.join(dataDir, 'no-web'),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_API_PER_MINUTE: '10000000',
    // Every bench client comes from loopback, and the stream bench holds 1 000 streams of one user.
    STREAMS_PER_USER: '1000',
    STREAMS_PER_ADDRESS: '1000000',
    ...extraEnv,
  };
  const inspectorPort = await freePort();
  const child: ChildProcess = spawn(process.execPath, [`--inspect=127.0.0.1:${inspectorPort}`, ...profileFlags(), entry], { env, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  let asked = 0;
  const deadline = Date.now() + 180_000; // a loaded machine (other benches, builds) takes minutes to migrate and start
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${origin}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      // Not left running behind the bench that gave up on it.
      child.kill('SIGKILL');
      throw new Error('server did not start in 180 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const tokens = new Map<string, string>();
  const server: BenchServer = {
    origin,
    port,
    pid: child.pid!,
    dataDir,
    async call<T>(user: string, method: string, url: string, body?: unknown, roles: string[] = []): Promise<T> {
      const key = `${user}:${roles.join(',')}`;
      if (!tokens.has(key)) tokens.set(key, server.token(user, roles));
      const headers: Record<string, string> = { authorization: `Bearer ${tokens.get(key)}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${origin}${url}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${await res.text()}`);
      return (res.status === 204 ? undefined : await res.json()) as T;
    },
    token(user, roles = []) {
      const roleArgs = roles.flatMap((r) => ['--role', r]);
      const out = spawnSync(process.execPath, ['src/server/identity/token-cli.ts', '--user', user, '--ttl', '7200', ...roleArgs], { env, encoding: 'utf8' });
      if (out.status !== 0) throw new Error(out.stderr);
      return out.stdout.trim().split('\n').at(-1)!;
    },
    async collectGarbage() {
      // Through the inspector protocol: the server needs no flag or endpoint of its own for it.
      const [target] = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as Array<{ webSocketDebuggerUrl: string }>;
      const ws = new WebSocket(target!.webSocketDebuggerUrl);
      await new Promise((resolve, reject) => {
        ws.onerror = reject;
        ws.onopen = () => ws.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }));
        ws.onmessage = (m) => {
          if ((JSON.parse(String(m.data)) as { id?: number }).id === 1) resolve(undefined);
        };
      });
      ws.close();
    },
    ask(message) {
      const id = ++asked;
      return new Promise((resolve) => {
        const answered = (m: { done?: number }) => {
          if (m.done !== id) return;
          child.off('message', answered);
          resolve();
        };
        child.on('message', answered);
        child.send({ ...message, id });
      });
    },
    rssKb() {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)![1]);
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}
