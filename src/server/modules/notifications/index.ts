import { defineModule } from '../module.ts';
import routes from './routes.ts';

/** Notifications and their live stream; the stream ends before requests drain. */
export default defineModule('notifications', async (app, { services }) => {
  await app.register(routes, { services });
  await services.notifications.start();
  app.addHook('preClose', () => services.notifications.stop());
});
