import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParams } from '../../../contract/common.ts';
import { AddressNameSuggestQuery, AddressNameSuggestion, AddressNameTimes, addressNameChange } from '../../../contract/address-names.ts';
import { renderProblem } from '../../lib/problems.ts';
import { signedIn } from '../../plugins/auth.ts';
import { gameOf } from '../sharing/guard.ts';
import type { Services } from '../../services.ts';

/** A game's address name: the buy form's suggestion and check, and the owner's change. */
const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const names = services.addressNames;
  const tags = ['games'];

  await signedIn(app, null, (player) => {
    player.get(
      '/v1/game/address-name/suggest',
      {
        schema: {
          tags,
          summary: "A free address name made from the caller's and the game's names, and whether the one typed (addressName) may be taken, and why not",
          querystring: AddressNameSuggestQuery,
          response: { 200: AddressNameSuggestion },
        },
      },
      async (request) => {
        const { name, addressName } = request.query;
        const suggestion = await names.suggest(request.user.name, name);
        const { domain } = services.config.gateway;
        if (addressName === undefined) return { suggestion, domain };
        const refusal = await names.refusal(addressName);
        return { suggestion, domain, available: refusal === null, ...(refusal ? { reason: renderProblem(refusal, {}, undefined, request.locale).detail } : {}) };
      },
    );

    player.put(
      '/v1/game/:id/address-name',
      {
        // Audited by the service, and only when the name changes.
        config: { gameRole: 'OWNER', activity: 'game.rename', auditsItself: true },
        schema: {
          tags,
          summary: 'Change the address name players type (the owner only, once a day: 409 with when it may be; 400 bad form or reserved; 409 taken)',
          params: IdParams,
          body: addressNameChange,
          response: { 200: Type.Object({ addressName: Type.String(), ...AddressNameTimes }) },
        },
      },
      async (request) => {
        const { gameId, level } = gameOf(request);
        return names.rename(gameId, { id: request.user.id, as: level }, request.body.addressName);
      },
    );
  });
};

export default routes;
