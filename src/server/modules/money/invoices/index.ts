import { defineModule } from '../../module.ts';
import routes from './routes.ts';
import { deletedAccountName } from '../../../../contract/account.ts';
import { whole } from '../../../lib/personal-data.ts';

/** Invoices for every payment, as PDF. */
export default defineModule('invoices', async (app, { services }) => {
  await app.register(routes, { services });
  services.personalData.register('invoices', async ({ id, locale }) => (await services.invoices.list(id, whole, locale)).data);
  services.personalData.erasure('invoices', (id) => services.invoices.anonymise(id, deletedAccountName(id)));
});
