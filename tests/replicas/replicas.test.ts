import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OidcClient } from '../fixtures/oidc-client.ts';
import { openStream } from '../fixtures/sse.ts';
import { startCluster, type Cluster, type Replica } from './cluster.ts';

/**
 * Two replicas of the API, as a deployment runs them, reached in turn: what one process knows
 * alone (its memory, its disk) must not decide anything. `REPLICAS_WITHOUT_REDIS=1` runs the
 * same suite with each replica counting its limits in memory, to see the limits' tests fail.
 */
const API_LIMIT = 40;
const SIGNIN_LIMIT = 10;
let cluster: Cluster;
let a: Replica;
let b: Replica;

beforeAll(async () => {
  cluster = await startCluster({
    RATE_LIMIT_API_PER_MINUTE: String(API_LIMIT),
    RATE_LIMIT_SIGNIN_PER_MINUTE: String(SIGNIN_LIMIT),
    ...(process.env.REPLICAS_WITHOUT_REDIS ? { REDIS_URL: undefined } : {}),
  });
  [a, b] = cluster.replicas;
});
afterAll(async () => {
  await cluster?.stop();
});

/** A call to one replica as `user`; writes carry an Idempotency-Key, as the web app's do. */
async function call(replica: Replica, user: string, method: string, path: string, body?: unknown, { roles = [] as string[], key = randomUUID() } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${await cluster.token(user, roles)}` };
  if (method !== 'GET') headers['idempotency-key'] = key;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${replica.origin}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: (text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : {}) as Record<string, unknown> };
}

/** The names of a page of friend groups. */
const names = (page: Record<string, unknown>) => (page.data as Array<{ name: string }>).map((g) => g.name);

const staff = { roles: ['staff'] };
/** A published definition with one package, made by staff through `replica`. */
async function offer(replica: Replica) {
  const def = await call(
    replica,
    'boss',
    'POST',
    '/v1/definition/game',
    { name: { fr: 'Survie', en: 'Survival' }, description: { fr: 'Survivre', en: 'Survive' }, version: '1.21.4', published: true },
    staff,
  );
  expect(def.status).toBe(201);
  const pack = await call(
    replica,
    'boss',
    'POST',
    '/v1/definition/game/package',
    { definitionId: def.json.id, name: { fr: 'Petit', en: 'Small' }, ramMb: 1024, maxPlayers: 10, periodDays: 30, priceCredits: 100 },
    staff,
  );
  expect(pack.status).toBe(201);
  return { definitionId: def.json.id as string, packageId: pack.json.id as string };
}

describe('two replicas', () => {
  it('count failed sign-ins of an account together: 10 in all, then refused even with the right password', async () => {
    const signUp = await new OidcClient(a.origin).signUp('carol', 'carol@example.com', 'Correct-Horse-9');
    expect(signUp.status).toBe(200);
    const client = new OidcClient(a.origin);
    const interaction = await client.startSignIn();
    // Each try from another address, so only the account's count can stop them.
    const attempt = (replica: Replica, n: number, password: string) =>
      client.request(`${replica.origin}${interaction}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': `10.0.0.${n}` },
        body: new URLSearchParams({ login: 'carol', password }).toString(),
      });
    const statuses = [];
    for (let n = 1; n <= SIGNIN_LIMIT; n++) statuses.push((await attempt(n % 2 ? a : b, n, 'wrong')).status);
    expect(statuses).toEqual(Array(SIGNIN_LIMIT).fill(401));
    const right = await attempt(b, 100, 'Correct-Horse-9');
    expect(right.status).toBe(429);
    expect(await right.text()).toContain('login');
  });

  it('count sign-in tries from one address together, whatever the account', async () => {
    const client = new OidcClient(a.origin);
    const interaction = await client.startSignIn();
    const statuses = [];
    for (let n = 1; n <= SIGNIN_LIMIT + 1; n++) {
      const res = await client.request(`${(n % 2 ? a : b).origin}${interaction}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '10.1.0.1' },
        body: new URLSearchParams({ login: `nobody${n}`, password: 'wrong' }).toString(),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(SIGNIN_LIMIT).fill(401), 429]);
  });

  it("count a user's API calls together, whatever the route: one budget across both replicas and every route", async () => {
    // Four routes in turn: a limit counted per route would let 4 × API_LIMIT through.
    const paths = ['/v1/user', '/v1/friend', '/v1/friend/group', '/v1/user/notifications'];
    const statuses = [];
    for (let n = 0; n <= API_LIMIT; n++) statuses.push((await call(n % 2 ? b : a, 'dave', 'GET', paths[n % paths.length]!)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(API_LIMIT);
    expect(statuses.at(-1)).toBe(429);
    // Every route is spent, not only the one that answered 429.
    for (const path of paths) expect((await call(a, 'dave', 'GET', path)).status).toBe(429);
  });

  it('deliver a notification written through one to a stream held on the other', async () => {
    const alice = (await call(a, 'alice', 'GET', '/v1/user')).json.id as string;
    expect((await call(a, 'bob', 'GET', '/v1/user')).status).toBe(200);
    const stream = await openStream(`${b.origin}/v1/user/notifications/stream`, await cluster.token('alice'));
    try {
      // Its headers came once the stream was registered on `b`.
      expect(stream.status).toBe(200);
      expect((await call(a, 'bob', 'POST', '/v1/friend', { userId: alice })).status).toBe(201);
      const [notice] = await stream.waitFor('basic-link-event', 1, 10_000);
      expect(JSON.parse(notice!.data)).toMatchObject({ key: 'friendRequest.received', params: { name: 'bob' } });
    } finally {
      stream.close();
    }
  });

  it('answer an Idempotency-Key replayed on the other replica with the first answer, creating nothing more', async () => {
    const key = randomUUID();
    const first = await call(a, 'frank', 'POST', '/v1/friend/group', { name: 'Raid' }, { key });
    expect(first.status).toBe(201);
    const again = await call(b, 'frank', 'POST', '/v1/friend/group', { name: 'Raid' }, { key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(first.json);
    expect((await call(b, 'frank', 'POST', '/v1/friend/group', { name: 'Other' }, { key })).status).toBe(422);
    expect(names((await call(b, 'frank', 'GET', '/v1/friend/group')).json)).toEqual(['Raid']);
  });

  it('serve an image uploaded through one from the other, with the same caching', async () => {
    const { definitionId } = await offer(a);
    const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 40, g: 160, b: 90 } } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('image', new Blob([png], { type: 'image/png' }), 'castle.png');
    const upload = await fetch(`${a.origin}/v1/definition/game/${definitionId}/image`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await cluster.token('boss', ['staff'])}`, 'idempotency-key': randomUUID() },
      body: form,
    });
    expect(upload.status).toBe(200);
    const { image } = (await upload.json()) as { image: string };
    const served = await fetch(`${b.origin}${image}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await sharp(Buffer.from(await served.arrayBuffer())).metadata()).toMatchObject({ format: 'webp', width: 640, height: 360 });
    expect((await call(b, 'alice', 'GET', `/v1/definition/game/${definitionId}`)).json.image).toBe(image);
  });

  it('run a scheduled task once, though both replicas look for due tasks', async () => {
    const { definitionId, packageId } = await offer(b);
    const grace = (await call(a, 'grace', 'GET', '/v1/user')).json.id as string;
    expect((await call(a, 'boss', 'POST', '/v1/user/credit', { userId: grace, amount: 100, reason: 'Replicas test' }, staff)).status).toBe(200);
    const game = await call(b, 'grace', 'POST', '/v1/game/create', { definitionId, packageId, name: 'Shared' });
    expect(game.status).toBe(201);
    const gameId = game.json.id as string;
    const schedule = await call(a, 'grace', 'POST', `/v1/game/${gameId}/schedules`, { task: 'stop', repeat: 'daily', time: '04:00', timeZone: 'UTC' });
    expect(schedule.status).toBe(201);
    // Its time comes now; each replica looks every 5 s.
    await cluster.sql('update game_schedules set next_run_at = now() where id = $1', [schedule.json.id]);
    const poked = Date.now();
    const runs = async () => (await call(b, 'grace', 'GET', `/v1/game/${gameId}/schedules/${schedule.json.id as string}/runs`)).json.data as Array<Record<string, unknown>>;
    while ((await runs()).length === 0) {
      expect(Date.now() - poked, 'no run within 15 s').toBeLessThan(15_000);
      await new Promise((r) => setTimeout(r, 250));
    }
    // Both replicas have had a round since.
    await new Promise((r) => setTimeout(r, Math.max(0, poked + 11_000 - Date.now())));
    const done = await runs();
    expect(done).toHaveLength(1);
    // The game was never started: the stop had nothing to do.
    expect(done[0]).toMatchObject({ status: 'SKIPPED', reason: 'alreadyStopped' });
    const [listed] = (await call(a, 'grace', 'GET', `/v1/game/${gameId}/schedules`)).json.data as Array<{ nextRunAt: string }>;
    const next = listed!.nextRunAt;
    expect(new Date(next).getTime()).toBeGreaterThan(Date.now());
  }, 60_000);

  // Last: it kills a replica.
  it('lose no acknowledged write when one is killed mid-request, and the other keeps serving', async () => {
    const acknowledged: string[] = [];
    const failed: string[] = [];
    const write = async (n: number) => {
      const name = `Group ${n}`;
      try {
        const res = await call(b, 'henry', 'POST', '/v1/friend/group', { name });
        if (res.status === 201) acknowledged.push(name);
        else failed.push(`${name}: ${res.status}`);
      } catch {
        failed.push(`${name}: connection lost`);
      }
    };
    // Four writers at a time; the replica is killed while some are on their way.
    let n = 0;
    const writers = Array.from({ length: 4 }, async () => {
      while (n < 24) await write(n++);
    });
    while (acknowledged.length < 8) await new Promise((r) => setTimeout(r, 5));
    b.process.kill('SIGKILL');
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThanOrEqual(8);
    expect(failed.length, 'the kill cut no request short').toBeGreaterThan(0);

    const listed = names((await call(a, 'henry', 'GET', '/v1/friend/group?size=100')).json);
    for (const name of acknowledged) expect(listed).toContain(name);
    expect((await call(a, 'henry', 'POST', '/v1/friend/group', { name: 'After' })).status).toBe(201);
    expect((await call(a, 'alice', 'GET', '/v1/user')).status).toBe(200);
  });
});
