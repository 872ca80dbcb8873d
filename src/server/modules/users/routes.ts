import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { UserSearchQuery, UserSearchResult } from '../../../contract/social.ts';
import { User } from '../../../contract/user.ts';
import { signedIn } from '../../plugins/auth.ts';
import type { Services } from '../../services.ts';
import { notFound } from '../../lib/problems.ts';

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  await signedIn(app, null, (player) => {
    player.get('/v1/user', { schema: { tags: ['user'], summary: 'The signed-in user with their balance', response: { 200: User } } }, async (request) => {
      const me = request.user;
      const [row, balance] = await Promise.all([services.users.get(me.id), services.credits.balance(me.id)]);
      if (!row) throw notFound('user');
      return { id: row.id, name: row.name, email: row.email, mcUuid: row.mcUuid, balance, roles: me.roles, locale: row.locale };
    });

    player.get(
      '/v1/user/search',
      {
        schema: {
          tags: ['friends'],
          summary: 'Players to befriend, by BlockHost name: the exact name, or names starting with `q` (3 characters or more); never emails, yourself or users blocked either way',
          querystring: UserSearchQuery,
          response: { 200: UserSearchResult },
        },
      },
      async (request) => ({ data: await services.friends.search(request.user.id, request.query.q) }),
    );
  });
};

export default routes;
