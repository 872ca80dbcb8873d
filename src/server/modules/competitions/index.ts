import { defineModule } from '../module.ts';
import routes from './routes.ts';

/** Ranked ladders: the queue, the matchmaking runner, matches and ratings (docs/architecture.md, "Competitions"). */
export default defineModule(
  'competitions',
  async (app, { services, loops }) => {
    await app.register(routes, { services });
    services.personalData.register('ranked', ({ id }) => services.competitions.personalData(id));
    services.personalData.erasure('ranked', async (id) => {
      for (const matchId of await services.competitions.openMatchesOf(id)) await services.matchResults.voidMatch(matchId, 'accountDeleted');
      await services.competitions.forget(id);
    });
    if (loops) {
      app.addHook('onReady', async () => {
        services.matchmaking.start();
        services.matchSupervision.start();
      });
    }
    app.addHook('onClose', async () => {
      await services.matchmaking.stop();
      await services.matchSupervision.stop();
    });
  },
  { needs: ['blocklist', 'games', 'minecraft', 'notifications'] },
);
