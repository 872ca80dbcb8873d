import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../services.ts';
import { sendProblem } from '../../plugins/errors.ts';
import { HttpProblem } from '../../lib/problems.ts';

const routes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
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
};

export default routes;
