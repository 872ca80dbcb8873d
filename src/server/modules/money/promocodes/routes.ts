import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Page, PageQuery } from '../../../../contract/common.ts';
import { PromoCode, PromoCodeCheck, PromoCodeParams, PromoCodeUpdateRequest, promoCodeCreateRequest } from '../../../../contract/promocodes.ts';
import { PromoCodeUse } from '../../../../contract/staff.ts';
import { named } from '../../../lib/schema.ts';
import { pageWindow } from '../../../lib/paging.ts';
import { signedIn } from '../../../plugins/auth.ts';
import type { Services } from '../../../services.ts';

const CheckQuery = Type.Object({ for: Type.Optional(Type.Enum(['PACK', 'GAME'] as const, { description: 'What the code would be used on' })) }, { additionalProperties: false });

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const promoCodes = services.promoCodes;
  const tags = ['promo codes'];

  await signedIn(app, ['staff'], (staffOnly) => {
    staffOnly.post(
      '/v1/promocode',
      { schema: { tags, summary: 'Staff: make a promo code (a percentage off, or bonus credits on a pack)', body: named(promoCodeCreateRequest), response: { 201: PromoCode } } },
      async (request, reply) => reply.status(201).send(await promoCodes.create(request.user.id, request.body)),
    );

    staffOnly.put(
      '/v1/promocode/:code',
      {
        schema: { tags, summary: 'Staff: change a promo code’s terms (what used it keeps what it got)', params: PromoCodeParams, body: PromoCodeUpdateRequest, response: { 200: PromoCode } },
      },
      async (request) => promoCodes.update(request.user.id, request.params.code, request.body),
    );

    staffOnly.delete(
      '/v1/promocode/:code',
      { schema: { tags, summary: 'Staff: archive a promo code (kept on what used it, no longer accepted)', params: PromoCodeParams, response: { 204: Type.Null() } } },
      async (request, reply) => {
        await promoCodes.archive(request.user.id, request.params.code);
        return reply.status(204).send(null);
      },
    );
  });

  await signedIn(app, ['staff', 'support'], (staffAndSupport) => {
    staffAndSupport.get(
      '/v1/promocode',
      { schema: { tags, summary: 'Staff and support: every promo code with its uses so far', querystring: PageQuery, response: { 200: Page(PromoCode) } } },
      async (request) => promoCodes.list(pageWindow(request.query)),
    );

    // Not at /v1/promocode/{code}: that is the player's check of what a code gives them.
    staffAndSupport.get(
      '/v1/staff/promocodes/:code',
      { schema: { tags, summary: 'Staff and support: one promo code, archived or not, with its uses so far', params: PromoCodeParams, response: { 200: PromoCode } } },
      async (request) => promoCodes.one(request.params.code),
    );

    staffAndSupport.get(
      '/v1/promocode/:code/uses',
      {
        schema: {
          tags,
          summary: 'Staff and support: who used a promo code, newest first, and on which payment or game',
          params: PromoCodeParams,
          querystring: PageQuery,
          response: { 200: Page(PromoCodeUse) },
        },
      },
      async (request) => promoCodes.listUses(request.params.code, pageWindow(request.query)),
    );
  });

  await signedIn(app, null, (player) => {
    player.get(
      '/v1/promocode/:code',
      {
        schema: {
          problems: [422],
          tags,
          summary: 'What a code gives the caller now: 404 when it does not exist, 422 when they cannot use it (expired, used up, used already)',
          params: PromoCodeParams,
          querystring: CheckQuery,
          response: { 200: PromoCodeCheck },
        },
      },
      async (request) => promoCodes.check(request.params.code, request.user.id, request.query.for),
    );
  });
};

export default routes;
