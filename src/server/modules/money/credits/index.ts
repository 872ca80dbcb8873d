import { defineModule } from '../../module.ts';
import routes from './routes.ts';

/** The credits ledger; streams each balance change to its owner. */
export default defineModule('credits', async (app, { services }) => {
  await app.register(routes, { services });
  await services.credits.start();
  app.addHook('preClose', () => services.credits.stop());
});
