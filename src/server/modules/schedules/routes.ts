import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParams, PageQuery } from '../../../contract/common.ts';
import { MAX_SCHEDULES_PER_GAME, Schedule, ScheduleInput, ScheduleList, ScheduleParams, ScheduleRun, ScheduleRunPage } from '../../../contract/schedules.ts';
import { pageWindow } from '../../lib/paging.ts';
import { signedIn } from '../../plugins/auth.ts';
import { gameOf } from '../sharing/guard.ts';
import type { Services } from '../../services.ts';

/** A game's scheduled tasks: its owner's and its co-admins' (docs/architecture.md, "Scheduled tasks"). */
const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const schedules = services.schedules;
  const tags = ['schedules'];
  const config = { gameRole: 'COADMIN' as const };
  // The service audits each change with the schedule it concerns.
  const write = { ...config, auditsItself: true };

  await signedIn(app, null, (player) => {
    player.get(
      '/v1/game/:id/schedules',
      { config, schema: { tags, summary: 'A game’s scheduled tasks, oldest first, each with its next run and its last one', params: IdParams, response: { 200: ScheduleList }, problems: [404] } },
      async (request) => ({ data: await schedules.list(gameOf(request).gameId), max: MAX_SCHEDULES_PER_GAME }),
    );

    player.post(
      '/v1/game/:id/schedules',
      {
        config: write,
        schema: {
          tags,
          summary: `Schedule a task (201). 400 naming the field for a bad time, zone, repeat or command; 409 past ${MAX_SCHEDULES_PER_GAME} per game`,
          params: IdParams,
          body: ScheduleInput,
          response: { 201: Schedule },
          problems: [404, 409],
        },
      },
      async (request, reply) => reply.status(201).send(await schedules.create(gameOf(request).gameId, request.user.id, request.body)),
    );

    player.put(
      '/v1/game/:id/schedules/:scheduleId',
      {
        config: write,
        schema: { tags, summary: 'Replace a scheduled task’s rule; its next run is computed again', params: ScheduleParams, body: ScheduleInput, response: { 200: Schedule }, problems: [404] },
      },
      async (request) => schedules.update(gameOf(request).gameId, request.params.scheduleId, request.user.id, request.body),
    );

    player.delete(
      '/v1/game/:id/schedules/:scheduleId',
      { config: write, schema: { tags, summary: 'Delete a scheduled task and its runs’ records', params: ScheduleParams, response: { 204: Type.Null() }, problems: [404] } },
      async (request, reply) => {
        await schedules.remove(gameOf(request).gameId, request.params.scheduleId, request.user.id);
        return reply.status(204).send(null);
      },
    );

    player.post(
      '/v1/game/:id/schedules/:scheduleId/run',
      {
        config: write,
        schema: {
          tags,
          summary: 'Run a scheduled task now (no countdown; its next run stays): the finished run, OK, FAILED or SKIPPED; a backup’s run is RUNNING until its backup ends',
          params: ScheduleParams,
          response: { 200: ScheduleRun },
          problems: [404],
        },
      },
      async (request) => schedules.runNow(gameOf(request).gameId, request.params.scheduleId, request.user.id),
    );

    player.get(
      '/v1/game/:id/schedules/:scheduleId/runs',
      { config, schema: { tags, summary: 'A scheduled task’s runs, newest first', params: ScheduleParams, querystring: PageQuery, response: { 200: ScheduleRunPage }, problems: [404] } },
      async (request) => schedules.runs(gameOf(request).gameId, request.params.scheduleId, pageWindow(request.query)),
    );
  });
};

export default routes;
