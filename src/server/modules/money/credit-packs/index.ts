import { defineModule } from '../../module.ts';
import routes from './routes.ts';

/** Credit packs and their prices; the public list is cached until one changes. */
export default defineModule('credit-packs', async (app, { services }) => {
  await app.register(routes, { services });
  await services.creditPacks.answers.start();
  app.addHook('preClose', () => services.creditPacks.answers.stop());
});
