import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParams, Media, Page, PageQuery } from '../../../contract/common.ts';
import {
  Entrant,
  matchOverride,
  OverrideParams,
  SlugParams,
  Tournament,
  tournamentCancel,
  tournamentCreate,
  TournamentList,
  TournamentListQuery,
  TournamentSummary,
  tournamentUpdate,
} from '../../../contract/tournaments.ts';
import { HttpProblem } from '../../lib/problems.ts';
import { pageWindow } from '../../lib/paging.ts';
import { openEventStream } from '../../lib/sse.ts';
import { signedIn } from '../../plugins/auth.ts';
import type { Services } from '../../services.ts';

/** Tournaments (docs/architecture.md, "Competitions", tournaments): public pages and stream, a player's entry, staff's back office. */
const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const tags = ['tournaments'];
  const { tournaments, registration, tournamentStreams } = services;

  app.get(
    '/v1/tournaments',
    { schema: { tags, summary: 'Tournaments: upcoming and live soonest first, past latest first (`when`), or all', querystring: TournamentListQuery, response: { 200: TournamentList } } },
    async (request) => tournaments.list(request.query.when, pageWindow(request.query)),
  );

  app.get(
    '/v1/tournaments/:slug',
    {
      onRequest: app.identify,
      schema: {
        tags,
        summary: 'A tournament: rules, entrants, bracket (scores, winners) and results; with a token, the caller’s own entry',
        params: SlugParams,
        response: { 200: Tournament },
        problems: [404],
      },
    },
    async (request) => tournaments.bySlug(request.params.slug, request.user?.id ?? null),
  );

  app.get(
    '/v1/tournaments/:slug/stream',
    {
      config: { rateLimit: false },
      schema: {
        tags,
        summary: 'Server-sent events: tournament-change (`{id}`) each time the tournament changes (an entrant, a result, the bracket), heartbeat every 15 s',
        params: SlugParams,
        response: { 200: Media('The event stream', { 'text/event-stream': Type.String() }) },
        problems: [404, 429],
      },
    },
    async (request, reply) => {
      const id = await tournaments.idOf(request.params.slug);
      if (!tournamentStreams.admits(request.ip)) throw new HttpProblem(429, 'notifications.tooManyStreams', {}, { headers: { 'retry-after': '60' } });
      tournamentStreams.open(id, openEventStream(reply), request.ip);
    },
  );

  await signedIn(app, null, (player) => {
    player.post(
      '/v1/tournaments/:slug/registration',
      {
        schema: {
          tags,
          summary: 'Register (201), paying the entry fee: 402 without the credits, 409 without a linked Minecraft account, registered already, full or outside the registration window',
          params: SlugParams,
          response: { 201: Entrant },
          problems: [402, 404, 409],
        },
      },
      async (request, reply) => reply.status(201).send(await registration.register(request.user.id, request.params.slug)),
    );

    player.delete(
      '/v1/tournaments/:slug/registration',
      {
        schema: {
          tags,
          summary: 'Withdraw before the start, the entry fee given back; 404 when not registered, 409 once started',
          params: SlugParams,
          response: { 204: Type.Null() },
          problems: [404, 409],
        },
      },
      async (request, reply) => {
        await registration.withdraw(request.user.id, request.params.slug);
        return reply.status(204).send(null);
      },
    );

    player.post(
      '/v1/tournaments/:slug/check-in',
      {
        schema: {
          tags,
          summary: 'Check in during the check-in window (checked in already: the same answer); 404 when not registered, 409 outside the window',
          params: SlugParams,
          response: { 200: Entrant },
          problems: [404, 409],
        },
      },
      async (request) => registration.checkIn(request.user.id, request.params.slug),
    );
  });

  await signedIn(app, ['staff', 'support'], (staffAndSupport) => {
    staffAndSupport.get(
      '/v1/staff/tournaments',
      { schema: { tags: [...tags, 'staff'], summary: 'Staff and support: every tournament, latest start first', querystring: PageQuery, response: { 200: Page(TournamentSummary) } } },
      async (request) => tournaments.staffList(pageWindow(request.query)),
    );
    staffAndSupport.get(
      '/v1/staff/tournaments/:id',
      { schema: { tags: [...tags, 'staff'], summary: 'Staff and support: one tournament', params: IdParams, response: { 200: Tournament }, problems: [404] } },
      async (request) => tournaments.byId(request.params.id),
    );
  });

  await signedIn(app, ['staff'], (staffOnly) => {
    staffOnly.post(
      '/v1/staff/tournaments',
      { schema: { tags: [...tags, 'staff'], summary: 'Staff: make a tournament (audit-logged); 409 when its slug is taken', body: tournamentCreate, response: { 201: Tournament }, problems: [409] } },
      async (request, reply) => reply.status(201).send(await tournaments.create(request.user.id, request.body)),
    );
    staffOnly.put(
      '/v1/staff/tournaments/:id',
      {
        schema: {
          tags: [...tags, 'staff'],
          summary: 'Staff: change a tournament not started yet (audit-logged); 409 once started or when the slug is taken',
          params: IdParams,
          body: tournamentUpdate,
          response: { 200: Tournament },
          problems: [404, 409],
        },
      },
      async (request) => tournaments.update(request.user.id, request.params.id, request.body),
    );
    staffOnly.post(
      '/v1/staff/tournaments/:id/cancel',
      {
        schema: {
          tags: [...tags, 'staff'],
          summary: 'Staff: cancel a tournament not over, with a reason (audit-logged): fees refunded, matches voided; 409 when over',
          params: IdParams,
          body: tournamentCancel,
          response: { 200: Tournament },
          problems: [404, 409],
        },
      },
      async (request) => tournaments.cancel(request.user.id, request.params.id, request.body.reason),
    );
    staffOnly.post(
      '/v1/staff/tournaments/:id/matches/:matchId/result',
      {
        schema: {
          tags: [...tags, 'staff'],
          summary: 'Staff: decide a bracket match not yet decided, with a reason (audit-logged): its match voided, the bracket moved on; 409 when decided or not live',
          params: OverrideParams,
          body: matchOverride,
          response: { 200: Tournament },
          problems: [404, 409],
        },
      },
      async (request) => tournaments.override(request.user.id, request.params.id, request.params.matchId, request.body),
    );
  });
};

export default routes;
