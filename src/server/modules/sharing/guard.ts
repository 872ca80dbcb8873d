import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { GameAccessLevel } from '../../../contract/sharing.ts';
import type { GameAccessCheck, SharingService } from './service.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The level a `/v1/game/:id/...` route needs on the game (docs/architecture.md, "Sharing"):
     * checked before its handler, which then finds the game's owner and the caller's level in
     * `request.game`. The OpenAPI document names it (`x-game-role`).
     */
    gameRole?: GameAccessLevel;
  }
  interface FastifyRequest {
    /** The game of the route's `:id` and the caller's level on it, on routes with a `gameRole`. */
    game: GameAccessCheck | null;
  }
}

/**
 * Checks the caller's level on the game of every route that declares a `gameRole`: 404 when they
 * have none (a game's existence does not leak), 403 when it is too low. Runs once the route's own
 * hooks have signed the caller in and its parameters are validated.
 */
export default fp(async function gameGuard(app: FastifyInstance, { sharing }: { sharing: SharingService }) {
  app.decorateRequest('game', null);
  app.addHook('preHandler', async (request) => {
    const needed = request.routeOptions.config.gameRole;
    if (!needed) return;
    const { id } = request.params as { id?: string };
    if (!request.user || !id) throw new Error(`route ${request.routeOptions.url} declares a gameRole without a signed-in caller and an :id`);
    request.game = await sharing.require(request.user.id, id, needed);
  });
});

/** The check of a handler behind a `gameRole`. */
export function gameOf(request: { game: GameAccessCheck | null }): GameAccessCheck {
  if (!request.game) throw new Error('no game access check on this route');
  return request.game;
}
