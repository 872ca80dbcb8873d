import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DataExport, DataExportList } from '../../../contract/data-exports.ts';
import { DateTime, IdParams, Media } from '../../../contract/common.ts';
import { Type } from 'typebox';
import { signedIn } from '../../plugins/auth.ts';
import { attachmentDisposition } from '../../storage/store.ts';
import type { Services } from '../../services.ts';

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const exports = services.dataExports;
  const tags = ['user'];
  await signedIn(app, null, (player) => {
    player.get('/v1/user/exports', { schema: { tags, summary: 'My data exports still kept (a week), newest first', response: { 200: DataExportList } } }, async (request) => ({
      data: await exports.list(request.user.id),
    }));

    player.post(
      '/v1/user/exports',
      {
        schema: {
          tags,
          summary: 'Ask for a copy of all my data (RGPD article 20): built within a minute, a notice says when it is ready; one at a time, 3 a day',
          response: { 202: DataExport },
          problems: [409, 429],
        },
      },
      async (request, reply) => reply.status(202).send(await exports.ask(request.user.id)),
    );

    player.get(
      '/v1/user/exports/:id/download',
      {
        schema: {
          tags,
          summary: 'Download a READY export: one JSON document, a section per part of the platform',
          params: IdParams,
          response: {
            200: Media('Everything the platform holds about me, a section per part of the platform', {
              'application/json': Type.Object({ exportedAt: DateTime }, { additionalProperties: true }),
            }),
          },
          problems: [404, 409],
        },
      },
      async (request, reply) => {
        const file = await exports.open(request.user.id, request.params.id);
        const day = file.createdAt.toISOString().slice(0, 10);
        reply
          .type('application/json; charset=utf-8')
          .header('content-disposition', attachmentDisposition(`blockhost-data-${day}.json`))
          .header('content-length', String(file.sizeBytes))
          .header('cache-control', 'private, no-store');
        return reply.send(file.body as never);
      },
    );
  });
};

export default routes;
