import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParams, Page, PageQuery } from '../../../../contract/common.ts';
import { CreditPack, pricingRequest } from '../../../../contract/credit-packs.ts';
import { named } from '../../../lib/schema.ts';
import { pageWindow } from '../../../lib/paging.ts';
import { dropAnswersOnWrite, NotModified, sendAnswer } from '../../../lib/answer-cache.ts';
import { signedIn } from '../../../plugins/auth.ts';
import type { Services } from '../../../services.ts';

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const creditPacks = services.creditPacks;
  const tags = ['pricing'];

  app.get(
    '/v1/pricing',
    {
      onRequest: app.identify,
      schema: {
        tags,
        summary: 'Credit packs on sale, cheapest first (no token; staff and support also see archived ones)',
        querystring: PageQuery,
        response: { 200: Page(CreditPack), 304: NotModified },
      },
    },
    async (request, reply) => {
      const window = pageWindow(request.query);
      if (request.user?.roles.some((r) => r === 'staff' || r === 'support')) return creditPacks.list(window, true);
      return sendAnswer(request, reply, await creditPacks.onSalePage(window));
    },
  );

  await signedIn(app, ['staff', 'support'], (staffAndSupport) => {
    staffAndSupport.get('/v1/pricing/:id', { schema: { tags, summary: 'Staff and support: one credit pack, archived or not', params: IdParams, response: { 200: CreditPack } } }, async (request) =>
      creditPacks.one(request.params.id),
    );
  });

  await signedIn(app, ['staff'], (staffOnly) => {
    dropAnswersOnWrite(staffOnly, creditPacks.answers);
    staffOnly.post('/v1/pricing', { schema: { tags, summary: 'Staff: put a credit pack on sale', body: named(pricingRequest), response: { 201: CreditPack } } }, async (request, reply) =>
      reply.status(201).send(await creditPacks.create(request.user.id, request.body)),
    );

    staffOnly.put(
      '/v1/pricing/:id',
      { schema: { tags, summary: 'Staff: change a credit pack (payments made keep what they paid)', params: IdParams, body: named(pricingRequest), response: { 200: CreditPack } } },
      async (request) => creditPacks.update(request.user.id, request.params.id, request.body),
    );

    staffOnly.delete(
      '/v1/pricing/:id',
      { schema: { tags, summary: 'Staff: take a credit pack off sale (deleted, or archived when it was paid for)', params: IdParams, response: { 204: Type.Null() } } },
      async (request, reply) => {
        await creditPacks.remove(request.user.id, request.params.id);
        return reply.status(204).send(null);
      },
    );
  });
};

export default routes;
