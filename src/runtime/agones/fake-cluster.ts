import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeKubernetes, type FakeKubernetes } from '../../../tests/fixtures/kubernetes.ts';

/**
 * The fake Kubernetes API (tests/fixtures/kubernetes.ts) with a kubelet in front of it: Pods are
 * kept in the same wire format, and the containers of `image` (the platform's own, which runs the
 * world agent) in a Pod or a GameServer's template really run, as child processes of this repository
 * with their manifest's command and env (secret references resolved). Each PersistentVolumeClaim
 * is a folder under `volumesDir`, and a mount's path in an env value is rewritten to it. A Pod is
 * Running at 127.0.0.1 once its process is spawned, as a container is before it listens. Other
 * images (the Minecraft server) do not run: a test plays them.
 */
export interface FakeCluster extends FakeKubernetes {
  /** The folder standing for a claim's volume. */
  volume(claim: string): string;
}

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const pods = /^\/api\/v1\/namespaces\/([a-z0-9-]+)\/pods(?:\/([a-z0-9.-]+))?$/;
const gameServers = /^\/apis\/agones\.dev\/v1\/namespaces\/([a-z0-9-]+)\/gameservers(?:\/([a-z0-9.-]+))?$/;

interface Container {
  image?: string;
  command?: string[];
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>;
  volumeMounts?: Array<{ name: string; mountPath: string }>;
}
interface PodSpec {
  containers?: Container[];
  volumes?: Array<{ name: string; persistentVolumeClaim?: { claimName: string } }>;
}

function status(code: number, reason: string, message: string) {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

export async function startFakeCluster(options: { image: string; volumesDir: string }): Promise<FakeCluster> {
  const kube = await startFakeKubernetes();
  const running = new Map<string, ChildProcess[]>();
  const volume = (claim: string) => {
    const dir = path.join(options.volumesDir, claim);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  };

  /** Starts the containers of our image; `onEnd` hears how the first one ended. */
  function run(key: string, namespace: string, spec: PodSpec, onEnd: (code: number | null, stderr: string) => void): ChildProcess[] {
    const children: ChildProcess[] = [];
    for (const container of spec.containers ?? []) {
      if (container.image !== options.image || container.command?.[0] !== 'node') continue;
      const mounts = (container.volumeMounts ?? []).flatMap((m) => {
        const claim = spec.volumes?.find((v) => v.name === m.name)?.persistentVolumeClaim?.claimName;
        return claim ? [{ from: m.mountPath, to: volume(claim) }] : [];
      });
      const env: Record<string, string> = { PATH: process.env.PATH ?? '' };
      for (const e of container.env ?? []) {
        const ref = e.valueFrom?.secretKeyRef;
        const secret = ref && (kube.objects.get(`/api/v1/namespaces/${namespace}/secrets/${ref.name}`) as { data?: Record<string, string> } | undefined);
        let value = ref ? Buffer.from(secret?.data?.[ref.key] ?? '', 'base64').toString('utf8') : (e.value ?? '');
        for (const m of mounts) if (value === m.from || value.startsWith(`${m.from}/`)) value = m.to + value.slice(m.from.length);
        env[e.name] = value;
      }
      const child = spawn(process.execPath, container.command.slice(1), { cwd: repoRoot, env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(-2000)));
      child.once('exit', (code) => onEnd(code, stderr));
      children.push(child);
    }
    running.set(key, children);
    return children;
  }

  function stop(key: string) {
    for (const child of running.get(key) ?? []) child.kill();
    running.delete(key);
  }

  function handlePods(req: http.IncomingMessage, res: http.ServerResponse, body: string, namespace: string, name: string | undefined) {
    const send = (code: number, answer: unknown) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    };
    if (req.headers.authorization !== `Bearer ${kube.token}`) return send(401, status(401, 'Unauthorized', 'Unauthorized'));
    const collection = `/api/v1/namespaces/${namespace}/pods`;
    if (req.method === 'POST' && !name) {
      const pod = JSON.parse(body) as { metadata?: { name?: string }; spec?: PodSpec };
      const podName = pod.metadata?.name;
      if (!podName) return send(422, status(422, 'Invalid', 'metadata.name: Required value'));
      const key = `${collection}/${podName}`;
      if (kube.objects.has(key)) return send(409, status(409, 'AlreadyExists', `pod "${podName}" already exists`));
      const created: Record<string, unknown> = { ...pod, kind: 'Pod', apiVersion: 'v1', metadata: { ...pod.metadata, namespace }, status: { phase: 'Pending' } };
      kube.objects.set(key, created);
      for (const child of run(key, namespace, pod.spec ?? {}, (code, stderr) => {
        if (kube.objects.get(key) !== created) return;
        const terminated = { exitCode: code ?? 137, reason: code === 0 ? 'Completed' : 'Error', message: stderr };
        created.status = { phase: code === 0 ? 'Succeeded' : 'Failed', containerStatuses: [{ state: { terminated } }] };
      })) {
        child.once('spawn', () => (created.status = { phase: 'Running', podIP: '127.0.0.1', podIPs: [{ ip: '127.0.0.1' }] }));
      }
      return send(201, created);
    }
    const key = `${collection}/${name}`;
    const existing = name ? kube.objects.get(key) : undefined;
    if (!existing) return send(404, status(404, 'NotFound', `pod "${name}" not found`));
    if (req.method === 'GET') return send(200, existing);
    if (req.method === 'DELETE') {
      stop(key);
      kube.objects.delete(key);
      return send(200, existing);
    }
    return send(405, status(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'));
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url!, 'http://x').pathname;
      const pod = pods.exec(url);
      if (pod) {
        kube.calls.push(`${req.method} ${url}`);
        return handlePods(req, res, body, pod[1]!, pod[2]);
      }
      // A log followed stays open: passed on as it comes.
      if (url.endsWith('/log')) {
        const follow = http.request(new URL(req.url!, kube.url), { method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        res.on('close', () => follow.destroy());
        return follow.end(body);
      }
      const forwarded = http.request(new URL(req.url!, kube.url), { method: req.method, headers: req.headers }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (c: Buffer) => parts.push(c));
        answer.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          const gs = gameServers.exec(url);
          if (gs && req.method === 'POST' && answer.statusCode === 201) {
            const created = JSON.parse(text) as { metadata: { name: string }; spec?: { template?: { spec?: PodSpec } } };
            run(`${url}/${created.metadata.name}`, gs[1]!, created.spec?.template?.spec ?? {}, () => {});
          }
          if (gs && req.method === 'DELETE' && answer.statusCode === 200) stop(url);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(text);
        });
      });
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...kube,
    url: `http://127.0.0.1:${port}`,
    volume,
    async close() {
      const children = [...running.values()].flat().filter((c) => c.exitCode === null && c.signalCode === null);
      await Promise.all(children.map((c) => new Promise((resolve) => (c.once('exit', resolve), c.kill()))));
      running.clear();
      await new Promise((resolve) => server.close(resolve));
      await kube.close();
    },
  };
}
