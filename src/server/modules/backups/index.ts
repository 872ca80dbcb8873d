import { defineModule } from '../module.ts';
import routes from './routes.ts';
import staffRoutes from './staff-routes.ts';
import { whole } from '../../lib/personal-data.ts';

/**
 * Backups, restores and uploads of a game's world, the back office's view of them, and the rounds
 * of nightly and expiry backups. Backups a previous process left running end FAILED before the app
 * serves; on close, the rounds stop and the backups under way finish.
 */
export default defineModule(
  'backups',
  async (app, { services, loops }) => {
    await app.register(routes, { services });
    services.personalData.register('backups', async ({ id, locale }) =>
      Promise.all((await services.games.ownedIds(id)).map(async (gameId) => ({ gameId, backups: (await services.backups.list(gameId, whole, locale)).data }))),
    );
    // A deleted game's last backup is kept GAME_RETENTION_DAYS, as for any deleted game, then expires.
    services.personalData.erasure('backups', { none: 'go with the games' });
    await app.register(staffRoutes, { services });
    await services.backupRounds.sweep();
    if (loops) app.addHook('onReady', async () => services.backupRounds.start());
    app.addHook('onClose', async () => {
      await services.backupRounds.stop();
      await services.backups.idle();
    });
  },
  { needs: ['game-guard', 'games'] },
);
