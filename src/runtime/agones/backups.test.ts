import crypto from 'node:crypto';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gameSpec } from '../../../tests/fixtures/minecraft.ts';
import { startS3Server, type S3Server } from '../../../tests/fixtures/s3-server.ts';
import { contents, makeWorld, renamed, worldEntries, zipOf } from '../../../tests/fixtures/worlds.ts';
import { AgonesDriver } from '../agones-driver.ts';
import { NoWorldError, UnsupportedError, type ObjectLocation } from '../driver.ts';
import { startRconServer } from '../minecraft/rcon-server.ts';
import { WorldArchiveError } from '../minecraft/world-archive.ts';
import { startFakeCluster, type FakeCluster } from '../../../tests/fixtures/fake-cluster.ts';

/**
 * Backups and restores on the agones driver. Only Kubernetes is played (tests/fixtures/fake-cluster.ts): the world
 * agent runs for real as the pod's process on a folder standing for the volume, writes to and
 * reads from a real S3-compatible server through presigned URLs, and a running server's saves are
 * paused and resumed over real RCON.
 */
describe('AgonesDriver backups', () => {
  const toolImage = 'blockhost:test';
  const ns = '/api/v1/namespaces/games';
  const podPath = `${ns}/pods/blockhost-g1-world`;
  const game = gameSpec('g1');
  let tmp: string;
  let kube: FakeCluster;
  let s3: S3Server;
  let client: S3Client;
  let driver: AgonesDriver;
  let rconPort: number;
  let agentPort: number;

  const freePort = () =>
    new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });

  beforeEach(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-agones-backups-'));
    kube = await startFakeCluster({ image: toolImage, volumesDir: tmp });
    s3 = await startS3Server();
    client = new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      // As the platform's S3 store: no checksum trailers signed into a presigned PUT.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    rconPort = await freePort();
    const options = { apiUrl: kube.url, token: kube.token, namespace: 'games', image: 'itzg/minecraft-server', toolImage, rconPort, worldPodTimeoutMs: 20_000 };
    agentPort = await freePort();
    driver = new AgonesDriver({ ...options, agentPort });
  });

  afterEach(async () => {
    client.destroy();
    await driver.close();
    await kube.close();
    await s3.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const worldDir = () => path.join(kube.volume('blockhost-g1-world'), 'world');
  const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');
  /** What the platform hands a driver with BACKUP_STORE=s3: a presigned URL. */
  const presigned = async (method: 'PUT' | 'GET', key: string): Promise<ObjectLocation> => {
    const command = method === 'PUT' ? new PutObjectCommand({ Bucket: s3.bucket, Key: key }) : new GetObjectCommand({ Bucket: s3.bucket, Key: key });
    return { kind: 'url', url: await getSignedUrl(client, command, { expiresIn: 600 }), method, headers: {} };
  };
  const readBytes = async (key: string) => Buffer.from(await (await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }))).Body!.transformToByteArray());
  const exists = (key: string) =>
    client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key })).then(
      () => true,
      () => false,
    );
  const upload = async (key: string, zip: Buffer) => {
    await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: zip }));
    return presigned('GET', key);
  };

  it('backs a stopped world up from a pod of its own straight to S3, and deletes the pod', async () => {
    await driver.provision(game);
    makeWorld(worldDir());
    const progress: number[] = [];
    const result = await driver.backup(game, await presigned('PUT', 'g1/one.zip'), (f) => progress.push(f));

    const zip = await readBytes('g1/one.zip');
    expect(result).toEqual({ sizeBytes: zip.length, sha256: sha256(zip) });
    expect(zip.includes('world/level.dat')).toBe(true);
    expect(progress.at(-1)).toBe(1);
    expect(kube.calls).toContain(`POST ${ns}/pods`);
    expect(kube.calls.at(-1)).toBe(`DELETE ${podPath}`);
    expect(kube.objects.has(podPath)).toBe(false);
  });

  it('backs a running server up through its sidecar: saves paused, flushed, resumed, players kept', async () => {
    await driver.start(game);
    makeWorld(worldDir());
    const secret = kube.objects.get(`${ns}/secrets/blockhost-g1-rcon`) as { data: { password: string } };
    const commands: string[] = [];
    let storedBeforeResume: boolean | undefined;
    const rcon = await startRconServer({
      host: '127.0.0.1',
      port: rconPort,
      password: Buffer.from(secret.data.password, 'base64').toString('utf8'),
      async execute(command) {
        commands.push(command);
        if (command === 'save-on') storedBeforeResume = await exists('g1/running.zip');
        return command === 'save-all flush' ? 'Saved the game' : '';
      },
    });
    try {
      const gs = kube.objects.get('/apis/agones.dev/v1/namespaces/games/gameservers/blockhost-g1')!;
      gs.status = { state: 'Ready', address: '127.0.0.1', addresses: [{ type: 'PodIP', address: '127.0.0.1' }], ports: [{ name: 'minecraft', port: 25565 }] };
      const calls = kube.calls.length;
      const result = await driver.backup(game, await presigned('PUT', 'g1/running.zip'));

      expect(commands).toEqual(['save-off', 'save-all flush', 'save-on']);
      expect(storedBeforeResume).toBe(true);
      expect(result.sha256).toBe(sha256(await readBytes('g1/running.zip')));
      // No world pod: the running server's volume is not free, and its sidecar is there.
      expect(kube.calls.slice(calls).filter((c) => c.includes('/pods') && !c.endsWith('/log'))).toEqual([]);

      // A restore under the running server is refused before anything is touched.
      const before = contents(worldDir());
      const location = await upload('g1/other.zip', await zipOf(worldEntries()));
      await expect(driver.restore(game, location, 10_000_000)).rejects.toThrow('game g1 is running: stop it before a restore');
      // Nor would the sidecar swap a world under its server, and it wants the game's token.
      const ask = (token: string) =>
        fetch(`http://127.0.0.1:${agentPort}/restore`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify({ location, maxArchiveBytes: 10_000_000 }) });
      const wrong = await ask('wrong');
      expect([wrong.status, await wrong.json()]).toEqual([401, { error: 'agent.unauthorized', detail: 'the bearer token is missing or wrong' }]);
      const readOnly = await ask(Buffer.from(secret.data.password, 'base64').toString('utf8'));
      expect([readOnly.status, await readOnly.json()]).toEqual([409, { error: 'agent.read-only', detail: "this world is a running server's: stop it before a restore" }]);
      expect(contents(worldDir())).toEqual(before);
      expect(kube.calls.filter((c) => c.includes('/pods') && !c.endsWith('/log'))).toEqual([]);
    } finally {
      await new Promise((resolve) => rcon.close(resolve));
    }
  });

  it('says NoWorldError for a volume without a world, and for a game never provisioned', async () => {
    await expect(driver.backup(game, await presigned('PUT', 'g1/none.zip'))).rejects.toBeInstanceOf(NoWorldError);
    expect(kube.calls.filter((c) => c.includes('/pods') && !c.endsWith('/log'))).toEqual([]);

    await driver.provision(game);
    await expect(driver.backup(game, await presigned('PUT', 'g1/none.zip'))).rejects.toBeInstanceOf(NoWorldError);
    expect(kube.calls.at(-1)).toBe(`DELETE ${podPath}`);
    expect(await exists('g1/none.zip')).toBe(false);
  });

  it('says why a world pod did not serve, and deletes it: ended at once, or never running', async () => {
    await driver.provision(game);
    makeWorld(worldDir());
    // Without its token the agent exits at once: the pod fails.
    kube.objects.delete(`${ns}/secrets/blockhost-g1-rcon`);
    await expect(driver.backup(game, await presigned('PUT', 'g1/a.zip'))).rejects.toThrow('the world pod of game g1 ended (Failed, exit code 1: world agent: WORLD_AGENT_TOKEN is required)');
    expect(kube.objects.has(podPath)).toBe(false);

    // An image the cluster cannot run leaves the pod Pending: the wait is bounded.
    const stuck = new AgonesDriver({ apiUrl: kube.url, token: kube.token, namespace: 'games', image: 'itzg/minecraft-server', toolImage: 'missing:image', worldPodTimeoutMs: 1000 });
    await expect(stuck.restore(game, await presigned('GET', 'g1/a.zip'), 1000)).rejects.toThrow(
      'the world pod of game g1 is not serving after 1 s (Pending): is AGONES_TOOL_IMAGE pullable and the volume free?',
    );
    expect(kube.calls.at(-1)).toBe(`DELETE ${podPath}`);
    expect(kube.objects.has(podPath)).toBe(false);
  });

  it('restores a stopped world from S3, and refuses an unsafe zip leaving the world as it was', async () => {
    await driver.provision(game);
    makeWorld(worldDir());
    await driver.restore(game, await upload('g1/good.zip', await zipOf(worldEntries())), 10_000_000);
    expect(fs.readFileSync(path.join(worldDir(), 'marker.txt'), 'utf8')).toBe('restored');
    expect(kube.calls.at(-1)).toBe(`DELETE ${podPath}`);
    expect(kube.objects.has(podPath)).toBe(false);

    const before = contents(path.dirname(worldDir()));
    const evil = renamed(await zipOf([...worldEntries(), { name: 'world/xx/evil.txt', data: 'x' }]), 'world/xx/evil.txt', '../../../evil.txt');
    const refused = await driver.restore(game, await upload('g1/evil.zip', evil), 10_000_000).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(WorldArchiveError);
    expect(refused).toMatchObject({ code: 'archive.unsafe-path', detail: '../../../evil.txt' });
    expect(contents(path.dirname(worldDir()))).toEqual(before);
    expect(fs.existsSync(path.join(tmp, 'evil.txt'))).toBe(false);
    expect(kube.objects.has(podPath)).toBe(false);
  });

  it('refuses a file location, and works only with the agent image given, beside the server too', async () => {
    const file = { kind: 'file' as const, path: path.join(tmp, 'backup.zip') };
    await expect(driver.backup(game, file)).rejects.toThrow(new UnsupportedError("game g1: a backup on Agones needs BACKUP_STORE=s3, as a pod cannot reach this process's files"));
    await expect(driver.restore(game, file, 1000)).rejects.toBeInstanceOf(UnsupportedError);
    const bare = new AgonesDriver({ apiUrl: kube.url, token: kube.token, namespace: 'games', image: 'itzg/minecraft-server' });
    await expect(bare.backup(game, await presigned('PUT', 'g1/x.zip'))).rejects.toThrow("needs the world agent's image (AGONES_TOOL_IMAGE)");
    expect(kube.calls).toEqual([]);
    expect(bare.gameServerManifest(game).spec.template.spec.containers.map((c) => c.name)).toEqual(['minecraft', 'agones-ready']);
    expect(driver.gameServerManifest(game).spec.template.spec.containers.map((c) => c.name)).toEqual(['minecraft', 'agones-ready', 'world-agent']);

    // A server started before the image was set has no sidecar: refused before its saves pause.
    await bare.start(game);
    kube.objects.get('/apis/agones.dev/v1/namespaces/games/gameservers/blockhost-g1')!.status = { state: 'Ready', addresses: [{ type: 'PodIP', address: '127.0.0.1' }] };
    await expect(driver.backup(game, await presigned('PUT', 'g1/x.zip'))).rejects.toThrow('game g1 runs without the world agent (started before AGONES_TOOL_IMAGE was set)');
    // It follows the server's log: closed, so the cluster's connections end.
    await bare.close();
  });
});
