import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams } from '../../../contract/common.ts';
import { Usage, UsageQuery } from '../../../contract/usage.ts';
import { signedIn } from '../../plugins/auth.ts';
import { gameOf } from '../sharing/guard.ts';
import type { Services } from '../../services.ts';

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  await signedIn(app, null, (player) => {
    player.get(
      '/v1/game/:id/usage',
      {
        config: { gameRole: 'VIEWER' },
        schema: {
          tags: ['games'],
          summary: 'A game’s usage history: players, memory and CPU sampled each minute while it ran, with its starts, stops, crashes and backups',
          params: IdParams,
          querystring: UsageQuery,
          response: { 200: Usage },
          problems: [404],
        },
      },
      async (request) => services.usage.history(gameOf(request).gameId, request.query.window ?? '24h', request.locale),
    );
  });
};

export default routes;
