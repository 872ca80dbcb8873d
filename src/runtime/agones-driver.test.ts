import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeKubernetes, type FakeKubernetes } from '../../tests/fixtures/kubernetes.ts';
import { gameSpec, randomPortRange, waitFor } from '../../tests/fixtures/minecraft.ts';
import { AgonesDriver, agonesConsoles } from './agones-driver.ts';
import type { GameConsoles } from './consoles.ts';
import { createRuntime } from './index.ts';
import { LocalDriver } from './local-driver.ts';
import { offlineUuid } from './minecraft/player-lists.ts';
import { readServerConfig } from './minecraft/server-config.ts';

/**
 * The agones driver against a fake Kubernetes API (the wire format, in memory). The Minecraft side
 * is real: the "pod" the fake GameServer points at is a flying-squid server run by the local driver.
 */
describe('AgonesDriver', () => {
  let kube: FakeKubernetes;
  let dataDir: string;
  let local: LocalDriver;
  const ns = '/api/v1/namespaces/games';
  const gsPath = '/apis/agones.dev/v1/namespaces/games/gameservers/blockhost-g1';

  beforeEach(async () => {
    kube = await startFakeKubernetes();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-agones-'));
    local = new LocalDriver({ dataDir, host: '127.0.0.1', portRange: randomPortRange() });
  });

  afterEach(async () => {
    await local.close();
    await kube.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const driverFor = (rconPort = 25575) => new AgonesDriver({ apiUrl: kube.url, token: kube.token, namespace: 'games', image: 'itzg/minecraft-server:java21', rconPort, stopTimeoutMs: 20_000 });

  /** Plays the Agones controller: the GameServer turns Ready at a real server's address. */
  function markReady(port: number) {
    kube.modify(gsPath, (gs) => {
      gs.status = {
        state: 'Ready',
        address: '127.0.0.1',
        addresses: [
          { type: 'InternalIP', address: '127.0.0.1' },
          { type: 'PodIP', address: '127.0.0.1' },
        ],
        ports: [{ name: 'minecraft', port }],
      };
    });
  }

  it('creates the game objects and a GameServer for the itzg image', async () => {
    const driver = driverFor();
    const icon = Buffer.from('a 64×64 png').toString('base64');
    const game = gameSpec('G1', { seed: 'hello', whitelist: ['Alex'], ops: ['Steve'], banned: ['Griefer'], whitelistEnabled: true, ramMb: 1024, icon });
    // The GameServers' list and watch start at the first look (the log's follower's), and go on beside the calls.
    const objectCalls = () => kube.calls.filter((c) => !/^(LIST|WATCH) /.test(c) && !c.endsWith('/log'));
    await driver.start(game);
    expect(objectCalls()).toEqual([`POST ${ns}/secrets`, `POST ${ns}/persistentvolumeclaims`, `POST ${ns}/configmaps`, `GET ${gsPath}`, 'POST /apis/agones.dev/v1/namespaces/games/gameservers']);

    const secret = kube.objects.get(`${ns}/secrets/blockhost-g1-rcon`) as { data: { password: string } };
    expect(Buffer.from(secret.data.password, 'base64').toString()).toMatch(/^[\w-]{32}$/);
    const lists = kube.objects.get(`${ns}/configmaps/blockhost-g1-lists`) as { data: Record<string, string>; binaryData?: Record<string, string> };
    expect(JSON.parse(lists.data['whitelist.json']!)).toEqual([{ uuid: offlineUuid('Alex'), name: 'Alex' }]);
    // The icon goes with the lists; the init container puts it in /data, where the server reads it.
    expect(lists.binaryData).toEqual({ 'server-icon.png': icon });
    expect(JSON.parse(lists.data['banned-players.json']!)).toEqual([expect.objectContaining({ name: 'Griefer', expires: 'forever' })]);

    const gs = kube.objects.get(gsPath) as {
      spec: { ports: unknown[]; template: { spec: { containers: Array<{ name: string; env: Array<{ name: string; value?: string; valueFrom?: unknown }> }>; volumes: unknown[] } } };
    };
    expect(gs.spec.ports).toEqual([{ name: 'minecraft', portPolicy: 'Dynamic', containerPort: 25565, protocol: 'TCP', container: 'minecraft' }]);
    const env = Object.fromEntries(gs.spec.template.spec.containers[0]!.env.map((e) => [e.name, e.value ?? e.valueFrom]));
    expect(env).toMatchObject({
      EULA: 'TRUE',
      VERSION: '1.21.4',
      MEMORY: '768M',
      MODE: 'creative',
      FORCE_GAMEMODE: 'TRUE',
      SEED: 'hello',
      ENABLE_WHITELIST: 'TRUE',
      ENABLE_RCON: 'TRUE',
      ONLINE_MODE: 'FALSE',
      RCON_PASSWORD: { secretKeyRef: { name: 'blockhost-g1-rcon', key: 'password' } },
    });
    expect(gs.spec.template.spec.volumes).toEqual([
      { name: 'world', persistentVolumeClaim: { claimName: 'blockhost-g1-world' } },
      { name: 'lists', configMap: { name: 'blockhost-g1-lists' } },
    ]);
    expect(await driver.observe(game)).toMatchObject({ status: 'STARTING', address: null });

    // Starting again changes nothing; provisioning again replaces the lists, keeps the password.
    kube.calls.length = 0;
    await driver.start({ ...game, banned: [] });
    expect(objectCalls()).toEqual([`POST ${ns}/secrets`, `POST ${ns}/persistentvolumeclaims`, `POST ${ns}/configmaps`, `PUT ${ns}/configmaps/blockhost-g1-lists`, `GET ${gsPath}`]);
    expect(JSON.parse((kube.objects.get(`${ns}/configmaps/blockhost-g1-lists`) as { data: Record<string, string> }).data['banned-players.json']!)).toEqual([]);
    // Without an icon any more: none in the lists, and the init container removes the old one.
    await driver.provision({ ...game, icon: undefined });
    expect((kube.objects.get(`${ns}/configmaps/blockhost-g1-lists`) as { binaryData?: object }).binaryData).toBeUndefined();
    const init = (kube.objects.get(gsPath) as { spec: { template: { spec: { initContainers: Array<{ command: string[] }> } } } }).spec.template.spec.initContainers[0]!;
    expect(init.command.at(-1)).toContain('cp /lists/server-icon.png /data/');
    expect(init.command.at(-1)).toContain('rm -f /data/server-icon.png');
    expect(kube.objects.get(`${ns}/secrets/blockhost-g1-rcon`)).toEqual(secret);

    kube.modify(gsPath, (gs) => (gs.status = { state: 'Unhealthy' }));
    expect(await waitFor(driver, game, 'CRASHED', 10_000)).toMatchObject({ reason: 'GameServer blockhost-g1 is Unhealthy' });
    // A dead GameServer is replaced on start.
    await driver.start(game);
    expect(objectCalls().slice(-2)).toEqual([`DELETE ${gsPath}`, 'POST /apis/agones.dev/v1/namespaces/games/gameservers']);

    await driver.remove(game);
    expect([...kube.objects.keys()]).toEqual([]);
    expect(await driver.observe(game)).toMatchObject({ status: 'STOPPED' });
  });

  it('is RUNNING once the server answers a ping and RCON, and stops it over RCON', async () => {
    const game = gameSpec('g1');
    await local.start(game);
    const config = readServerConfig(local.dir(game));
    const driver = driverFor(config.rconPort);
    const ready: string[] = [];
    driver.onReady((gameId) => ready.push(gameId));
    await driver.start(game);
    // The real server's password stands in for the one the driver generated.
    (kube.objects.get(`${ns}/secrets/blockhost-g1-rcon`) as { data: object }).data = { password: Buffer.from(config.rconPassword).toString('base64') };
    expect(ready).toEqual([]);
    markReady(config.port);
    // The GameServer turning Ready in the watch is told to the listeners at once.
    await expect.poll(() => ready, { timeout: 10_000 }).toEqual(['g1']);

    const running = await waitFor(driver, game, 'RUNNING');
    expect(running).toMatchObject({ address: `127.0.0.1:${config.port}`, version: '1.21.4', motd: 'BlockHost test', players: [] });
    expect(await driver.rcon(game, 'whitelist list')).toBe('There are no whitelisted players');
    // Told once per turn: a change while Ready is not told; Ready again after another state is
    // (the watch's events come in order, so the second word also shows the first change was heard).
    kube.modify(gsPath, (gs) => (gs.status = { ...(gs.status as object), players: { count: 1 } }));
    kube.modify(gsPath, (gs) => (gs.status = { state: 'Scheduled' }));
    markReady(config.port);
    await expect.poll(() => ready, { timeout: 10_000 }).toEqual(['g1', 'g1']);

    const stopping = driver.stop(game);
    await waitFor(local, game, 'STOPPED', 20_000);
    kube.modify(gsPath, (gs) => (gs.status = { state: 'Shutdown' }));
    await stopping;
    expect(kube.calls.at(-1)).toBe(`DELETE ${gsPath}`);
    expect(await driver.observe(game)).toMatchObject({ status: 'STOPPED' });
    await expect(driver.rcon(game, 'list')).rejects.toThrow('game g1 is not running');
  }, 120_000);

  it('puts a game to sleep as the reconciler does (its GameServer gone, its world kept) and wakes it with a start on the same world', async () => {
    const game = gameSpec('g1');
    await local.start(game);
    const config = readServerConfig(local.dir(game));
    const driver = driverFor(config.rconPort);
    await driver.start(game);
    (kube.objects.get(`${ns}/secrets/blockhost-g1-rcon`) as { data: object }).data = { password: Buffer.from(config.rconPassword).toString('base64') };
    markReady(config.port);
    await waitFor(driver, game, 'RUNNING');
    // Where the gateway sends players: the GameServer's address, from the watch.
    expect(await driver.gatewayTarget(game)).toEqual({ host: '127.0.0.1', port: config.port });
    const claim = kube.objects.get(`${ns}/persistentvolumeclaims/blockhost-g1-world`);
    expect(claim).toBeDefined();

    // Asleep: the server saves and stops over RCON, its GameServer is deleted; the world's volume, its secret and lists stay.
    const sleeping = driver.stop(game);
    await waitFor(local, game, 'STOPPED', 20_000);
    kube.modify(gsPath, (gs) => (gs.status = { state: 'Shutdown' }));
    await sleeping;
    expect(kube.objects.has(gsPath)).toBe(false);
    expect(kube.objects.get(`${ns}/persistentvolumeclaims/blockhost-g1-world`)).toEqual(claim);
    expect(kube.objects.has(`${ns}/secrets/blockhost-g1-rcon`)).toBe(true);
    expect(await driver.observe(game)).toMatchObject({ status: 'STOPPED' });
    await expect.poll(() => driver.gatewayTarget(game), { timeout: 10_000 }).toBeNull();

    // Woken: a start makes a GameServer again on the same claim, and it runs with the world it saved.
    await driver.start(game);
    const woken = kube.objects.get(gsPath) as { spec: { template: { spec: { volumes: Array<{ persistentVolumeClaim?: { claimName: string } }> } } } };
    expect(woken.spec.template.spec.volumes.map((v) => v.persistentVolumeClaim?.claimName).filter(Boolean)).toEqual(['blockhost-g1-world']);
    // The claim is the one the world was saved on, not made anew (a second create finds it there).
    expect(kube.objects.get(`${ns}/persistentvolumeclaims/blockhost-g1-world`)).toEqual(claim);
    await local.start(game);
    const again = readServerConfig(local.dir(game));
    (kube.objects.get(`${ns}/secrets/blockhost-g1-rcon`) as { data: object }).data = { password: Buffer.from(again.rconPassword).toString('base64') };
    markReady(again.port);
    await waitFor(driver, game, 'RUNNING');
    expect(await driver.gatewayTarget(game)).toEqual({ host: '127.0.0.1', port: again.port });
    const stopping = driver.stop(game);
    await waitFor(local, game, 'STOPPED', 20_000);
    kube.modify(gsPath, (gs) => (gs.status = { state: 'Shutdown' }));
    await stopping;
  }, 120_000);

  it('reaches an HTTPS API with the cluster CA given, and names the untrusted certificate without it', async () => {
    const tlsKube = await startFakeKubernetes({ tls: true });
    try {
      const game = gameSpec('g1');
      const options = { apiUrl: tlsKube.url, token: tlsKube.token, namespace: 'games', image: 'itzg/minecraft-server' };
      const trusted = createRuntime({ driver: 'agones', dataDir, host: 'h', portRange: { from: 30000, to: 30009 }, kubernetes: { ...options, caFile: tlsKube.caFile! } }).driver;
      await trusted.start(game);
      expect(await trusted.observe(game)).toMatchObject({ status: 'STARTING' });
      expect(tlsKube.calls).toContain('POST /apis/agones.dev/v1/namespaces/games/gameservers');
      await trusted.close();

      // Node's public roots do not know a cluster's own CA: the call fails before reaching the API.
      // (The closed driver's watch may still be on its way: not counted.)
      const reached = () => tlsKube.calls.filter((c) => !c.startsWith('WATCH ')).length;
      const calls = reached();
      await expect(new AgonesDriver(options).observe(game)).rejects.toThrow(
        `Kubernetes GET ${gsPath}: unable to verify the first certificate (UNABLE_TO_VERIFY_LEAF_SIGNATURE); the API's certificate is not trusted: is the cluster's CA given (KUBERNETES_CA_FILE)?`,
      );
      expect(reached()).toBe(calls);
      expect(() => new AgonesDriver({ ...options, caFile: path.join(dataDir, 'missing.crt') })).toThrow(`the Kubernetes CA file ${path.join(dataDir, 'missing.crt')} cannot be read: ENOENT`);
    } finally {
      await tlsKube.close();
    }
  });

  it('reaches the API through a kubeconfig: its current context’s cluster, token user and namespace', async () => {
    const kubeconfig = path.join(dataDir, 'kubeconfig');
    fs.writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        // Plain HTTP is only taken by the client with its TLS checks off, which it has none of.
        `- {name: fake, cluster: {server: "${kube.url}", insecure-skip-tls-verify: true}}`,
        '- {name: elsewhere, cluster: {server: "http://127.0.0.1:9"}}',
        'users:',
        `- {name: ci, user: {token: "${kube.token}"}}`,
        'contexts:',
        '- {name: other, context: {cluster: elsewhere, user: ci, namespace: nope}}',
        '- {name: games, context: {cluster: fake, user: ci, namespace: games}}',
        'current-context: games',
      ].join('\n'),
    );
    const driver = new AgonesDriver({ kubeconfig, image: 'itzg/minecraft-server' });
    const game = gameSpec('g1');
    await driver.start(game);
    expect(kube.calls).toContain('POST /apis/agones.dev/v1/namespaces/games/gameservers');
    expect(await driver.observe(game)).toMatchObject({ status: 'STARTING' });
    await driver.close();
    // KUBERNETES_NAMESPACE comes before the context's.
    const elsewhere = new AgonesDriver({ kubeconfig, namespace: 'other', image: 'itzg/minecraft-server' });
    await elsewhere.provision(game);
    expect(kube.calls).toContain('POST /api/v1/namespaces/other/secrets');
    await elsewhere.close();
    expect(() => new AgonesDriver({ kubeconfig: path.join(dataDir, 'missing'), image: 'i' })).toThrow(`the kubeconfig file ${path.join(dataDir, 'missing')} cannot be used: ENOENT`);
  });

  it('reaches an HTTPS API with a kubeconfig’s CA and client certificate, its log followed too', async () => {
    const tlsKube = await startFakeKubernetes({ tls: true });
    const consoles = agonesConsoles(path.join(dataDir, 'consoles'));
    const drivers: AgonesDriver[] = [];
    try {
      // Files named relative to the kubeconfig, as kubectl reads them; the key given inline.
      const dir = path.join(dataDir, 'kube');
      fs.mkdirSync(dir);
      fs.copyFileSync(tlsKube.caFile!, path.join(dir, 'ca.crt'));
      fs.copyFileSync(tlsKube.clientCertFile!, path.join(dir, 'me.crt'));
      const keyData = fs.readFileSync(tlsKube.clientKeyFile!).toString('base64');
      const write = (name: string, cluster: string, user: string) => {
        fs.writeFileSync(
          path.join(dir, name),
          [
            'clusters:',
            `- {name: c, cluster: {server: "${tlsKube.url}"${cluster ? `, ${cluster}` : ''}}}`,
            'users:',
            `- {name: u, user: {${user}}}`,
            'contexts:',
            '- {name: x, context: {cluster: c, user: u, namespace: games}}',
            'current-context: x',
          ].join('\n'),
        );
        const driver = new AgonesDriver({ kubeconfig: path.join(dir, name), image: 'itzg/minecraft-server', consoles });
        drivers.push(driver);
        return driver;
      };
      const game = gameSpec('g1');
      const certified = write('config', 'certificate-authority: ca.crt', `client-certificate: me.crt, client-key-data: "${keyData}"`);
      await certified.start(game);
      expect(await certified.observe(game)).toMatchObject({ status: 'STARTING' });
      expect(tlsKube.calls).toContain('POST /apis/agones.dev/v1/namespaces/games/gameservers');
      // The log is followed by hand, with the same certificate.
      tlsKube.podLog('games', 'blockhost-g1', '[init] Starting the Minecraft server...');
      await vi.waitFor(() => expect((consoles.lines(game, 0, 10) ?? []).map((l) => l.text)).toEqual(['[init] Starting the Minecraft server...']), { timeout: 10_000, interval: 50 });

      // Without the certificate the API does not know the caller; without the CA the caller does not trust the API.
      await expect(write('anonymous', 'certificate-authority: ca.crt', '').observe(game)).rejects.toThrow(`Kubernetes GET ${gsPath}: 401 Unauthorized`);
      await expect(write('untrusted', '', `client-certificate: me.crt, client-key-data: "${keyData}"`).observe(game)).rejects.toThrow(
        "the API's certificate is not trusted: is the cluster's CA in the kubeconfig's cluster (certificate-authority)?",
      );
      // insecure-skip-tls-verify is the caller's choice, and carried to each connection.
      expect(await write('insecure', 'insecure-skip-tls-verify: true', `client-certificate: me.crt, client-key-data: "${keyData}"`).observe(game)).toMatchObject({ status: 'STARTING' });
    } finally {
      for (const driver of drivers) await driver.close();
      await tlsKube.close();
    }
  });

  it('reads the GameServers from one watch: a change reaches observe without a GET, across a dropped watch and a 410 Gone', async () => {
    const driver = driverFor();
    const game = gameSpec('g1');
    const collection = '/apis/agones.dev/v1/namespaces/games/gameservers';
    const count = (call: string) => kube.calls.filter((c) => c === call).length;
    const watching = (n: number) => vi.waitFor(() => expect(count(`WATCH ${collection}`)).toBe(n), { timeout: 10_000, interval: 20 });
    try {
      await driver.start(game);
      expect(await driver.observe(game)).toMatchObject({ status: 'STARTING' });
      await watching(1);
      expect(count(`LIST ${collection}`)).toBe(1);
      const gets = count(`GET ${gsPath}`);
      kube.modify(gsPath, (gs) => (gs.status = { state: 'Unhealthy' }));
      expect(await waitFor(driver, game, 'CRASHED', 10_000)).toMatchObject({ reason: 'GameServer blockhost-g1 is Unhealthy' });

      // A dropped connection: listed again, then watched; nothing asked of the object itself.
      kube.dropWatches();
      await watching(2);
      kube.modify(gsPath, (gs) => (gs.status = { state: 'Scheduled' }));
      await waitFor(driver, game, 'STARTING', 10_000);

      // A watch the API ends, whose version it forgot since: 410 Gone, a new list, a new watch.
      const lists = count(`LIST ${collection}`);
      kube.compact();
      kube.endWatches();
      await vi.waitFor(
        () => {
          expect(count(`LIST ${collection}`)).toBeGreaterThan(lists);
          expect(kube.calls.filter((c) => c.endsWith(collection)).at(-1)).toBe(`WATCH ${collection}`);
        },
        { timeout: 10_000, interval: 20 },
      );
      kube.modify(gsPath, (gs) => (gs.status = { state: 'Error' }));
      expect(await waitFor(driver, game, 'CRASHED', 10_000)).toMatchObject({ reason: 'GameServer blockhost-g1 is Error' });
      expect(count(`GET ${gsPath}`)).toBe(gets);

      // The driver's own writes are not hidden by a watch that has not shown them yet.
      kube.holdWatches(true);
      await driver.stop(game);
      expect(await driver.observe(game)).toMatchObject({ status: 'STOPPED' });
      await driver.start(game);
      expect(await driver.observe(game)).toMatchObject({ status: 'STARTING' });
      kube.holdWatches(false);
      // Once the watch showed them, memory answers again.
      await vi.waitFor(
        async () => {
          const before = count(`GET ${gsPath}`);
          expect(await driver.observe(game)).toMatchObject({ status: 'STARTING' });
          expect(count(`GET ${gsPath}`)).toBe(before);
        },
        { timeout: 10_000, interval: 20 },
      );
    } finally {
      await driver.close();
    }
  });

  it('reads a running server’s usage from the metrics API, and none without metrics', async () => {
    const driver = driverFor();
    const game = gameSpec('G1');
    const metricsPath = '/apis/metrics.k8s.io/v1beta1/namespaces/games/pods/blockhost-g1';
    // No metrics-server, or a pod not measured yet: the API answers 404.
    expect(await driver.usage(game)).toBeNull();
    kube.objects.set(metricsPath, {
      kind: 'PodMetrics',
      apiVersion: 'metrics.k8s.io/v1beta1',
      metadata: { name: 'blockhost-g1', namespace: 'games' },
      window: '15s',
      containers: [
        { name: 'agones-gameserver-sidecar', usage: { cpu: '2m', memory: '20Mi' } },
        { name: 'minecraft', usage: { cpu: '1250000000n', memory: '786432Ki' } },
      ],
    });
    expect(await driver.usage(game)).toEqual({ cpuCores: 1.25, memoryBytes: 768 * 1024 * 1024 });
    expect(kube.calls).toContain(`GET ${metricsPath}`);
  });

  it('follows the server container’s log into the console, numbered once across reconnections and an API restart', async () => {
    const consoleDir = path.join(dataDir, 'consoles');
    const options = { apiUrl: kube.url, token: kube.token, namespace: 'games', image: 'itzg/minecraft-server', consoleDir };
    const consoles = agonesConsoles(consoleDir);
    const driver = new AgonesDriver({ ...options, consoles });
    const game = gameSpec('G1');
    const texts = (c: GameConsoles) => (c.lines(game, 0, 100) ?? []).map((l) => `${l.seq} ${l.level} ${l.text}`);
    const until = async (c: GameConsoles, count: number) => {
      for (let i = 0; i < 100 && texts(c).length < count; i++) await new Promise((r) => setTimeout(r, 50));
      return texts(c);
    };
    try {
      expect(consoles.lines(game, 0, 100)).toBeNull();
      await driver.start(game);
      // The pod has no log yet: the driver asks again until it has.
      kube.podLog('games', 'blockhost-g1', '[init] Starting the Minecraft server...');
      kube.podLog('games', 'blockhost-g1', "[12:00:01] [Server thread/WARN]: Can't keep up!");
      expect(await until(consoles, 2)).toEqual(['1 info [init] Starting the Minecraft server...', "2 warn [12:00:01] [Server thread/WARN]: Can't keep up!"]);
      expect(kube.calls).toContain('GET /api/v1/namespaces/games/pods/blockhost-g1/log');

      // The log's connection ends while the GameServer lives: asked again, nothing taken twice.
      kube.endPodLog('games', 'blockhost-g1');
      kube.podLog('games', 'blockhost-g1', '[12:00:02] [Server thread/INFO]: Alex joined the game');
      expect(await until(consoles, 3)).toEqual([...texts(consoles).slice(0, 2), '3 info [12:00:02] [Server thread/INFO]: Alex joined the game']);
      const [third] = consoles.lines(game, 2, 1)!;
      expect(Date.parse(third!.at)).toBeGreaterThan(Date.now() - 60_000);

      // Another API process finds the history and follows on from it.
      await driver.close();
      const againConsoles = agonesConsoles(consoleDir);
      const again = new AgonesDriver({ ...options, consoles: againConsoles });
      try {
        expect(await again.observe(game)).toMatchObject({ status: 'STARTING' });
        kube.podLog('games', 'blockhost-g1', '[12:00:03] [Server thread/ERROR]: boom');
        expect((await until(againConsoles, 4)).slice(2)).toEqual(['3 info [12:00:02] [Server thread/INFO]: Alex joined the game', '4 error [12:00:03] [Server thread/ERROR]: boom']);
      } finally {
        await again.close();
      }
    } finally {
      await driver.close();
    }
  });

  it('says what is wrong: a refused token, a bad game id, a bad driver name', async () => {
    const driver = new AgonesDriver({ apiUrl: kube.url, token: 'wrong', namespace: 'games', image: 'itzg/minecraft-server' });
    await expect(driver.observe(gameSpec('g2'))).rejects.toThrow(`Kubernetes GET ${gsPath.replace('g1', 'g2')}: 401 Unauthorized`);
    await expect(driverFor().start(gameSpec('no/slash'))).rejects.toThrow('game id "no/slash" is invalid');
    expect(() =>
      createRuntime({ driver: 'docker' as 'local', dataDir, host: 'h', portRange: { from: 30000, to: 30009 }, kubernetes: { apiUrl: kube.url, token: 't', namespace: 'n', image: 'i' } }),
    ).toThrow('game driver "docker" is unknown: expected one of local, agones');
    expect(createRuntime({ driver: 'agones', dataDir, host: 'h', portRange: { from: 30000, to: 30009 }, kubernetes: { apiUrl: kube.url, token: 't', namespace: 'n', image: 'i' } }).driver.name).toBe(
      'agones',
    );
  });
});
