import { defineModule } from '../module.ts';
import routes from './routes.ts';
import staffRoutes from './staff-routes.ts';
import addressNameRoutes from './address-name-routes.ts';
import { whole } from '../../lib/personal-data.ts';
import { WANTED_CHANNEL } from './platform-games.ts';

/**
 * Games: buying one, power actions, the back office's view, and the reconciler that
 * drives each server to its desired state. It owns the game driver: game servers stop cleanly with
 * the app (worlds saved) once every module that uses them has stopped, and their desired state
 * stays running, so the next start of the app starts them again.
 */
export default defineModule(
  'games',
  async (app, { services, loops }) => {
    await app.register(routes, { services });
    await app.register(addressNameRoutes, { services });
    services.personalData.register('games', async ({ id }) => (await services.games.list(id, {}, whole)).data);
    services.personalData.erasure('games', (id) => services.gameDeletion.deleteAllOf(id));
    await app.register(staffRoutes, { services });
    const gateway = services.gameGateway;
    if (gateway) {
      // Players reach the games by name once the app serves; the port closes before the servers stop.
      app.addHook('onReady', () => gateway.start());
      app.addHook('onClose', () => gateway.stop());
    }
    app.addHook('onClose', () => services.runtime.driver.close());
    // A match server made on any replica is started by the first reconciler to lease it, without
    // waiting for a round; a reconnection may have missed some: a round.
    const unlisten = await services.database.listen(WANTED_CHANNEL, (gameId) => services.reconciler.wanted(gameId), { onReconnect: () => services.reconciler.wake() });
    if (loops) app.addHook('onReady', async () => services.reconciler.start());
    app.addHook('onClose', async () => {
      await unlisten();
      await services.reconciler.stop();
    });
  },
  { needs: ['game-guard'] },
);
