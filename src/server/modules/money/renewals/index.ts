import { defineModule } from '../../module.ts';
import routes from './routes.ts';

/** Games' periods: renewals, their notices and the rounds that settle them. */
export default defineModule(
  'renewals',
  async (app, { services, loops }) => {
    await app.register(routes, { services });
    await services.renewals.listen();
    if (loops) app.addHook('onReady', async () => services.renewals.start());
    app.addHook('onClose', () => services.renewals.stop());
  },
  { needs: ['game-guard', 'games'] },
);
