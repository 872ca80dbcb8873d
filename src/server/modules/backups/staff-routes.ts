import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Backup, BackupPage, BackupParams } from '../../../contract/backups.ts';
import { IdParams, PageQuery } from '../../../contract/common.ts';
import { StaffReason } from '../../../contract/staff.ts';
import { pageWindow } from '../../lib/paging.ts';
import { signedIn } from '../../plugins/auth.ts';
import type { Services } from '../../services.ts';

/** The back office's view of a game's backups: staff and support list them; staff restore one for its owner. */
const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { backups, staffBackups } = services;
  const tags = ['staff'];

  await signedIn(app, ['staff', 'support'], (staffAndSupport) => {
    staffAndSupport.get(
      '/v1/staff/games/:id/backups',
      { schema: { tags, summary: 'Staff and support: any player’s game’s backups, newest first', params: IdParams, querystring: PageQuery, response: { 200: BackupPage }, problems: [404] } },
      async (request) => backups.list(request.params.id, pageWindow(request.query), request.locale),
    );
  });

  await signedIn(app, ['staff'], (staffOnly) => {
    staffOnly.post(
      '/v1/staff/games/:id/backups/:backupId/restore',
      {
        schema: {
          tags,
          summary:
            'Staff: put a READY backup back for its owner, as the owner’s restore does (202; the current world is backed up first), the reason kept in the audit log; 409 while a backup or restore runs or for a backup not READY',
          params: BackupParams,
          body: StaffReason,
          response: { 202: Backup },
          problems: [404, 409],
        },
      },
      async (request, reply) => reply.status(202).send(await staffBackups.restore(request.user.id, request.params.id, request.params.backupId, request.body.reason, request.locale)),
    );
  });
};

export default routes;
