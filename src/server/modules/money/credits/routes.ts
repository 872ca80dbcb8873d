import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LedgerEntry } from '../../../../contract/credits.ts';
import { Page, PageQuery } from '../../../../contract/common.ts';
import { pageWindow } from '../../../lib/paging.ts';
import { signedIn } from '../../../plugins/auth.ts';
import type { Services } from '../../../services.ts';

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  await signedIn(app, null, (player) => {
    player.get(
      '/v1/purchase/transactions',
      {
        schema: { tags: ['credits'], summary: "The caller's credit ledger, newest first", querystring: PageQuery, response: { 200: Page(LedgerEntry) } },
      },
      async (request) => services.credits.entries(request.user.id, request.locale, pageWindow(request.query)),
    );
  });
};

export default routes;
