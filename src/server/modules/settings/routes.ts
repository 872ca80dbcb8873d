import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParams } from '../../../contract/common.ts';
import { GameSettingsResult, GameSettingsUpdate, GameSettingsView, GameVersionResult, GameVersionUpdate } from '../../../contract/settings.ts';
import { signedIn } from '../../plugins/auth.ts';
import { gameOf } from '../sharing/guard.ts';
import type { Services } from '../../services.ts';

/** A 1 MB image in base64, with room for its data URL prefix. */
const MAX_ICON_CHARS = 1_400_000;

const IconUpload = Type.Object(
  {
    image: Type.Union([Type.String({ maxLength: MAX_ICON_CHARS, description: 'PNG, JPEG, GIF or WebP, as base64 or a data URL; made a 64×64 PNG' }), Type.Null()], {
      description: 'null removes the icon',
    }),
    restart: Type.Optional(Type.Boolean({ description: 'Restart a running server now so the icon shows' })),
  },
  { additionalProperties: false },
);

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const settings = services.gameSettings;
  const tags = ['games'];

  await signedIn(app, null, (player) => {
    player.get(
      '/v1/game/:id/settings',
      {
        config: { gameRole: 'COADMIN' },
        schema: { tags, summary: 'A game’s settings, which of them a running server takes at once, and the versions it may change to', params: IdParams, response: { 200: GameSettingsView } },
      },
      async (request) => settings.get(gameOf(request).gameId),
    );

    player.put(
      '/v1/game/:id/settings',
      {
        config: { gameRole: 'COADMIN', activity: 'game.settings' },
        schema: {
          tags,
          summary: 'Change settings: the live ones reach a running server at once over RCON, the others at its next start (now with `restart`)',
          params: IdParams,
          body: GameSettingsUpdate,
          response: { 200: GameSettingsResult },
          problems: [404, 409],
        },
      },
      async (request) => settings.update(gameOf(request).gameId, request.body),
    );

    player.put(
      '/v1/game/:id/icon',
      {
        bodyLimit: MAX_ICON_CHARS + 1024,
        config: { gameRole: 'COADMIN', activity: 'game.icon' },
        schema: {
          tags,
          summary: 'Set or remove the server icon, shown in the server list from the next start',
          params: IdParams,
          body: IconUpload,
          response: { 200: GameSettingsResult },
          problems: [404, 409, 413],
        },
      },
      async (request) => settings.setIcon(gameOf(request).gameId, request.body.image, request.body.restart ?? false),
    );

    player.put(
      '/v1/game/:id/version',
      {
        config: { gameRole: 'COADMIN', activity: 'game.version' },
        schema: {
          tags,
          summary:
            'Change the Minecraft version to one the game’s definition allows: an automatic backup first (409 if it fails), a downgrade only with confirmDowngrade (409 otherwise), a running server restarted on it',
          params: IdParams,
          body: GameVersionUpdate,
          response: { 200: GameVersionResult },
          problems: [404, 409],
        },
      },
      async (request) => settings.changeVersion(gameOf(request).gameId, request.body),
    );
  });
};

export default routes;
