import { defineModule } from '../module.ts';
import routes from './routes.ts';

/**
 * A game's settings after its purchase: what its server runs with (docs/architecture.md, "Settings
 * and versions"), its icon and its version. They are columns of the game's row, written here.
 */
export default defineModule(
  'settings',
  async (app, { services }) => {
    await app.register(routes, { services });
    services.personalData.register('settings', async ({ id }) => Promise.all((await services.games.ownedIds(id)).map(async (gameId) => ({ gameId, ...(await services.gameSettings.get(gameId)) }))));
    services.personalData.erasure('settings', { none: 'columns of the games, deleted with them' });
  },
  { needs: ['game-guard', 'games'] },
);
