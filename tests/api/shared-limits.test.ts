import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { startReplica, startTestApp, type TestApp } from '../fixtures/app.ts';
import { RedisLink, redisCounters } from '../../src/server/lib/counters.ts';

/**
 * Rate limits and failed sign-ins counted in Redis (REDIS_URL), so replicas share them; Redis is
 * this machine's (127.0.0.1:6379), each test under a key prefix of its own.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const silent = { warn: () => {} } as never;
const prefix = () => `test:${randomBytes(6).toString('hex')}:`;

const INTERNAL_TOKEN = 'metrics-scraper-secret';

/** What a Prometheus scraper reads at /metrics. */
async function scrape(t: TestApp): Promise<string> {
  const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${INTERNAL_TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('text/plain; version=0.0.4');
  return res.body;
}

let closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

/**
 * Six requests of one player through two replicas of one database in turn, with a limit of 4 a
 * minute; `redis` says whether the replicas count in Redis. The statuses they answered.
 */
async function sixRequestsThroughTwoReplicas(redis: boolean): Promise<number[]> {
  const a = await startTestApp({ RATE_LIMIT_API_PER_MINUTE: '4', ...(redis ? { REDIS_URL, REDIS_KEY_PREFIX: prefix() } : {}) });
  closers.push(() => a.close());
  const b = await startReplica(a);
  closers.push(() => b.close());
  const bearer = `Bearer ${await a.token('alice')}`;
  const statuses = [];
  for (const app of [a.app, b.app, a.app, b.app, b.app, a.app]) statuses.push((await app.inject({ method: 'GET', url: '/v1/user', headers: { authorization: bearer } })).statusCode);
  return statuses;
}

describe('limits shared by replicas', () => {
  it('holds the API limit across two replicas: 4 a minute in all, not 4 each', async () => {
    expect(await sixRequestsThroughTwoReplicas(true)).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it.each([
    ['in Redis', true],
    ['in memory', false],
  ])('counts calls to every route against one budget per user, %s', async (_where, redis) => {
    const t = await startTestApp({ RATE_LIMIT_API_PER_MINUTE: '4', ...(redis ? { REDIS_URL, REDIS_KEY_PREFIX: prefix() } : {}) });
    closers.push(() => t.close());
    const paths = ['/v1/user', '/v1/friend', '/v1/friend/group', '/v1/user/notifications', '/v1/blocklist'];
    const statuses = [];
    for (const url of paths) statuses.push((await t.as('alice', { method: 'GET', url })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    // Another user has a budget of their own.
    expect((await t.as('bob', { method: 'GET', url: '/v1/friend' })).statusCode).toBe(200);
    // Without a token, calls are counted by address, across routes too.
    const anonymous = [];
    const unknown = `/v1/definition/game/${randomUUID()}`;
    for (const url of ['/v1/definition/game/list', unknown, '/v1/definition/game/list', unknown, '/v1/definition/game/list']) {
      anonymous.push((await t.app.inject({ method: 'GET', url })).statusCode);
    }
    expect(anonymous).toEqual([200, 404, 200, 404, 429]);
  });

  it('without Redis each replica counts alone: the same requests all pass (why REDIS_URL is needed)', async () => {
    expect(await sixRequestsThroughTwoReplicas(false)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it('serves requests uncounted while Redis is unreachable, instead of refusing them, and says so in its metrics', async () => {
    const t = await startTestApp({ RATE_LIMIT_API_PER_MINUTE: '2', REDIS_URL: 'redis://127.0.0.1:1', REDIS_KEY_PREFIX: prefix(), INTERNAL_TOKEN });
    closers.push(() => t.close());
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.as('alice', { method: 'GET', url: '/v1/user' })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200]);
    const metrics = await scrape(t);
    expect(metrics).toContain('blockhost_redis_up 0\n');
    expect(Number(/^blockhost_redis_errors_total (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);
  });

  it('shows Redis up and no errors in its metrics, to a scraper holding INTERNAL_TOKEN only', async () => {
    const t = await startTestApp({ REDIS_URL, REDIS_KEY_PREFIX: prefix(), INTERNAL_TOKEN });
    closers.push(() => t.close());
    const metrics = await scrape(t);
    expect(metrics).toContain('# TYPE blockhost_redis_errors_total counter\nblockhost_redis_errors_total 0\n');
    expect(metrics).toContain('blockhost_redis_up 1\n');
    expect(metrics).toMatch(/^process_resident_memory_bytes \d+$/m);
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer not-the-internal-token' } })).statusCode).toBe(403);
    // Without INTERNAL_TOKEN, and without Redis, there is nothing to scrape.
    const off = await startTestApp();
    closers.push(() => off.close());
    expect((await off.app.inject({ url: '/metrics' })).statusCode).toBe(404);
  });
});

describe('failed sign-ins counted in Redis', () => {
  it('adds up the failures two replicas saw, within a one-minute window', async () => {
    const [one, two] = [new Redis(REDIS_URL), new Redis(REDIS_URL)];
    closers.push(
      () => one.quit(),
      () => two.quit(),
    );
    const shared = prefix();
    const [a, b] = [redisCounters(new RedisLink(one), shared, silent), redisCounters(new RedisLink(two), shared, silent)];
    expect(await a.hit('signin-failed:alice', 60_000)).toBe(1);
    expect(await b.hit('signin-failed:alice', 60_000)).toBe(2);
    expect(await a.hit('signin-failed:alice', 60_000)).toBe(3);
    expect(await b.count('signin-failed:alice')).toBe(3);
    expect(await b.count('signin-failed:bob')).toBe(0);
    // The window started with the first failure and is not pushed back by the next ones.
    const ttl = await one.pttl(`${shared}signin-failed:alice`);
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('answers 0 without throwing while Redis is unreachable, so sign-in keeps working', async () => {
    const away = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
    away.on('error', () => {});
    closers.push(async () => away.disconnect());
    const link = new RedisLink(away);
    const counters = redisCounters(link, prefix(), silent);
    expect(await counters.hit('signin-failed:alice', 60_000)).toBe(0);
    expect(await counters.count('signin-failed:alice')).toBe(0);
    expect(link.errors).toBe(2);
  });
});
