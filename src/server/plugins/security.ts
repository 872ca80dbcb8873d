import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { HttpProblem } from '../lib/problems.ts';

interface SecurityOptions {
  apiPerMinute: number;
  /** Where the limits are counted when replicas share them; each process's memory otherwise. */
  redis: Redis | undefined;
  keyPrefix: string;
  /** Origins besides our own that the browser talks to (an external issuer). */
  connectOrigins: string[];
}

/** Security headers on every answer, and a per-client rate limit on the API and on sign-in. */
export default fp(
  async function security(app: FastifyInstance, options: SecurityOptions) {
    await app.register(helmet, {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", 'https://js.stripe.com'],
          // MUI's emotion and Swagger UI inject style elements.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
          connectSrc: ["'self'", ...options.connectOrigins, 'https://api.stripe.com'],
          frameSrc: ["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com', ...options.connectOrigins],
          formAction: ["'self'", ...options.connectOrigins],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
    });

    // Every /v1 route is limited per client unless it says otherwise (event streams, the spec document),
    // all of them against one budget: the plugin's global limit counts in one store under the client's
    // key alone, where a route's own limit would count in a store of that route's (one budget per
    // route). Other routes are not limited, unless they bring a limit of their own (sign-in). This hook
    // must run before the rate-limit plugin's own, which reads the route's config.
    app.addHook('onRoute', (route) => {
      const config = (route.config ?? {}) as { rateLimit?: unknown };
      if (!route.url.startsWith('/v1/') && config.rateLimit === undefined) route.config = { ...config, rateLimit: false };
    });
    await app.register(rateLimit, {
      global: true,
      max: options.apiPerMinute,
      timeWindow: '1 minute',
      // Redis away: requests are served uncounted rather than refused (lib/counters.ts logs it).
      ...(options.redis ? { redis: options.redis, nameSpace: `${options.keyPrefix}rate:`, skipOnError: true } : {}),
      // Per user when the token is valid (its check is cached, so authentication does not pay it
      // twice); per address otherwise: any other header must not buy a fresh allowance.
      keyGenerator: async (request) => {
        const identity = await app.identityOf(request);
        return identity ? `u:${identity.subject}` : `ip:${request.ip}`;
      },
      errorResponseBuilder: (_request, context) => new HttpProblem(429, 'request.tooManyRequests', { seconds: Math.ceil(context.ttl / 1000) }),
    });
  },
  { name: 'security' },
);
