import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, Page } from '../../../../contract/common.ts';
import { gamePaymentRequestUpdate } from '../../../../contract/renewals.ts';
import { Game, gameUpdate } from '../../../../contract/games.ts';
import { GamePayment, GamePaymentQuery, GamePaymentResult } from '../../../../contract/renewals.ts';
import { named } from '../../../lib/schema.ts';
import { pageWindow } from '../../../lib/paging.ts';
import { signedIn } from '../../../plugins/auth.ts';
import type { Services } from '../../../services.ts';

/** A game's periods as its owner pays them: auto-renew, the list of payments and receipts, paying or cancelling a renewal. */
const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const renewals = services.renewals;
  // Under the games' tag in the API document, where players look for them.
  const tags = ['games'];

  await signedIn(app, null, (player) => {
    player.patch(
      '/v1/game/:id',
      {
        config: { gameRole: 'OWNER', activity: 'game.autoRenew' },
        schema: {
          tags,
          summary: 'Turn auto-renew on or off; turned on, a renewal due or expired is paid at once when the balance covers it',
          params: IdParams,
          body: gameUpdate,
          response: { 200: Game },
        },
      },
      async (request) => renewals.setAutoRenew(request.params.id, request.body.autoRenew),
    );

    // Static paths: find-my-way prefers them to /v1/game/:id whatever the order.
    player.get(
      '/v1/game/payment',
      {
        schema: {
          tags,
          summary: "The caller's game payments (each period of each game: PAID, PENDING renewals, CANCELED), newest first; filter by status. A PENDING one is due at its periodStart",
          querystring: GamePaymentQuery,
          response: { 200: Page(GamePayment) },
        },
      },
      async (request) => {
        const { status, ...paging } = request.query;
        return renewals.list(request.user.id, status, pageWindow(paging));
      },
    );

    player.get(
      '/v1/game/payment/invoice',
      { schema: { tags, summary: "The caller's paid game payments (their receipts: first periods and renewals), newest first", querystring: GamePaymentQuery, response: { 200: Page(GamePayment) } } },
      async (request) => {
        const { status, ...paging } = request.query;
        return renewals.list(request.user.id, status, pageWindow(paging), true);
      },
    );

    player.post(
      '/v1/game/payment',
      {
        schema: {
          problems: [402, 404],
          tags,
          summary:
            'PAY a PENDING renewal from the balance (402 when short; moves periodEnd on and revives an expired game) or CANCEL it (the game expires at periodEnd); 409 when it is not PENDING, also for a PAY another PAY beat',
          body: named(gamePaymentRequestUpdate),
          response: { 200: GamePaymentResult },
        },
      },
      async (request) => {
        const { paymentId, action } = request.body;
        return action === 'PAY' ? renewals.pay(request.user.id, paymentId) : renewals.cancel(request.user.id, paymentId);
      },
    );
  });
};

export default routes;
