import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../services.ts';
import type { RedisLink } from '../lib/counters.ts';

/** What the app hands every module (app.ts). */
export interface ModuleOptions {
  services: Services;
  /** Whether background rounds run; tests turn them off and run a round themselves (`tick()`). */
  loops: boolean;
  /** The shared Redis link, when REDIS_URL is set. */
  redis: RedisLink | undefined;
}

/** The app's own plugins every module's routes rely on: problems, signed-in callers, languages, the document, replays. */
const appLayer = ['errors', 'auth', 'locale', 'openapi', 'idempotency'];

/**
 * A server module as a Fastify plugin, as fastify/demo builds its own: it registers its routes,
 * does what must be done before the app serves (listeners, what a previous process left), starts
 * its background rounds once the app is ready and stops them when it closes. What it reacts to in
 * other modules is in its service's constructor (events.ts). `needs` names plugins beyond the app
 * layer, e.g. `game-guard` for routes on `/v1/game/:id/…`.
 *
 * Fastify runs `onReady` and `preClose` hooks in the order modules are registered and `onClose`
 * hooks in the reverse order, so a module registered earlier (games, which owns the driver) closes
 * after the ones that use it.
 */
export function defineModule(name: string, plugin: FastifyPluginAsync<ModuleOptions>, { needs = [] }: { needs?: string[] } = {}) {
  return fp(plugin, { name, dependencies: [...appLayer, ...needs] });
}
