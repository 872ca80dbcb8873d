import { defineModule } from '../../module.ts';
import routes from './routes.ts';

/** Card payments: checkout, subscriptions’ charges, refunds, the provider’s webhooks. */
export default defineModule('payments', async (app, { services }) => {
  await app.register(routes, { services });
});
