import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.ts';
import { sendProblem } from '../../plugins/errors.ts';
import type { RedisLink } from '../../lib/counters.ts';
import { checkInternalToken } from '../../lib/internal-token.ts';
import { HttpProblem } from '../../lib/problems.ts';

interface Metric {
  name: string;
  help: string;
  type: 'gauge' | 'counter';
  value: number;
}

/** Prometheus' text format: HELP, TYPE and the value of each metric. */
function exposition(metrics: Metric[]): string {
  return metrics.map((m) => `# HELP ${m.name} ${m.help}\n# TYPE ${m.name} ${m.type}\n${m.name} ${m.value}\n`).join('');
}

const routes: FastifyPluginAsync<{ services: Services; redis: RedisLink | undefined }> = async (app, { services, redis }) => {
  const opts = { schema: { hide: true }, config: { rateLimit: false }, logLevel: 'warn' as const };
  app.get('/healthz', opts, async () => ({ status: 'ok' }));
  app.get('/readyz', opts, async (request, reply) => {
    try {
      await services.database.ping();
      return { status: 'ready' };
    } catch (err) {
      request.log.warn({ err }, 'database unreachable');
      return sendProblem(reply, new HttpProblem(503, 'request.databaseUnreachable'));
    }
  });

  // For a Prometheus scraper holding INTERNAL_TOKEN as its bearer token (README, "Running several replicas").
  app.get('/metrics', opts, async (request, reply) => {
    checkInternalToken(request, services.config.internalToken, request.headers.authorization?.replace(/^Bearer /, ''));
    const memory = process.memoryUsage();
    const metrics: Metric[] = [
      { name: 'process_resident_memory_bytes', help: 'Resident memory of this replica.', type: 'gauge', value: memory.rss },
      { name: 'nodejs_heap_used_bytes', help: 'V8 heap in use.', type: 'gauge', value: memory.heapUsed },
    ];
    if (redis) {
      metrics.push(
        {
          name: 'blockhost_redis_up',
          help: 'Whether the Redis where replicas count their limits is connected (1) or not (0): requests are served uncounted meanwhile.',
          type: 'gauge',
          value: redis.up ? 1 : 0,
        },
        { name: 'blockhost_redis_errors_total', help: 'Redis connection errors and failed counts since this replica started.', type: 'counter', value: redis.errors },
      );
    }
    return reply.type('text/plain; version=0.0.4; charset=utf-8').send(exposition(metrics));
  });
};

export default routes;
