import { defineModule } from '../../module.ts';
import routes from './routes.ts';

/** Plans and players’ subscriptions to them. */
export default defineModule('subscriptions', async (app, { services }) => {
  await app.register(routes, { services });
  services.personalData.register('subscription', ({ id }) => services.subscriptionLifecycle.mine(id));
  services.personalData.erasure('subscription', (id) => services.subscriptionLifecycle.endForDeletion(id));
});
