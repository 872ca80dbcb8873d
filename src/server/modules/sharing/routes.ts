import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams } from '../../../contract/common.ts';
import { AccessIdParams, GameAccessCreate, GameAccessGrant, GameAccessList, GameAccessUpdate, SharedGameList } from '../../../contract/sharing.ts';
import { signedIn } from '../../plugins/auth.ts';
import type { Services } from '../../services.ts';

const tags = ['sharing'];

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { sharing } = services;
  await signedIn(app, null, (player) => {
    player.get(
      '/v1/game/shared',
      { schema: { tags, summary: 'The games friends shared with the caller, with their owner and the caller’s role', response: { 200: SharedGameList } } },
      async (request) => ({ data: await sharing.sharedWith(request.user.id) }),
    );

    player.get(
      '/v1/game/:id/access',
      {
        config: { gameRole: 'OWNER' },
        schema: { tags, summary: 'Who the game is shared with: friends and friend groups, each with a role (owner only)', params: IdParams, response: { 200: GameAccessList } },
      },
      async (request) => ({ data: await sharing.list(request.user.id, request.params.id) }),
    );

    player.post(
      '/v1/game/:id/access',
      {
        config: { gameRole: 'OWNER', auditsItself: true },
        schema: {
          tags,
          summary: 'Share the game with one of your friends or friend groups, with a role (owner only; 409 when not a friend or already shared)',
          params: IdParams,
          body: GameAccessCreate,
          response: { 201: GameAccessGrant },
        },
      },
      async (request, reply) => reply.status(201).send(await sharing.grant(request.user.id, request.params.id, request.body)),
    );

    player.put(
      '/v1/game/:id/access/:accessId',
      {
        config: { gameRole: 'OWNER', auditsItself: true },
        schema: { tags, summary: 'Change the role of a grant (owner only)', params: AccessIdParams, body: GameAccessUpdate, response: { 200: GameAccessGrant } },
      },
      async (request) => sharing.update(request.user.id, request.params.id, request.params.accessId, request.body.role),
    );

    player.delete(
      '/v1/game/:id/access/:accessId',
      {
        config: { gameRole: 'OWNER', auditsItself: true },
        schema: { tags, summary: 'Stop sharing with that friend or group: their open pages of the game lose it (owner only)', params: AccessIdParams, response: { 204: Type.Null() } },
      },
      async (request, reply) => {
        await sharing.revoke(request.user.id, request.params.id, request.params.accessId);
        return reply.status(204).send(null);
      },
    );
  });
};

export default routes;
