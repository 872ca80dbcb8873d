import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, Page } from '../../../../contract/common.ts';
import { gamePaymentRequestUpdate } from '../../../../contract/renewals.ts';
import { Game, gameUpdate } from '../../../../contract/games.ts';
import { GamePayment, GamePaymentQuery, GamePaymentResult } from '../../../../contract/renewals.ts';
import { OfferChange, OfferQuote, OfferResult } from '../../../../contract/offer.ts';
import { gameOf } from '../../sharing/guard.ts';
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

    player.get(
      '/v1/game/:id/offer',
      {
        config: { gameRole: 'OWNER' },
        schema: {
          tags,
          summary:
            'What changing to each package of the game’s definition would do now: the prorated amount for the days left (charged or credited back), what the balance lacks, the backups the new quota would delete, max players lowered, a restart needed; 409 when the game is expired or its period unpaid',
          params: IdParams,
          response: { 200: OfferQuote },
        },
      },
      async (request) => renewals.offers.quote(gameOf(request).gameId, request.locale),
    );

    player.post(
      '/v1/game/:id/offer',
      {
        config: { gameRole: 'OWNER', activity: 'game.offer' },
        schema: {
          problems: [402],
          tags,
          summary:
            'Change the game to another package of its definition: the difference for the days left charged (402 when short) or credited back, in one transaction; max players above the new limit lowered; backups beyond the new quota deleted only when each is named in confirmDeleteBackupIds (409 otherwise); the memory applies at the next start; the next renewal at the new price. 400 for another definition’s package, 409 for the same one',
          params: IdParams,
          body: OfferChange,
          response: { 200: OfferResult },
        },
      },
      async (request) => renewals.offers.change(gameOf(request).gameId, request.body, request.locale),
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
