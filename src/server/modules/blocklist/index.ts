import { defineModule } from '../module.ts';
import routes from './routes.ts';

/** Who a player blocked. */
export default defineModule('blocklist', async (app, { services }) => {
  await app.register(routes, { services });
});
