import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { startReplica, startTestApp } from '../fixtures/app.ts';
import { redisCounters } from '../../src/server/lib/counters.ts';

/**
 * Rate limits and failed sign-ins counted in Redis (REDIS_URL), so replicas share them; Redis is
 * this machine's (127.0.0.1:6379), each test under a key prefix of its own.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const silent = { warn: () => {} } as never;
const prefix = () => `test:${randomBytes(6).toString('hex')}:`;

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

  it('without Redis each replica counts alone: the same requests all pass (why REDIS_URL is needed)', async () => {
    expect(await sixRequestsThroughTwoReplicas(false)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it('serves requests uncounted while Redis is unreachable, instead of refusing them', async () => {
    const t = await startTestApp({ RATE_LIMIT_API_PER_MINUTE: '2', REDIS_URL: 'redis://127.0.0.1:1', REDIS_KEY_PREFIX: prefix() });
    closers.push(() => t.close());
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.as('alice', { method: 'GET', url: '/v1/user' })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200]);
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
    const [a, b] = [redisCounters(one, shared, silent), redisCounters(two, shared, silent)];
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
    const counters = redisCounters(away, prefix(), silent);
    expect(await counters.hit('signin-failed:alice', 60_000)).toBe(0);
    expect(await counters.count('signin-failed:alice')).toBe(0);
  });
});
