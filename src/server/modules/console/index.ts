import { defineModule } from '../module.ts';
import routes from './routes.ts';

/** A game's console: its output streamed, commands checked against the sender's level. */
export default defineModule(
  'console',
  async (app, { services }) => {
    await app.register(routes, { services });
    app.addHook('preClose', async () => services.console.closeAll());
  },
  { needs: ['game-guard', 'games'] },
);
