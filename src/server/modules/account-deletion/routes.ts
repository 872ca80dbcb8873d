import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AccountDelete, AccountDeleted } from '../../../contract/account.ts';
import { signedIn } from '../../plugins/auth.ts';
import type { Services } from '../../services.ts';

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  await signedIn(app, null, (player) => {
    player.post(
      '/v1/account/delete',
      {
        schema: {
          tags: ['account'],
          summary:
            'Delete my account (RGPD article 17): the password is asked on the built-in sign-in (and a code when two-factor is on). From the answer on, sign-in and every token of the account are refused; servers, friends, groups, shares, schedules and notifications go; reviews stay as a former player’s; the ledger, payments and invoices stay ten years under a replaced name; remaining credits are forfeited',
          body: AccountDelete,
          response: { 200: AccountDeleted },
          // 403: a built-in issuer's user without an account of it (a token of another issuer's making).
          problems: [403, 429],
        },
      },
      async (request) => services.accountDeletion.request(request.user.id, request.body),
    );
  });
};

export default routes;
