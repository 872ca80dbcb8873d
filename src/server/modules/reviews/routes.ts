import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, Page, PageQuery } from '../../../contract/common.ts';
import { GameReview, gameReviewCreate, ReviewPage, StaffReview, StaffReviewQuery } from '../../../contract/reviews.ts';
import { dropAnswersOnWrite } from '../../lib/answer-cache.ts';
import { named } from '../../lib/schema.ts';
import { pageWindow } from '../../lib/paging.ts';
import { StaffReason } from '../../../contract/staff.ts';
import { signedIn } from '../../plugins/auth.ts';
import type { Services } from '../../services.ts';

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const tags = ['reviews'];

  await signedIn(app, null, (player) => {
    // A review changes its definition's rating, which the public catalogue's answers hold.
    dropAnswersOnWrite(player, services.catalogue.answers);
    player.post(
      '/v1/game/review',
      {
        schema: { problems: [403, 404], tags, summary: 'Review a game definition (once; only after creating a game of it)', body: named(gameReviewCreate), response: { 201: GameReview } },
      },
      async (request, reply) => reply.status(201).send(await services.reviews.create(request.user, request.body)),
    );
  });

  // Visitors read the reviews too; a token, when sent, adds the caller's own review and whether they may write one.
  app.get(
    '/v1/game/review/:id',
    {
      onRequest: app.identify,
      schema: {
        tags,
        summary: 'Reviews of the game definition `id`, newest first (no token); with a token, the caller’s own, and whether they may write one',
        params: IdParams,
        querystring: PageQuery,
        response: { 200: ReviewPage },
      },
    },
    async (request) => services.reviews.list(request.params.id, pageWindow(request.query), request.user),
  );

  await signedIn(app, ['staff', 'support'], (staffAndSupport) => {
    staffAndSupport.get(
      '/v1/staff/reviews',
      {
        schema: {
          tags: ['staff'],
          summary: 'Staff and support: every review, hidden ones too, newest first; by definition and hidden or not',
          querystring: StaffReviewQuery,
          response: { 200: Page(StaffReview) },
        },
      },
      async (request) => {
        const { page, size, offset, ...query } = request.query;
        return services.reviews.listForStaff(query, pageWindow({ page, size, offset }));
      },
    );
  });

  await signedIn(app, ['staff'], (staffOnly) => {
    dropAnswersOnWrite(staffOnly, services.catalogue.answers);
    for (const action of ['hide', 'restore'] as const) {
      staffOnly.post(
        `/v1/staff/reviews/:id/${action}`,
        {
          schema: {
            tags: ['staff'],
            summary:
              action === 'hide'
                ? 'Staff: hide a review from the public list and the average rating (its author still sees it); 409 when it is hidden already'
                : 'Staff: put a hidden review back in the public list and the average rating; 409 when it is not hidden',
            params: IdParams,
            body: StaffReason,
            response: { 200: StaffReview },
          },
        },
        async (request) => services.reviews.moderate(request.user.id, request.params.id, action, request.body.reason),
      );
    }
  });
};

export default routes;
