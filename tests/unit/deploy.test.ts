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

  it('sets only environment variables the server reads', () => {
    expect(readByServer.has('DATABASE_URL')).toBe(true);
    const [api] = find<Deployment>('Deployment', 'blockhost-api');
    const set = [
      ...find<{ data: Record<string, string> }>('ConfigMap').flatMap((c) => Object.keys(c.data)),
      ...find<{ stringData: Record<string, string> }>('Secret').flatMap((s) => Object.keys(s.stringData)),
      ...api!.spec.template.spec.containers.flatMap((c) => (c.env ?? []).map((e) => e.name)),
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
    // What src/runtime/agones-driver.ts asks the Kubernetes API for.
    const driver = fs.readFileSync('src/runtime/agones-driver.ts', 'utf8');
    for (const kind of ['secrets', 'configmaps', 'persistentvolumeclaims', 'pods']) expect(driver).toContain(`'${kind}'`);
    for (const verb of ['get', 'create', 'delete']) {
      expect(can('agones.dev', 'gameservers', verb)).toBe(true);
      for (const resource of ['pods', 'persistentvolumeclaims', 'secrets', 'configmaps']) expect(can('', resource, verb), `${verb} ${resource}`).toBe(true);
    }
    expect(can('', 'configmaps', 'update')).toBe(true);
    expect(can('metrics.k8s.io', 'pods', 'get')).toBe(true);
    expect(role!.rules.flatMap((r) => r.verbs)).not.toContain('*');
  });
});

describe('the Dockerfile', () => {
  const lines = fs
    .readFileSync('Dockerfile', 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'));
  const instruction = (name: string) => lines.filter((l) => l.startsWith(`${name} `));

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
