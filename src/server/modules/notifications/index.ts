import { defineModule } from '../module.ts';
import routes from './routes.ts';
import { whole } from '../../lib/personal-data.ts';

/** Notifications and their live stream; the stream ends before requests drain. */
export default defineModule('notifications', async (app, { services }) => {
  await app.register(routes, { services });
  services.personalData.register('notifications', async ({ id, locale }) => (await services.notifications.list(id, locale, whole)).data);
  services.personalData.erasure('notifications', (id) => services.notifications.forget(id));
  await services.notifications.start();
  app.addHook('preClose', () => services.notifications.stop());
});
