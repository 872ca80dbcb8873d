import { defineModule } from '../../module.ts';
import routes from './routes.ts';
import { whole } from '../../../lib/personal-data.ts';

/** Card payments: checkout, subscriptions’ charges, refunds, the provider’s webhooks. */
export default defineModule('payments', async (app, { services }) => {
  await app.register(routes, { services });
  services.personalData.register('payments', async ({ id }) => (await services.payments.list(id, whole)).data);
  services.personalData.erasure('payments', { none: 'accounting: payments, under the replaced name' });
});
