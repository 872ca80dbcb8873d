import { defineModule } from '../module.ts';
import routes from './routes.ts';

/** A game's scheduled actions, and the runner that runs them when due. */
export default defineModule(
  'schedules',
  async (app, { services, loops }) => {
    await app.register(routes, { services });
    services.personalData.register('schedules', async ({ id }) =>
      Promise.all((await services.games.ownedIds(id)).map(async (gameId) => ({ gameId, schedules: await services.schedules.list(gameId) }))),
    );
    services.personalData.erasure('schedules', (id) => services.schedules.forget(id));
    if (loops) app.addHook('onReady', async () => services.scheduleRunner.start());
    app.addHook('onClose', () => services.scheduleRunner.stop());
  },
  { needs: ['game-guard', 'games'] },
);
