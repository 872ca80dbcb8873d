import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Bytes, Media } from '../../../contract/common.ts';
import { McLink, McUuidParams, MinecraftAccountInfo, userMcUUIDRequest } from '../../../contract/user.ts';
import { named } from '../../lib/schema.ts';
import { signedIn } from '../../plugins/auth.ts';
import type { Services } from '../../services.ts';

/** Heads and skins change rarely; browsers may keep them as long as the server-side cache does. */
const IMAGE_CACHE = 'private, max-age=3600';

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const tags = ['minecraft'];

  await signedIn(app, null, (player) => {
    player.post(
      '/v1/user/mcuuid',
      { schema: { problems: [404, 503], tags, summary: "Link the caller's Minecraft account by name", body: named(userMcUUIDRequest), response: { 200: McLink } } },
      async (request) => {
        const account = await services.minecraft.link(request.user.id, request.body.mcName);
        return { mcUuid: account.uuid, mcName: account.name };
      },
    );

    player.get(
      '/v1/user/minecraft/:uuid',
      { schema: { problems: [503], tags, summary: 'Name and head (base64 PNG) of a Minecraft account', params: McUuidParams, response: { 200: MinecraftAccountInfo } } },
      async (request) => {
        const { name, head } = await services.minecraft.head(request.params.uuid);
        return { uuid: request.params.uuid, name, head: head.toString('base64') };
      },
    );

    player.get(
      '/v1/user/minecraft/:uuid/head',
      { schema: { problems: [503], tags, summary: 'The head of a Minecraft account, image/png', params: McUuidParams, response: { 200: Media('The head', { 'image/png': Bytes('image/png') }) } } },
      async (request, reply) => {
        const { head } = await services.minecraft.head(request.params.uuid);
        return reply.type('image/png').header('cache-control', IMAGE_CACHE).send(head);
      },
    );

    player.get(
      '/v1/user/minecraft/:uuid/skin',
      { schema: { problems: [503], tags, summary: 'The skin of a Minecraft account, image/png', params: McUuidParams, response: { 200: Media('The skin', { 'image/png': Bytes('image/png') }) } } },
      async (request, reply) => {
        const { skin } = await services.minecraft.profile(request.params.uuid);
        return reply.type('image/png').header('cache-control', IMAGE_CACHE).send(skin);
      },
    );
  });
};

export default routes;
