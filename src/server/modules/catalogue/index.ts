import { defineModule } from '../module.ts';
import routes from './routes.ts';

/** The catalogue of game definitions and packages; its public answers are cached until one changes. */
export default defineModule('catalogue', async (app, { services }) => {
  await app.register(routes, { services });
  await services.catalogue.answers.start();
  app.addHook('preClose', () => services.catalogue.answers.stop());
});
