import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { activityDetailKeys, activityLevels, type GameActivity } from '../../../contract/activity.ts';
import type { GameAccessLevel } from '../../../contract/sharing.ts';
import type { Db } from '../../db/client.ts';
import type { AuditService } from '../audit/service.ts';
import type { GameAccessCheck } from './access.ts';
import type { SharingService } from './service.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The level a `/v1/game/:id/...` route needs on the game (docs/architecture.md, "Sharing"):
     * checked before its handler, which then finds the game's owner and the caller's level in
     * `request.game`. The OpenAPI document names it (`x-game-role`).
     */
    gameRole?: GameAccessLevel;
    /** What a write route does, as the game's activity names it (the audit log's action). */
    activity?: GameActivity;
    /** The handler audits its action itself, with more than the guard knows (a console command and its answer). */
    auditsItself?: boolean;
  }
  interface FastifyRequest {
    /** The game of the route's `:id` and the caller's level on it, on routes with a `gameRole`. */
    game: GameAccessCheck | null;
  }
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks the caller's level on the game of every route that declares a `gameRole`: 404 when they
 * have none (a game's existence does not leak), 403 when it is too low. Runs once the route's own
 * hooks have signed the caller in.
 */
export default fp(
  async function gameGuard(app: FastifyInstance, { sharing, audit, db }: { sharing: SharingService; audit: AuditService; db: Db }) {
    app.decorateRequest('game', null);
    // Before the body is validated, so that who may not act on the game learns nothing from the
    // answer to a malformed body; a malformed id is left to the validation's 400.
    app.addHook('preValidation', async (request) => {
      const needed = request.routeOptions.config.gameRole;
      if (!needed) return;
      const { id } = request.params as { id?: string };
      if (!request.user) throw new Error(`route ${request.routeOptions.url} declares a gameRole without a signed-in caller`);
      if (!id || !uuid.test(id)) return;
      request.game = await sharing.require(request.user.id, id, needed);
    });
    // A write route on a game says what it does, or audits itself: no action goes unrecorded.
    app.addHook('onRoute', (route) => {
      const writes = [route.method].flat().some((m) => m !== 'GET' && m !== 'HEAD');
      if (route.config?.gameRole && writes && !route.config.activity && !route.config.auditsItself) {
        throw new Error(`route ${[route.method].flat().join(',')} ${route.url} declares a gameRole but no activity`);
      }
      // One table says what each action needs, so the console (which may do the same) cannot drift from the panel.
      const { gameRole, activity } = route.config ?? {};
      if (gameRole && activity && activity !== 'game.extend' && activityLevels[activity] !== gameRole) {
        throw new Error(`route ${[route.method].flat().join(',')} ${route.url} declares ${gameRole} for ${activity}, which needs ${activityLevels[activity]}`);
      }
    });
    // Every action on a game that succeeded is audited with who did it: its owner, or which person
    // it is shared with, and as what, with the few values the game's activity says of it. Written
    // before the answer goes out, so whoever reads the audit log after the answer finds it.
    app.addHook('onSend', async (request, reply, payload) => {
      const { game, user } = request;
      const action = request.routeOptions.config.activity;
      if (!game || !user || !action || reply.statusCode >= 400 || request.routeOptions.config.auditsItself) return payload;
      // A replayed answer (Idempotency-Key) did nothing again.
      if (reply.getHeader('idempotent-replayed')) return payload;
      await audit
        .record(db, { actorId: user.id, action, entity: 'game', entityId: game.gameId, after: { as: game.level, ...said(request.body, request.query) } })
        .catch((err: unknown) => request.log.error({ err }, 'game action not audited'));
      return payload;
    });
  },
  { name: 'game-guard' },
);

/** The values of a request's body and query the game's activity says (a player's name, a list, a version). */
function said(...sources: unknown[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const source of sources) {
    if (!source || typeof source !== 'object') continue;
    for (const key of activityDetailKeys) {
      const value = (source as Record<string, unknown>)[key];
      if (['string', 'number', 'boolean'].includes(typeof value)) picked[key] = value;
    }
  }
  return picked;
}

/** The check of a handler behind a `gameRole`. */
export function gameOf(request: { game: GameAccessCheck | null }): GameAccessCheck {
  if (!request.game) throw new Error('no game access check on this route');
  return request.game;
}
