import { defineModule } from '../module.ts';
import routes from './routes.ts';
import { whole } from '../../lib/personal-data.ts';

/** Who a player blocked. */
export default defineModule('blocklist', async (app, { services }) => {
  await app.register(routes, { services });
  services.personalData.register('blocked', async ({ id }) => (await services.blocklist.list(id, whole)).data);
  services.personalData.erasure('blocked', (id) => services.blocklist.forget(id));
});
