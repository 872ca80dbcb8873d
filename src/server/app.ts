import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { createServices, type Services } from './services.ts';
import errors, { sendFrameworkError } from './plugins/errors.ts';
import security from './plugins/security.ts';
import input from './plugins/input.ts';
import auth from './plugins/auth.ts';
import locale from './plugins/locale.ts';
import openapi from './plugins/openapi.ts';
import idempotency from './plugins/idempotency.ts';
import web from './plugins/web.ts';
import identity from './identity/plugin.ts';
import { loadOrCreateKeys, publicJwks } from './identity/keys.ts';
import { serializers, validatorsByPart } from './lib/schema-compilers.ts';
import { connectRedis, memoryCounters, redisCounters } from './lib/counters.ts';
import gameGuard from './modules/sharing/guard.ts';
import { modules } from './modules/index.ts';
import type { Runtime } from '../runtime/index.ts';
import type { Clock } from './modules/games/runtime.ts';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

/** One log line per finished request: request id (from the logger), user id, status and duration. */
class RequestLog extends LogController {
  override incomingRequest() {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = { userId: request.user?.id, method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (error) request.log.error({ ...line, err: error }, 'request failed');
    else request.log.info(line, 'request');
  }
}

export interface AppOptions {
  config: Config;
  database: Database;
  /** Pino options; tests pass `false`. */
  logger?: boolean | object;
  /** The game runtime (driver and consoles); by default the one GAME_DRIVER names (`createRuntime`). Its driver is closed with the app. */
  runtime?: Runtime;
  /** The games' clock; tests pass their own to skip minutes without sleeping. */
  clock?: Clock;
  /** Run the modules' background rounds (default true); tests turn them off and call their `tick()`. */
  loops?: boolean;
}

/**
 * Composes the app in layers, as fastify/demo does: external plugins, then our own (errors, auth),
 * then the identity provider, then the modules (modules/index.ts: each registers its routes and runs
 * its own rounds), then the web app that catches the rest.
 */
export async function buildApp({ config, database, logger, runtime, clock, loops = true }: AppOptions): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    logger: logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    // Ajv: reject unknown fields instead of dropping them (@fastify/ajv-compiler adds the formats itself).
    ajv: { customOptions: { removeAdditional: false, allErrors: true } },
    schemaController: { compilersFactory: { buildValidator: validatorsByPart, buildSerializer: serializers } },
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    // A URL the router cannot decode answers problem+json like every other error.
    frameworkErrors: (error, request, reply) => void sendFrameworkError(error, request, reply),
    logController: new RequestLog(),
  });

  const services = createServices(config, database, { ...(runtime ? { runtime } : {}), ...(clock ? { clock } : {}), log: app.log });
  app.decorate('services', services);

  const keys = config.oidc.embedded ? await loadOrCreateKeys(config.oidc.keysFile) : undefined;
  const issuerOrigin = new URL(config.oidc.issuer).origin;
  const connectOrigins = issuerOrigin === new URL(config.publicUrl).origin ? [] : [issuerOrigin];

  await app.register(errors);
  await app.register(input);
  const redis = config.redis.url ? await connectRedis(config.redis.url, app.log) : undefined;
  if (redis) app.addHook('onClose', async () => void redis.redis.disconnect());
  await app.register(security, { apiPerMinute: config.rateLimit.apiPerMinute, connectOrigins, redis: redis?.redis, keyPrefix: config.redis.keyPrefix });
  await app.register(auth, {
    issuer: config.oidc.issuer,
    audience: config.oidc.audience,
    localJwks: keys ? publicJwks(keys) : undefined,
    resolveUser: (id) => services.users.resolve(id),
  });
  await app.register(locale, { remember: (userId, chosen) => services.users.rememberLocale(userId, chosen) });
  await app.register(openapi, { version: config.version });
  await app.register(idempotency, { db: services.db });
  await app.register(gameGuard, { sharing: services.sharing, audit: services.audit, db: services.db });

  const failures = redis ? redisCounters(redis, config.redis.keyPrefix, app.log) : memoryCounters();
  if (keys) await app.register(identity, { config, database, keys, failures, services });
  for (const module of modules) await app.register(module, { services, loops, redis });
  // A page of the content, or a tournament's (`/ranked/{slug}` of a tournament that exists).
  const tournamentSlug = /^\/ranked\/([a-z0-9-]{3,80})$/;
  const isPage = async (path: string) => services.content.has(path) || (tournamentSlug.test(path) && (await services.tournaments.exists(tournamentSlug.exec(path)![1]!)));
  await app.register(web, { config, isContentPage: isPage });

  // Graceful close: the modules end their streams first (preClose), which never finish on their own;
  // requests still in flight finish, and their connections close after them instead of idling on
  // keep-alive. Then each module stops its rounds (onClose), the games' driver last.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  return app;
}
