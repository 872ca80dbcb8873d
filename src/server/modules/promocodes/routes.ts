import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Page, PageQuery } from '../../../contract/common.ts';
import { PromoCode, PromoCodeCheck, PromoCodeParams, promoCodeCreateRequest } from '../../../contract/credits.ts';
import { named } from '../../lib/schema.ts';
import { pageWindow } from '../../lib/paging.ts';
import type { Services } from '../../services.ts';

const CheckQuery = Type.Object({ for: Type.Optional(Type.Enum(['PACK', 'GAME'] as const, { description: 'What the code would be used on' })) }, { additionalProperties: false });

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const promoCodes = services.promoCodes;
  const tags = ['promo codes'];

  app.post(
    '/v1/promocode',
    { onRequest: app.requireRole('staff'), schema: { tags, summary: 'Staff: make a promo code (a percentage off, or bonus credits on a pack)', body: named(promoCodeCreateRequest), response: { 201: PromoCode } } },
    async (request, reply) => reply.status(201).send(await promoCodes.create(request.body)),
  );

  app.get(
    '/v1/promocode',
    { onRequest: app.requireRole('staff', 'support'), schema: { tags, summary: 'Staff and support: every promo code with its uses so far', querystring: PageQuery, response: { 200: Page(PromoCode) } } },
    async (request) => promoCodes.list(pageWindow(request.query)),
  );

  app.get(
    '/v1/promocode/:code',
    {
      onRequest: app.authenticate,
      schema: { tags, summary: 'What a code gives the caller now: 404 when it does not exist, 422 when they cannot use it (expired, used up, used already)', params: PromoCodeParams, querystring: CheckQuery, response: { 200: PromoCodeCheck } },
    },
    async (request) => promoCodes.check(request.params.code, request.user!.id, request.query.for),
  );

  app.delete(
    '/v1/promocode/:code',
    { onRequest: app.requireRole('staff'), schema: { tags, summary: 'Staff: archive a promo code (kept on what used it, no longer accepted)', params: PromoCodeParams, response: { 204: Type.Null() } } },
    async (request, reply) => {
      await promoCodes.archive(request.params.code);
      return reply.status(204).send(null);
    },
  );
};

export default routes;
