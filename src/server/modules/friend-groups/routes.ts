import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParams, Page, PageQuery } from '../../../contract/common.ts';
import {
  FriendGroup,
  FriendGroupDetail,
  FriendGroupImportReport,
  FriendGroupMember,
  friendGroupCreateRequest,
  friendGroupMemberImport,
  friendGroupMemberPseudoAdd,
  friendGroupMemberUpdate,
  friendGroupUpdate,
} from '../../../contract/social.ts';
import { pageWindow } from '../../lib/paging.ts';
import { named } from '../../lib/schema.ts';
import { signedIn } from '../../plugins/auth.ts';
import type { Services } from '../../services.ts';

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const tags = ['friend groups'];
  const groups = services.friendGroups;

  await signedIn(app, null, (player) => {
    player.post('/v1/friend/group', { schema: { tags, summary: 'Create a friend group', body: named(friendGroupCreateRequest), response: { 201: FriendGroup } } }, async (request, reply) =>
      reply.status(201).send(await groups.create(request.user.id, request.body.name)),
    );

    player.get('/v1/friend/group', { schema: { tags, summary: 'Your friend groups by name, with member counts', querystring: PageQuery, response: { 200: Page(FriendGroup) } } }, async (request) =>
      groups.list(request.user.id, pageWindow(request.query)),
    );

    player.get('/v1/friend/group/:id', { schema: { tags, summary: 'A friend group with its members', params: IdParams, response: { 200: FriendGroupDetail } } }, async (request) =>
      groups.get(request.user.id, request.params.id),
    );

    player.put('/v1/friend/group/:id', { schema: { tags, summary: 'Rename a friend group', params: IdParams, body: named(friendGroupUpdate), response: { 200: FriendGroup } } }, async (request) =>
      groups.rename(request.user.id, request.params.id, request.body.name),
    );

    player.delete('/v1/friend/group/:id', { schema: { tags, summary: 'Delete a friend group', params: IdParams, response: { 204: Type.Null() } } }, async (request, reply) => {
      await groups.remove(request.user.id, request.params.id);
      return reply.status(204).send(null);
    });

    player.post(
      '/v1/friend/group/:id/member',
      { schema: { tags, summary: 'Add a friend to the group', params: IdParams, body: named(friendGroupMemberUpdate), response: { 201: FriendGroupMember } } },
      async (request, reply) => reply.status(201).send(await groups.addFriend(request.user.id, request.params.id, request.body.userId)),
    );

    player.delete(
      '/v1/friend/group/:id/member',
      { schema: { tags, summary: 'Remove a friend from the group', params: IdParams, body: named(friendGroupMemberUpdate), response: { 204: Type.Null() } } },
      async (request, reply) => {
        await groups.removeFriend(request.user.id, request.params.id, request.body.userId);
        return reply.status(204).send(null);
      },
    );

    player.post(
      '/v1/friend/group/:id/member/pseudo',
      { schema: { tags, summary: 'Add a player by Minecraft name', params: IdParams, body: named(friendGroupMemberPseudoAdd), response: { 201: FriendGroupMember } } },
      async (request, reply) => reply.status(201).send(await groups.addName(request.user.id, request.params.id, request.body.mcName)),
    );

    player.delete(
      '/v1/friend/group/:id/member/pseudo',
      { schema: { tags, summary: 'Remove a player added by Minecraft name', params: IdParams, body: named(friendGroupMemberPseudoAdd), response: { 204: Type.Null() } } },
      async (request, reply) => {
        await groups.removeName(request.user.id, request.params.id, request.body.mcName);
        return reply.status(204).send(null);
      },
    );

    player.post(
      '/v1/friend/group/:id/member/import',
      {
        schema: { tags, summary: 'Add up to 200 Minecraft names, with a result per name', params: IdParams, body: named(friendGroupMemberImport), response: { 200: FriendGroupImportReport } },
      },
      async (request) => groups.importNames(request.user.id, request.params.id, request.body.mcNames),
    );
  });
};

export default routes;
