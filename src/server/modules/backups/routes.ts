import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Backup, BackupCreate, BackupLink, BackupPage, BackupParams, BackupPatch, BackupPrune, BackupPruneQuery, BackupSettings, KeptBackup, KeptBackupParams } from '../../../contract/backups.ts';
import { Bytes, IdParams, Media, PageQuery } from '../../../contract/common.ts';
import { HttpProblem } from '../../lib/problems.ts';
import { attachmentDisposition } from '../../storage/store.ts';
import { byteRange } from '../../lib/byte-range.ts';
import { pageWindow } from '../../lib/paging.ts';
import { signedIn } from '../../plugins/auth.ts';
import { gameOf } from '../sharing/guard.ts';
import type { Services } from '../../services.ts';

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const backups = services.backups;
  const tags = ['backups'];
  const problems = [404, 409];

  // No token: a browser follows this link as a plain download. The token in the path is the key.
  app.get(
    '/v1/backup-download/:token',
    {
      schema: {
        tags,
        summary: 'Download a backup as a .zip through a link from POST …/link (no token; valid 10 minutes; Range supported)',
        security: [{}],
        params: Type.Object({ token: Type.String({ pattern: '^[A-Za-z0-9_-]{20,100}$' }) }, { additionalProperties: false }),
        querystring: Type.Object(
          { tz: Type.Optional(Type.String({ maxLength: 64, description: 'The downloader’s time zone (IANA): the file is named after the backup’s time on their clock; UTC by default' })) },
          { additionalProperties: false },
        ),
        response: {
          200: Media('The world, a .zip Minecraft Java opens as-is', { 'application/zip': Bytes('application/zip') }),
          206: Media('A byte range of it', { 'application/zip': Bytes('application/zip') }),
          302: Type.Null({ description: 'The object store serves it: follow Location' }),
        },
        problems: [400, 404, 416],
      },
    },
    async (request, reply) => {
      const file = await backups.links.download(request.params.token, request.query.tz);
      if (file.redirect) return reply.redirect(file.redirect, 302);
      const range = byteRange(request.headers.range, file.sizeBytes);
      if (range === 'unsatisfiable') {
        throw new HttpProblem(416, 'status.416', {}, { headers: { 'content-range': `bytes */${file.sizeBytes}` } });
      }
      reply.type('application/zip').header('accept-ranges', 'bytes').header('content-disposition', attachmentDisposition(file.filename)).header('cache-control', 'private, no-store');
      if (range) {
        reply
          .status(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${file.sizeBytes}`)
          .header('content-length', String(range.end - range.start + 1));
      } else reply.header('content-length', String(file.sizeBytes));
      // Streamed from the store: the archive is never held in memory.
      return reply.send((await backups.links.read(file.key, range ?? undefined)) as never);
    },
  );

  await signedIn(app, null, (player) => {
    player.get(
      '/v1/game/:id/backups',
      {
        config: { gameRole: 'COADMIN' },
        schema: {
          tags,
          summary: 'A game’s backups, newest first, with its package’s quota and how much of it they fill',
          params: IdParams,
          querystring: PageQuery,
          response: { 200: BackupPage },
          problems: [404],
        },
      },
      async (request) => backups.list(gameOf(request).gameId, pageWindow(request.query), request.locale),
    );

    player.get(
      '/v1/game/:id/backups/next-prune',
      {
        config: { gameRole: 'COADMIN' },
        schema: {
          tags,
          summary:
            'What the next backup would delete to stay within the quota (a dry run): one taken now or before an upload, or, with `restoring`, the one taken before that backup’s restore. To name them before asking',
          params: IdParams,
          querystring: BackupPruneQuery,
          response: { 200: BackupPrune },
          problems: [404],
        },
      },
      async (request) => backups.nextPrune(gameOf(request).gameId, request.query.restoring, request.locale),
    );

    player.post(
      '/v1/game/:id/backups',
      {
        config: { gameRole: 'COADMIN', activity: 'backup.create' },
        schema: {
          tags,
          summary: 'Back the world up now, running or stopped: 202 with the PENDING backup; its progress comes on the event stream. 409 while a backup or restore runs',
          params: IdParams,
          body: BackupCreate,
          response: { 202: Backup },
          problems,
        },
      },
      async (request, reply) => reply.status(202).send(await backups.create(gameOf(request).gameId, { kind: 'MANUAL', note: request.body.note, by: request.user.id }, request.locale)),
    );

    player.patch(
      '/v1/game/:id/backups/:backupId',
      {
        config: { gameRole: 'COADMIN', activity: 'backup.update' },
        schema: {
          tags,
          summary: 'Pin, unpin or note a backup (pinned ones are never pruned; 409 beyond the package’s quota; only the owner unpins, 403 otherwise)',
          params: BackupParams,
          body: BackupPatch,
          response: { 200: Backup },
          problems: [403, 404, 409],
        },
      },
      async (request) => backups.update(gameOf(request), request.params.backupId, request.body, request.locale),
    );

    player.delete(
      '/v1/game/:id/backups/:backupId',
      {
        // The owner's alone, as unpinning is (docs/product.md, "Backups").
        config: { gameRole: 'OWNER', activity: 'backup.delete' },
        schema: { tags, summary: 'Delete a backup and its archive (the owner only; 409 while it runs)', params: BackupParams, response: { 204: Type.Null() }, problems },
      },
      async (request, reply) => {
        await backups.delete(gameOf(request).gameId, request.params.backupId);
        return reply.status(204).send(null);
      },
    );

    player.post(
      '/v1/game/:id/backups/:backupId/restore',
      {
        config: { gameRole: 'COADMIN', activity: 'backup.restore' },
        schema: {
          tags,
          summary: 'Put a backup back (202): the current world is backed up, the server stopped, the backup checked and swapped in, the server started again if it ran',
          params: BackupParams,
          response: { 202: Backup },
          problems,
        },
      },
      async (request, reply) => reply.status(202).send(await backups.restore(gameOf(request).gameId, request.params.backupId, request.locale)),
    );

    player.post(
      '/v1/game/:id/backups/:backupId/link',
      {
        config: { gameRole: 'COADMIN', activity: 'backup.link' },
        schema: { tags, summary: 'A download link for this backup, valid 10 minutes, that needs no token', params: BackupParams, response: { 200: BackupLink }, problems },
      },
      async (request) => backups.link(gameOf(request).gameId, request.params.backupId, request.user.id),
    );

    player.get(
      '/v1/backups/kept',
      {
        schema: {
          tags,
          summary: 'The last backups of the caller’s deleted games, each kept GAME_RETENTION_DAYS after its deletion to download, newest first',
          response: { 200: Type.Array(KeptBackup) },
        },
      },
      async (request) => backups.kept(request.user.id),
    );

    player.post(
      '/v1/backups/kept/:backupId/link',
      {
        schema: {
          tags,
          summary: 'A download link for the last backup of one of the caller’s deleted games, valid 10 minutes, that needs no token',
          params: KeptBackupParams,
          response: { 200: BackupLink },
          problems: [404],
        },
      },
      async (request) => backups.keptLink(request.user.id, request.params.backupId),
    );

    // The zip is streamed to a temporary file by the handler, never held in memory: the parser leaves it unread.
    player.addContentTypeParser('application/zip', (_request, _payload, done) => done(null, null));
    player.put(
      '/v1/game/:id/world',
      {
        config: { gameRole: 'COADMIN', activity: 'world.upload' },
        schema: {
          tags,
          summary:
            'Replace the world by a .zip (from single-player or another host), streamed (202): refused with nothing changed when it is no zip (422), over the package’s size (413), a zip bomb, holds unsafe names or links, or no level.dat (422); accepted, it is put in place after an automatic backup, as a restore',
          params: IdParams,
          consumes: ['application/zip'],
          body: {
            // Documents the bytes; the handler reads them from the request (the parsed body stays empty, hence nullable).
            content: {
              'application/zip': { schema: { type: 'string', nullable: true, contentMediaType: 'application/zip', description: 'The world as a .zip: level.dat at its root or in its one folder' } },
            },
          },
          response: { 202: Type.Null() },
          problems: [404, 409, 413, 422],
        },
      },
      async (request, reply) => {
        const length = request.headers['content-length'];
        await backups.uploads.upload(gameOf(request).gameId, request.raw, length === undefined ? undefined : Number(length));
        // Accepted, no body: its progress comes on the event stream.
        return reply.status(202).send(undefined as never);
      },
    );

    player.get(
      '/v1/game/:id/backup-settings',
      { config: { gameRole: 'COADMIN' }, schema: { tags, summary: 'When the nightly backup runs', params: IdParams, response: { 200: BackupSettings }, problems: [404] } },
      async (request) => backups.settings(gameOf(request).gameId),
    );

    player.put(
      '/v1/game/:id/backup-settings',
      {
        config: { gameRole: 'COADMIN', activity: 'backup.settings' },
        schema: {
          tags,
          summary: 'Turn the nightly backup on or off, at an hour of the owner’s time zone',
          params: IdParams,
          body: BackupSettings,
          response: { 200: BackupSettings },
          problems: [400, 404],
        },
      },
      async (request) => backups.saveSettings(gameOf(request).gameId, request.body),
    );
  });
};

export default routes;
