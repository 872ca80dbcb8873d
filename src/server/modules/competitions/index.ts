import { defineModule } from '../module.ts';
import routes from './routes.ts';
import tournamentRoutes from './tournament-routes.ts';

/** Ranked ladders (the queue, the matchmaking runner, matches and ratings) and tournaments (docs/architecture.md, "Competitions"). */
export default defineModule(
  'competitions',
  async (app, { services, loops }) => {
    await app.register(routes, { services });
    await app.register(tournamentRoutes, { services });
    // Before serving: the tournaments' pages hear the changes of every replica.
    await services.tournamentStreams.start();
    // Before the ladders' erasure voids its open matches: a tournament match is forfeited, not played again.
    services.personalData.register('tournaments', ({ id }) => services.tournaments.personalData(id));
    services.personalData.erasure('tournaments', (id) => services.tournaments.forget(id));
    services.personalData.register('ranked', ({ id }) => services.competitions.personalData(id));
    services.personalData.erasure('ranked', async (id) => {
      for (const matchId of await services.competitions.openMatchesOf(id)) await services.matchResults.voidMatch(matchId, 'accountDeleted');
      await services.competitions.forget(id);
    });
    if (loops) {
      app.addHook('onReady', async () => {
        services.matchmaking.start();
        services.matchSupervision.start();
        services.tournamentRounds.start();
      });
    }
    app.addHook('preClose', async () => {
      await services.tournamentStreams.stop();
    });
    app.addHook('onClose', async () => {
      await services.tournamentRounds.stop();
      await services.matchmaking.stop();
      await services.matchSupervision.stop();
    });
  },
  { needs: ['blocklist', 'games', 'minecraft', 'notifications'] },
);
