import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParams, Page, PageQuery } from '../../../contract/common.ts';
import { BlockedUser, blockListAdd } from '../../../contract/social.ts';
import { pageWindow } from '../../lib/paging.ts';
import { named } from '../../lib/schema.ts';
import { signedIn } from '../../plugins/auth.ts';
import type { Services } from '../../services.ts';

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const tags = ['blocklist'];

  await signedIn(app, null, (player) => {
    player.post(
      '/v1/blocklist',
      {
        schema: { problems: [404], tags, summary: 'Block a user: ends friendship, requests both ways and their place in your groups', body: named(blockListAdd), response: { 201: BlockedUser } },
      },
      async (request, reply) => reply.status(201).send(await services.blocklist.block(request.user.id, request.body.userId)),
    );

    player.delete('/v1/blocklist/:id', { schema: { tags, summary: 'Unblock, by block id or blocked user id', params: IdParams, response: { 204: Type.Null() } } }, async (request, reply) => {
      await services.blocklist.unblock(request.user.id, request.params.id);
      return reply.status(204).send(null);
    });

    player.get('/v1/blocklist', { schema: { tags, summary: 'Users you blocked, newest first', querystring: PageQuery, response: { 200: Page(BlockedUser) } } }, async (request) =>
      services.blocklist.list(request.user.id, pageWindow(request.query)),
    );
  });
};

export default routes;
