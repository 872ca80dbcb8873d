import { defineModule } from '../module.ts';
import routes from './routes.ts';
import tournamentRoutes from './tournament-routes.ts';
import { WANTED_CHANNEL } from '../games/platform-games.ts';
import { STATUS_CHANNEL } from '../games/world.ts';

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
    // Heard on every replica at commit: a match server made, then running or crashed, is acted on
    // by the next supervision round at once rather than at the end of its pause.
    const supervision = services.matchSupervision;
    const unlisten = [
      await services.database.listen(WANTED_CHANNEL, (gameId) => supervision.serverMade(gameId)),
      await services.database.listen(STATUS_CHANNEL, (gameId) => supervision.statusChanged(gameId), { onReconnect: () => supervision.wake() }),
    ];
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
      for (const stop of unlisten) await stop();
      await services.tournamentRounds.stop();
      await services.matchmaking.stop();
      await services.matchSupervision.stop();
    });
  },
  { needs: ['blocklist', 'games', 'minecraft', 'notifications'] },
);
