import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { TtlCache } from './ttl-cache.ts';

/**
 * Counts that must hold across replicas: failed sign-ins per account (and, through
 * @fastify/rate-limit's own Redis store, the request limits). With `REDIS_URL` they live in Redis,
 * so N replicas allow what one does; without it, in this process's memory, which is right for one
 * replica only (README, "Running several replicas").
 *
 * Redis going away must not take sign-in down with it: every count then answers 0 (fail open),
 * once logged per minute, and counting resumes when the connection is back.
 */
export interface WindowCounters {
  /** One more for `key` in its window (started by its first hit, `windowMs` long); the new count. */
  hit(key: string, windowMs: number): Promise<number>;
  /** `key`'s count in its current window. */
  count(key: string): Promise<number>;
}

export function memoryCounters(): WindowCounters {
  const counts = new TtlCache<string, { n: number; until: number }>(100_000);
  return {
    async hit(key, windowMs) {
      const now = Date.now();
      const current = counts.get(key) ?? { n: 0, until: now + windowMs };
      counts.set(key, { n: current.n + 1, until: current.until }, current.until - now);
      return current.n + 1;
    },
    async count(key) {
      return counts.get(key)?.n ?? 0;
    },
  };
}

/**
 * The connection to Redis and what went wrong with it since the start: `GET /metrics` shows both,
 * since a replica serving uncounted requests is otherwise only told by a log line a minute.
 */
export class RedisLink {
  readonly redis: Redis;
  /** Connection errors and counts that failed (each served uncounted). */
  errors = 0;

  constructor(redis: Redis) {
    this.redis = redis;
  }

  get up(): boolean {
    return this.redis.status === 'ready';
  }
}

/** A client that fails fast while Redis is away (no queue, one retry), and reconnects by itself. */
export async function connectRedis(url: string, log: FastifyBaseLogger): Promise<RedisLink> {
  // Loaded only with REDIS_URL set: a single replica never needs the client.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 1000, enableOfflineQueue: false });
  const link = new RedisLink(redis);
  const warn = onceAMinute((err: Error) => log.warn({ err: err.message }, 'Redis unreachable: rate limits and failed sign-ins are not counted until it is back'));
  redis.on('error', (err: Error) => {
    link.errors++;
    warn(err);
  });
  // The first requests are counted too: the app waits for the connection, a second at most.
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 1000);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return link;
}

export function redisCounters(link: RedisLink, prefix: string, log: FastifyBaseLogger): WindowCounters {
  const { redis } = link;
  const warn = onceAMinute((err: Error) => log.warn({ err: err.message }, 'Redis count failed: allowed without counting'));
  const failed = (err: Error) => {
    link.errors++;
    warn(err);
  };
  return {
    async hit(key, windowMs) {
      try {
        const replies = await redis.multi().incr(`${prefix}${key}`).pexpire(`${prefix}${key}`, windowMs, 'NX').exec();
        return Number(replies?.[0]?.[1] ?? 0);
      } catch (err) {
        failed(err as Error);
        return 0;
      }
    },
    async count(key) {
      try {
        return Number((await redis.get(`${prefix}${key}`)) ?? 0);
      } catch (err) {
        failed(err as Error);
        return 0;
      }
    },
  };
}

function onceAMinute(report: (err: Error) => void): (err: Error) => void {
  let last = 0;
  return (err) => {
    if (Date.now() - last < 60_000) return;
    last = Date.now();
    report(err);
  };
}
