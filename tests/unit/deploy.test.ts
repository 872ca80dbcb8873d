import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';

/**
 * deploy/kubernetes and the Dockerfile, checked without a cluster or an image build: every
 * manifest against Kubernetes' own schemas (kubernetes-models), what they wire together, and the
 * environment they set against what the server reads.
 */
const dir = 'deploy/kubernetes';
interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  [key: string]: unknown;
}
const manifests: Array<Manifest & { file: string }> = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .flatMap((file) => parseAllDocuments(fs.readFileSync(path.join(dir, file), 'utf8')).map((doc) => ({ ...(doc.toJS() as Manifest), file })));
const find = <T>(kind: string, name?: string) => manifests.filter((m) => m.kind === kind && (!name || m.metadata.name === name)) as unknown as Array<T & Manifest>;

/** The environment variables the server reads: every name config.ts asks its environment for. */
const readByServer = new Set([...fs.readFileSync('src/server/config.ts', 'utf8').matchAll(/\(env, '([A-Z][A-Z0-9_]+)'/g)].map((m) => m[1]!));

interface Container {
  image: string;
  ports: Array<{ name: string; containerPort: number }>;
  env?: Array<{ name: string }>;
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  readinessProbe: { httpGet: { path: string; port: string } };
  livenessProbe: { httpGet: { path: string; port: string } };
}
interface Deployment {
  spec: { replicas: number; template: { spec: { serviceAccountName: string; containers: Container[] } } };
}

describe('the Kubernetes deployment', () => {
  it('is made of valid Kubernetes objects', async () => {
    expect(manifests.length).toBeGreaterThan(5);
    for (const m of manifests) {
      const [group, version] = m.apiVersion.includes('/') ? m.apiVersion.split('/') : ['', m.apiVersion];
      const module = (await import(/* @vite-ignore */ `kubernetes-models/${group ? `${group}/` : ''}${version}/${m.kind}`)) as Record<string, new (data: object) => { validate(): void }>;
      const Model = module[m.kind]!;
      expect(() => new Model(m).validate(), `${m.file}: ${m.kind} ${m.metadata.name}`).not.toThrow();
    }
  });

  it('a wrong field is caught: the check above can fail', async () => {
    const { Deployment } = await import('kubernetes-models/apps/v1/Deployment');
    const [api] = find<Deployment>('Deployment', 'blockhost-api');
    expect(() => new Deployment({ ...api, spec: { ...api!.spec, replicas: 'two' } } as never).validate()).toThrow();
  });

  it('runs two API replicas or more, ready on /readyz and alive on /healthz, with the configuration and secrets it names', () => {
    const [api] = find<Deployment>('Deployment', 'blockhost-api');
    expect(api!.spec.replicas).toBeGreaterThanOrEqual(2);
    const [container] = api!.spec.template.spec.containers;
    expect(container!.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container!.livenessProbe.httpGet.path).toBe('/healthz');
    for (const from of container!.envFrom!) {
      if (from.configMapRef) expect(find('ConfigMap', from.configMapRef.name)).toHaveLength(1);
      if (from.secretRef) expect(find('Secret', from.secretRef.name)).toHaveLength(1);
    }
    // The Service and the Ingress reach its port.
    const [service] = find<{ spec: { selector: Record<string, string>; ports: Array<{ targetPort: string }> } }>('Service', 'blockhost-api');
    expect(service!.spec.ports[0]!.targetPort).toBe(container!.ports[0]!.name);
    const [ingress] = find<{ spec: { rules: Array<{ http: { paths: Array<{ backend: { service: { name: string } } }> } }> } }>('Ingress');
    expect(ingress!.spec.rules[0]!.http.paths[0]!.backend.service.name).toBe('blockhost-api');
  });

  it('runs two game gateway replicas or more, from the API image with the gateway command, behind a LoadBalancer on 25565 that keeps client addresses', () => {
    const [gateway] = find<Deployment>('Deployment', 'blockhost-gateway');
    const [api] = find<Deployment>('Deployment', 'blockhost-api');
    expect(gateway!.spec.replicas).toBeGreaterThanOrEqual(2);
    const [container] = gateway!.spec.template.spec.containers as unknown as Array<{
      image: string;
      command: string[];
      ports: Array<{ name: string; containerPort: number }>;
      readinessProbe: { tcpSocket: { port: string } };
      envFrom: Container['envFrom'];
    }>;
    expect(container!.image).toBe(api!.spec.template.spec.containers[0]!.image);
    // The command `npm run gateway` runs, on a file the image copies (src).
    const scripts = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.gateway).toBe(container!.command.join(' '));
    expect(fs.existsSync(container!.command[1]!)).toBe(true);
    expect(container!.ports).toEqual([{ name: 'minecraft', containerPort: 25565 }]);
    expect(container!.readinessProbe.tcpSocket.port).toBe('minecraft');
    expect(container!.envFrom).toEqual(api!.spec.template.spec.containers[0]!.envFrom);
    const [service] = find<{ spec: { type: string; externalTrafficPolicy: string; selector: Record<string, string>; ports: Array<{ port: number; targetPort: string; protocol: string }> } }>(
      'Service',
      'blockhost-gateway',
    );
    expect(service!.spec).toMatchObject({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ port: 25565, targetPort: 'minecraft', protocol: 'TCP' }] });
    expect(service!.spec.selector).toEqual((gateway as unknown as { spec: { selector: { matchLabels: Record<string, string> } } }).spec.selector.matchLabels);
    // The API leaves the port to the gateway, shows addresses on it, and is where the gateway asks for wakes.
    const [config] = find<{ data: Record<string, string> }>('ConfigMap', 'blockhost-config');
    expect(config!.data).toMatchObject({ GAME_GATEWAY_PROCESS: 'true', GAME_GATEWAY_PORT: '25565', GAME_GATEWAY_API_URL: 'http://blockhost-api.blockhost.svc' });
    const [secrets] = find<{ stringData: Record<string, string> }>('Secret', 'blockhost-secrets');
    expect(Object.keys(secrets!.stringData)).toEqual(expect.arrayContaining(['DATABASE_URL', 'INTERNAL_TOKEN']));
  });

  it('sets only environment variables the server reads', () => {
    expect(readByServer.has('DATABASE_URL')).toBe(true);
    const set = [
      ...find<{ data: Record<string, string> }>('ConfigMap').flatMap((c) => Object.keys(c.data)),
      ...find<{ stringData: Record<string, string> }>('Secret').flatMap((s) => Object.keys(s.stringData)),
      ...find<Deployment>('Deployment').flatMap((d) => d.spec.template.spec.containers.flatMap((c) => (c.env ?? []).map((e) => e.name))),
    ];
    expect(set.filter((name) => !readByServer.has(name))).toEqual([]);
    // Two replicas or more count their limits together.
    expect(set).toContain('REDIS_URL');
  });

  it("gives the API's service account the rights the agones driver uses, in the games' namespace only", () => {
    const [api] = find<Deployment>('Deployment', 'blockhost-api');
    const [config] = find<{ data: Record<string, string> }>('ConfigMap', 'blockhost-config');
    const [binding] = find<{ subjects: Array<{ name: string; namespace: string }>; roleRef: { name: string } }>('RoleBinding');
    expect(binding!.metadata.namespace).toBe(config!.data.KUBERNETES_NAMESPACE);
    expect(binding!.subjects).toEqual([{ kind: 'ServiceAccount', name: api!.spec.template.spec.serviceAccountName, namespace: api!.metadata.namespace }]);
    const [role] = find<{ rules: Array<{ apiGroups: string[]; resources: string[]; verbs: string[] }> }>('Role', binding!.roleRef.name);
    expect(role!.metadata.namespace).toBe(config!.data.KUBERNETES_NAMESPACE);
    const can = (group: string, resource: string, verb: string) => role!.rules.some((r) => r.apiGroups.includes(group) && r.resources.includes(resource) && r.verbs.includes(verb));
    // What the agones driver asks the Kubernetes API for.
    const driver = agonesDriverSource();
    for (const kind of ['secrets', 'configmaps', 'persistentvolumeclaims', 'pods']) expect(driver).toContain(`'${kind}'`);
    for (const verb of ['get', 'create', 'delete']) {
      expect(can('agones.dev', 'gameservers', verb)).toBe(true);
      for (const resource of ['pods', 'persistentvolumeclaims', 'secrets', 'configmaps']) expect(can('', resource, verb), `${verb} ${resource}`).toBe(true);
    }
    expect(can('', 'configmaps', 'update')).toBe(true);
    // The GameServers are kept in memory by a list and a watch.
    expect(driver).toContain('listNamespacedCustomObject');
    expect(driver).toContain('.watch(');
    for (const verb of ['list', 'watch']) expect(can('agones.dev', 'gameservers', verb), `${verb} gameservers`).toBe(true);
    expect(can('metrics.k8s.io', 'pods', 'get')).toBe(true);
    expect(role!.rules.flatMap((r) => r.verbs)).not.toContain('*');
  });
});

/** The agones driver's code: src/runtime/agones-driver.ts and the files it is split into under agones/. */
function agonesDriverSource(): string {
  const split = fs
    .readdirSync('src/runtime/agones')
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => path.join('src/runtime/agones', f));
  return ['src/runtime/agones-driver.ts', ...split].map((file) => fs.readFileSync(file, 'utf8')).join('\n');
}

/** A Dockerfile's instructions named `name`, whole lines, comments and continuations aside. */
function dockerfile(file: string) {
  const lines = fs
    .readFileSync(file, 'utf8')
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'));
  return (name: string) => lines.filter((l) => l.startsWith(`${name} `));
}

describe('the Dockerfile', () => {
  const instruction = dockerfile('Dockerfile');

  it("builds on Node 24, as the project's engines say, and runs the server as a user, on the Deployment's port", () => {
    const engines = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { engines: { node: string } }).engines.node;
    expect(engines).toContain('24');
    const froms = instruction('FROM');
    expect(froms.length).toBeGreaterThan(0);
    for (const from of froms) expect(from).toMatch(/^FROM node:24[-\w.]* ?/);
    expect(instruction('USER').at(-1)).toBe('USER node');
    expect(instruction('CMD').at(-1)).toBe('CMD ["node", "src/server/main.ts"]');
    const [api] = find<Deployment>('Deployment', 'blockhost-api');
    expect(instruction('EXPOSE').at(-1)).toBe(`EXPOSE ${api!.spec.template.spec.containers[0]!.ports[0]!.containerPort}`);
  });

  it('copies everything the server reads at run time, and the world agent is in the same image', () => {
    const copied = instruction('COPY').map((l) => l.split(/\s+/).at(-1)!.replace(/^\.\//, '').replace(/\/$/, ''));
    for (const needed of ['src', 'locales', 'content', 'dist/web']) expect(copied).toContain(needed);
    expect(fs.existsSync('src/runtime/agones/world-agent.ts')).toBe(true);
    const [api] = find<Deployment>('Deployment', 'blockhost-api');
    const [config] = find<{ data: Record<string, string> }>('ConfigMap', 'blockhost-config');
    expect(config!.data.AGONES_TOOL_IMAGE).toBe(api!.spec.template.spec.containers[0]!.image);
  });
});

describe("the game image's Dockerfile", () => {
  const instruction = dockerfile('deploy/game/Dockerfile');
  const driver = agonesDriverSource();

  it('builds on Node 24, runs the container entry as the user the driver gives the world volume, on the ports the driver names', () => {
    expect(instruction('FROM')).toEqual(['FROM node:24-bookworm-slim']);
    expect(instruction('USER').at(-1)).toBe('USER node');
    // The driver makes restored worlds user 1000's, the image's `node`.
    expect(driver).toContain('const serverUser = 1000;');
    expect(driver).toContain('const gamePort = 25565;');
    expect(instruction('EXPOSE').at(-1)).toBe('EXPOSE 25565 25575');
    expect(instruction('CMD').at(-1)).toBe('CMD ["node", "src/runtime/minecraft/container.ts"]');
    expect(fs.existsSync('src/runtime/minecraft/container.ts')).toBe(true);
    expect(instruction('ENV').join(' ')).toContain('MC_DATA_DIR=/data');
    // The deployment's game servers run this image.
    const [config] = find<{ data: Record<string, string> }>('ConfigMap', 'blockhost-config');
    expect(config!.data.AGONES_IMAGE).toMatch(/\/blockhost\/game:/);
  });

  it("has every command the driver's containers call on it, and the code they run", () => {
    const run = instruction('RUN').join('\n');
    // The agones-ready sidecar posts to the Agones SDK with curl once mc-health answers.
    expect(driver).toContain('until mc-health;');
    expect(driver).toContain('curl -fsS');
    expect(run).toMatch(/apt-get install -y --no-install-recommends curl/);
    expect(instruction('COPY')).toContain('COPY deploy/game/mc-health /usr/local/bin/mc-health');
    const healthScript = fs.readFileSync('deploy/game/mc-health', 'utf8');
    expect(healthScript).toMatch(/^#!\/bin\/sh\n/);
    expect(healthScript).toContain('exec node /app/src/runtime/minecraft/mc-health.ts');
    expect(instruction('WORKDIR')).toEqual(['WORKDIR /app']);
    expect(fs.statSync('deploy/game/mc-health').mode & 0o111).not.toBe(0);
    const copied = instruction('COPY').map((l) => l.split(/\s+/).at(-1)!.replace(/^\.\//, ''));
    for (const needed of ['src/runtime', 'src/contract']) expect(copied).toContain(needed);
    // What the container's code imports stays inside what is copied.
    const imports = ['src/runtime/minecraft/container.ts', 'src/runtime/minecraft/launcher.ts', 'src/runtime/minecraft/mc-health.ts'].flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)].map((m) => path.relative('.', path.resolve(path.dirname(file), m[1]!))),
    );
    for (const file of imports) expect(file, file).toMatch(/^src\/(runtime|contract)\//);
  });
});
