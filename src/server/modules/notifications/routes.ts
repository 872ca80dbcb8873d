import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Media, Page, PageQuery } from '../../../contract/common.ts';
import { Notification, NotificationParams } from '../../../contract/notifications.ts';
import { HttpProblem, notFound } from '../../lib/problems.ts';
import { pageWindow } from '../../lib/paging.ts';
import { openEventStream } from '../../lib/sse.ts';
import { signedIn } from '../../plugins/auth.ts';
import type { Services } from '../../services.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const notifications = services.notifications;
  const tags = ['notifications'];

  await signedIn(app, null, (player) => {
    player.get('/v1/user/notifications', { schema: { tags, summary: 'All notifications, newest first', querystring: PageQuery, response: { 200: Page(Notification) } } }, async (request) =>
      notifications.list(request.user.id, request.locale, pageWindow(request.query)),
    );

    player.get('/v1/user/notifications/unread', { schema: { tags, summary: 'Unread notifications, newest first', querystring: PageQuery, response: { 200: Page(Notification) } } }, async (request) =>
      notifications.list(request.user.id, request.locale, pageWindow(request.query), true),
    );

    player.put('/v1/user/notification/:uuid', { schema: { tags, summary: 'Mark a notification read', params: NotificationParams, response: { 204: Type.Null() } } }, async (request, reply) => {
      if (!(await notifications.markRead(request.user.id, request.params.uuid))) throw notFound('notification');
      return reply.status(204).send(null);
    });

    player.post('/v1/user/notification', { schema: { tags, summary: 'Send yourself a test notification', response: { 201: Notification } } }, async (request, reply) => {
      const sent = await notifications.notify(request.user.id, { key: 'test', params: {}, link: '/dashboard' });
      return reply.status(201).send(sent);
    });

    player.get(
      '/v1/user/notifications/stream',
      {
        // Streams are long-lived; they do not count against the API rate limit once open.
        config: { rateLimit: false },
        schema: {
          tags,
          summary: 'Server-sent events: basic-link-event (id = notification id), heartbeat every 15 s, resource-change (no id, not replayed: what of yours changed); replays after Last-Event-ID',
          response: { 200: Media('The event stream', { 'text/event-stream': Type.String() }) },
          problems: [429],
        },
      },
      async (request, reply) => {
        const userId = request.user.id;
        if (!notifications.hub.admits(request.ip)) {
          throw new HttpProblem(429, 'notifications.tooManyStreams', {}, { headers: { 'retry-after': '60' } });
        }
        const res = openEventStream(reply);
        const lastEventId = request.headers['last-event-id'];
        const replay = typeof lastEventId === 'string' && UUID.test(lastEventId);
        // Subscribe before reading the backlog, so nothing sent in between is lost.
        const stream = notifications.hub.open(userId, res, replay, request.ip);
        if (replay) notifications.hub.replayed(stream, await notifications.missedSince(userId, lastEventId));
      },
    );
  });
};

export default routes;
