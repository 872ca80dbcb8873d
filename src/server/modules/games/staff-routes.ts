import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, Page } from '../../../contract/common.ts';
import { StaffGame, StaffGameExtend, StaffGameQuery } from '../../../contract/games.ts';
import { pageWindow } from '../../lib/paging.ts';
import { StaffReason } from '../../../contract/staff.ts';
import { signedIn } from '../../plugins/auth.ts';
import type { Services } from '../../services.ts';

/** The back office's games: staff and support list and read them; staff stop them or give them days. */
const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const staffGames = services.staffGames;
  const tags = ['staff'];

  await signedIn(app, ['staff', 'support'], (staffAndSupport) => {
    staffAndSupport.get(
      '/v1/staff/games',
      {
        schema: {
          tags,
          summary: 'Staff and support: every game with its owner, newest first; by owner, status (or ignoredStatus; repeated or comma lists) and part of the name',
          querystring: StaffGameQuery,
          response: { 200: Page(StaffGame) },
        },
      },
      async (request) => {
        const { page, size, offset, ...query } = request.query;
        return staffGames.list(query, pageWindow({ page, size, offset }));
      },
    );

    staffAndSupport.get('/v1/staff/games/:id', { schema: { tags, summary: 'Staff and support: one game with its owner', params: IdParams, response: { 200: StaffGame } } }, async (request) =>
      staffGames.get(request.params.id),
    );
  });

  await signedIn(app, ['staff'], (staffOnly) => {
    staffOnly.post(
      '/v1/staff/games/:id/stop',
      {
        schema: {
          tags,
          summary: 'Staff: stop a game cleanly, as its owner would, telling the owner why (409 with the current status when it cannot stop)',
          params: IdParams,
          body: StaffReason,
          response: { 200: StaffGame },
        },
      },
      async (request) => staffGames.stop(request.user.id, request.params.id, request.body.reason),
    );

    staffOnly.post(
      '/v1/staff/games/:id/delete',
      {
        schema: {
          tags,
          summary: 'Staff: delete a game as its owner would (nothing refunded; its last backup kept for the owner), telling the owner why; 409 while a backup or a restore runs',
          params: IdParams,
          body: StaffReason,
          response: { 200: StaffGame },
        },
      },
      async (request) => {
        await services.gameDeletion.delete(request.params.id, { staff: request.user.id, reason: request.body.reason });
        return staffGames.get(request.params.id);
      },
    );

    staffOnly.post(
      '/v1/staff/games/:id/extend',
      {
        schema: {
          tags,
          summary: 'Staff: give a game 1 to 366 free days (its period end and its opened renewal move on), telling the owner why; 409 for an expired game',
          params: IdParams,
          body: StaffGameExtend,
          response: { 200: StaffGame },
        },
      },
      async (request) => {
        await services.renewals.extend(request.user.id, request.params.id, request.body.days, request.body.reason);
        return staffGames.get(request.params.id);
      },
    );
  });
};

export default routes;
