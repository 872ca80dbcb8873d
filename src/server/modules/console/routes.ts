import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParams, Media } from '../../../contract/common.ts';
import { ConsoleCommand, ConsoleOutput } from '../../../contract/console.ts';
import { openEventStream } from '../../lib/sse.ts';
import { signedIn } from '../../plugins/auth.ts';
import { gameOf } from '../sharing/guard.ts';
import type { Services } from '../../services.ts';

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const consoles = services.console;
  const tags = ['console'];

  await signedIn(app, null, (player) => {
    player.get(
      '/v1/game/:id/console/stream',
      {
        // Streams are long-lived; they do not count against the API rate limit once open.
        config: { rateLimit: false, gameRole: 'VIEWER' },
        schema: {
          tags,
          summary:
            'Server-sent events of the game’s console: `line` (id = seq, data {seq, at, level, text, omitted?}) for each kept line after Last-Event-ID (all kept lines without it), then each new one; `never-started` first when the server never ran; a comment every 15 s. A flood beyond the game’s rate arrives as one marker line with `omitted`. A history larger than a stream may hold opens on its last lines. As many streams per user and per address as notification streams: past the user’s, their oldest closes; past the address’s, 429',
          params: IdParams,
          response: { 200: Media('The event stream', { 'text/event-stream': Type.String() }) },
          problems: [404, 429],
        },
      },
      async (request, reply) => {
        const lastEventId = request.headers['last-event-id'];
        const afterSeq = typeof lastEventId === 'string' && /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : 0;
        await consoles.stream(request.params.id, request.user.id, request.ip, () => openEventStream(reply), afterSeq);
      },
    );

    player.post(
      '/v1/game/:id/console',
      {
        config: { gameRole: 'MODERATOR', auditsItself: true },
        schema: {
          tags,
          summary: 'Run a command on the running server, as its console would (audited); 10 commands a second per user (429 with Retry-After beyond)',
          params: IdParams,
          body: ConsoleCommand,
          response: { 200: ConsoleOutput },
          problems: [404, 409, 429, 503],
        },
      },
      async (request) => consoles.run(request.user.id, gameOf(request), request.body.command),
    );
  });
};

export default routes;
