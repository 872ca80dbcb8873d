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
import healthRoutes from './modules/health/routes.ts';
import usersRoutes from './modules/users/routes.ts';
import creditsRoutes from './modules/money/credits/routes.ts';
import notificationsRoutes from './modules/notifications/routes.ts';
import contentRoutes from './modules/content/routes.ts';
import minecraftRoutes from './modules/minecraft/routes.ts';
import blocklistRoutes from './modules/blocklist/routes.ts';
import friendsRoutes from './modules/friends/routes.ts';
import friendGroupsRoutes from './modules/friend-groups/routes.ts';
import catalogueRoutes from './modules/catalogue/routes.ts';
import gamesRoutes from './modules/games/routes.ts';
import renewalsRoutes from './modules/money/renewals/routes.ts';
import sharingRoutes from './modules/sharing/routes.ts';
import activityRoutes from './modules/activity/routes.ts';
import gameGuard from './modules/sharing/guard.ts';
import backupsRoutes from './modules/backups/routes.ts';
import staffBackupsRoutes from './modules/backups/staff-routes.ts';
import consoleRoutes from './modules/console/routes.ts';
import usageRoutes from './modules/usage/routes.ts';
import schedulesRoutes from './modules/schedules/routes.ts';
import reviewsRoutes from './modules/reviews/routes.ts';
import staffGamesRoutes from './modules/games/staff-routes.ts';
import gameSettingsRoutes from './modules/games/settings-routes.ts';
import promoCodesRoutes from './modules/money/promocodes/routes.ts';
import pricingRoutes from './modules/money/pricing/routes.ts';
import subscriptionsRoutes from './modules/money/subscriptions/routes.ts';
import paymentsRoutes from './modules/money/payments/routes.ts';
import invoicesRoutes from './modules/money/invoices/routes.ts';
import staffRoutes from './modules/staff/routes.ts';
import type { GameDriver } from '../runtime/driver.ts';
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
  /** The game driver; by default the one GAME_DRIVER names (`createDriver`). Closed with the app. */
  driver?: GameDriver;
  /** The games' clock; tests pass their own to skip minutes without sleeping. */
  clock?: Clock;
  /** Run the reconciler's and the renewals' loops (default true); tests turn them off and call their `tick()`. */
  reconcileLoop?: boolean;
}

/**
 * Composes the app in layers, as fastify/demo does: external plugins, then our own (errors, auth),
 * then the identity provider and the API modules, then the web app that catches the rest.
 */
export async function buildApp({ config, database, logger, driver, clock, reconcileLoop = true }: AppOptions): Promise<FastifyInstance> {
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

  const services = createServices(config, database, { ...(driver ? { driver } : {}), ...(clock ? { clock } : {}), log: app.log });
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
  if (keys) await app.register(identity, { config, database, keys, failures });
  await app.register(healthRoutes, { services, redis });
  for (const module of [
    usersRoutes,
    creditsRoutes,
    notificationsRoutes,
    contentRoutes,
    minecraftRoutes,
    blocklistRoutes,
    friendsRoutes,
    friendGroupsRoutes,
    catalogueRoutes,
    gamesRoutes,
    renewalsRoutes,
    sharingRoutes,
    activityRoutes,
    backupsRoutes,
    staffBackupsRoutes,
    consoleRoutes,
    usageRoutes,
    schedulesRoutes,
    staffGamesRoutes,
    gameSettingsRoutes,
    reviewsRoutes,
    promoCodesRoutes,
    pricingRoutes,
    subscriptionsRoutes,
    paymentsRoutes,
    invoicesRoutes,
    staffRoutes,
  ]) {
    await app.register(module, { services });
  }
  await app.register(web, { config, isContentPage: (path: string) => services.content.has(path) });

  await services.notifications.start();
  await services.sharing.start();
  await services.users.start();
  await services.credits.start();
  await services.catalogue.answers.start();
  await services.pricing.answers.start();
  await services.renewals.listen();
  // Backups a previous process left running end FAILED, their partial archives deleted.
  await services.backups.sweep();
  if (reconcileLoop) {
    services.reconciler.start();
    services.renewals.start();
    services.backups.start();
    services.usage.start();
    services.scheduleRunner.start();
  }
  // Game servers stop cleanly with the app (worlds saved), but their desired state stays running:
  // the next start of the app starts them again.
  app.addHook('onClose', async () => {
    await services.renewals.stop();
    await services.reconciler.stop();
    await services.backups.stop();
    await services.backups.idle();
    await services.usage.stop();
    await services.scheduleRunner.stop();
    await services.runtime.driver.close();
  });
  // Graceful close: streams never finish on their own, so end them first; requests still in flight
  // finish, and their connections close after them instead of idling on keep-alive.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    await services.notifications.stop();
    await services.sharing.stop();
    services.console.closeAll();
    await services.users.stop();
    await services.credits.stop();
    await services.catalogue.answers.stop();
    await services.pricing.answers.stop();
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  return app;
}
