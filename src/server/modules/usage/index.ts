import { defineModule } from '../module.ts';
import routes from './routes.ts';

/** A game's memory, CPU and players over time, sampled in rounds. */
export default defineModule(
  'usage',
  async (app, { services, loops }) => {
    await app.register(routes, { services });
    if (loops) app.addHook('onReady', async () => services.usage.start());
    app.addHook('onClose', () => services.usage.stop());
  },
  { needs: ['game-guard', 'games'] },
);
