import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GameActivityPage } from '../../../contract/activity.ts';
import { IdParams, PageQuery } from '../../../contract/common.ts';
import { pageWindow } from '../../lib/paging.ts';
import { signedIn } from '../../plugins/auth.ts';
import { gameOf } from '../sharing/guard.ts';
import type { Services } from '../../services.ts';

/** Who did what on a game, for those who act on it (moderators and up). */
const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  await signedIn(app, null, (player) => {
    player.get(
      '/v1/game/:id/activity',
      {
        config: { gameRole: 'MODERATOR' },
        schema: {
          tags: ['sharing'],
          summary: 'What was done on the game, newest first: by its owner, by whom it is shared with and as what, or by the platform’s staff',
          params: IdParams,
          querystring: PageQuery,
          response: { 200: GameActivityPage },
          problems: [404],
        },
      },
      async (request) => services.activity.ofGame(gameOf(request), pageWindow(request.query)),
    );
  });
};

export default routes;
