import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, PageQuery } from '../../../contract/common.ts';
import { GameReview, gameReviewCreate, ReviewPage } from '../../../contract/games.ts';
import { named } from '../../lib/schema.ts';
import { pageWindow } from '../../lib/paging.ts';
import type { Services } from '../../services.ts';

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const tags = ['reviews'];

  app.post(
    '/v1/game/review',
    {
      onRequest: app.authenticate,
      schema: { tags, summary: 'Review a game definition (once; only after creating a game of it)', body: named(gameReviewCreate), response: { 201: GameReview } },
    },
    async (request, reply) => reply.status(201).send(await services.reviews.create(request.user!, request.body)),
  );

  app.get(
    '/v1/game/review/:id',
    {
      onRequest: app.authenticate,
      schema: { tags, summary: 'Reviews of the game definition `id`, newest first; the caller’s own, and whether they may write one', params: IdParams, querystring: PageQuery, response: { 200: ReviewPage } },
    },
    async (request) => services.reviews.list(request.params.id, pageWindow(request.query), request.user!),
  );
};

export default routes;
