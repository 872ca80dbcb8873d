import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Page, PageQuery } from '../../../contract/common.ts';
import { Friend, FriendAddResult, FriendParams, FriendRequest, FriendRequestAnswer, friendAdd, friendMinecraftAdd, friendRequestUpdate } from '../../../contract/social.ts';
import { pageWindow } from '../../lib/paging.ts';
import { named } from '../../lib/schema.ts';
import { signedIn } from '../../plugins/auth.ts';
import type { Services } from '../../services.ts';

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const tags = ['friends'];

  await signedIn(app, null, (player) => {
    player.post(
      '/v1/friend',
      {
        schema: { problems: [404], tags, summary: 'Send a friend request (accepts theirs if they already asked you)', body: named(friendAdd), response: { 201: FriendAddResult } },
      },
      async (request, reply) => reply.status(201).send(await services.friends.request(request.user.id, request.body.userId)),
    );

    player.post(
      '/v1/friend/mcname',
      {
        schema: { problems: [404], tags, summary: 'Send a friend request to the user who linked this Minecraft name', body: named(friendMinecraftAdd), response: { 201: FriendAddResult } },
      },
      async (request, reply) => reply.status(201).send(await services.friends.requestByName(request.user.id, request.body.mcName)),
    );

    player.get('/v1/friend', { schema: { tags, summary: 'Your friends, newest first', querystring: PageQuery, response: { 200: Page(Friend) } } }, async (request) =>
      services.friends.list(request.user.id, pageWindow(request.query)),
    );

    player.delete('/v1/friend/:friendId', { schema: { tags, summary: 'End a friendship', params: FriendParams, response: { 204: Type.Null() } } }, async (request, reply) => {
      await services.friends.remove(request.user.id, request.params.friendId);
      return reply.status(204).send(null);
    });

    player.get('/v1/friend/request', { schema: { tags, summary: 'Pending friend requests, incoming and outgoing', querystring: PageQuery, response: { 200: Page(FriendRequest) } } }, async (request) =>
      services.friends.requests(request.user.id, pageWindow(request.query)),
    );

    player.put(
      '/v1/friend/request',
      {
        schema: { problems: [404], tags, summary: 'Accept or decline a request to you, or withdraw yours (accept: false)', body: named(friendRequestUpdate), response: { 200: FriendRequestAnswer } },
      },
      async (request) => services.friends.answer(request.user.id, request.body.requestId, request.body.accept),
    );
  });
};

export default routes;
