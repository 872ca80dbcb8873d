import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { LedgerEntry } from '../../../contract/credits.ts';
import { Page, PageQuery } from '../../../contract/common.ts';
import { userCreditAddRequest } from '../../../contract/user.ts';
import { named } from '../../lib/schema.ts';
import { notFound } from '../../lib/problems.ts';
import { pageWindow } from '../../lib/paging.ts';
import type { Services } from '../../services.ts';

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.post(
    '/v1/user/credit',
    {
      onRequest: app.requireRole('staff'),
      schema: {
        tags: ['credits'],
        summary: 'Staff: add (or, negative, take back) credits on a user, with a reason in the ledger',
        body: named(userCreditAddRequest),
        response: { 200: Type.Object({ userId: Type.String(), balance: Type.Integer(), entryId: Type.String() }) },
      },
    },
    async (request) => {
      const { userId, amount, reason } = request.body;
      if (!(await services.users.get(userId))) throw notFound('User');
      const result = await services.credits.apply(services.db, {
        userId,
        amount,
        kind: 'ADMIN_ADJUSTMENT',
        reason,
        createdBy: request.user!.id,
      });
      return { userId, ...result };
    },
  );

  app.get(
    '/v1/purchase/transactions',
    {
      onRequest: app.authenticate,
      schema: { tags: ['credits'], summary: "The caller's credit ledger, newest first", querystring: PageQuery, response: { 200: Page(LedgerEntry) } },
    },
    async (request) => services.credits.entries(request.user!.id, pageWindow(request.query)),
  );
};

export default routes;
