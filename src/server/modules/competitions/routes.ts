import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParams, PageQuery } from '../../../contract/common.ts';
import { HistoryParams, HistoryQuery, Leaderboard, ModeParams, PlayerHistory, QueueEntry, queueJoin, RankedMatch, RankedMe, RankedModeList } from '../../../contract/competitions.ts';
import { pageWindow } from '../../lib/paging.ts';
import { signedIn } from '../../plugins/auth.ts';
import type { Services } from '../../services.ts';

/** The ranked ladders (docs/architecture.md, "Competitions"): public boards, a player's queue and matches. */
const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const tags = ['ranked'];
  const competitions = services.competitions;

  app.get('/v1/ranked/modes', { schema: { tags, summary: 'The ranked modes, each with the players waiting in its queue, and the current season', response: { 200: RankedModeList } } }, async () =>
    competitions.modes(),
  );

  app.get(
    '/v1/ranked/modes/:id/leaderboard',
    {
      onRequest: app.identify,
      schema: {
        tags,
        summary: 'A mode’s leaderboard of the current season: the top 100 in pages (no token); with a token, also the caller’s own line wherever they stand',
        params: ModeParams,
        querystring: PageQuery,
        response: { 200: Leaderboard },
        problems: [404],
      },
    },
    async (request) => competitions.leaderboard(request.params.id, pageWindow(request.query), request.user?.id ?? null),
  );

  app.get(
    '/v1/ranked/players/:userId/history',
    {
      schema: {
        tags,
        summary:
          'A player’s public record, of one mode or all and one season or all: ratings, last rating changes oldest first (the chart), finished matches newest first and their totals (record, kills)',
        params: HistoryParams,
        querystring: HistoryQuery,
        response: { 200: PlayerHistory },
        problems: [404],
      },
    },
    async (request) => {
      const { modeId, season, ...paging } = request.query;
      return competitions.history(request.params.userId, { modeId, season }, pageWindow(paging));
    },
  );

  await signedIn(app, null, (player) => {
    player.post(
      '/v1/ranked/queue',
      {
        schema: {
          tags,
          summary: 'Join a mode’s queue (201). 409 without a linked Minecraft account, when already waiting, or in a match not yet over',
          body: queueJoin,
          response: { 201: QueueEntry },
          problems: [404, 409],
        },
      },
      async (request, reply) => reply.status(201).send(await competitions.join(request.user.id, request.body.modeId)),
    );

    player.delete('/v1/ranked/queue', { schema: { tags, summary: 'Leave the queue; 404 when not waiting', response: { 204: Type.Null() }, problems: [404] } }, async (request, reply) => {
      await competitions.leave(request.user.id);
      return reply.status(204).send(null);
    });

    player.get('/v1/ranked/me', { schema: { tags, summary: 'The caller’s queue, match not yet over and ratings of the current season', response: { 200: RankedMe } } }, async (request) =>
      competitions.me(request.user.id),
    );

    player.get(
      '/v1/ranked/matches/:id',
      { schema: { tags, summary: 'A match, for its two players (anyone else: 404)', params: IdParams, response: { 200: RankedMatch }, problems: [404] } },
      async (request) => competitions.match(request.user.id, request.params.id),
    );
  });
};

export default routes;
