import { defineModule } from '../../module.ts';
import routes from './routes.ts';

/** Promo codes: the back office’s and their redemption rules. */
export default defineModule('promocodes', async (app, { services }) => {
  await app.register(routes, { services });
});
