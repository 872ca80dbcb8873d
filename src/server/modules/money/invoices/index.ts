import { defineModule } from '../../module.ts';
import routes from './routes.ts';

/** Invoices for every payment, as PDF. */
export default defineModule('invoices', async (app, { services }) => {
  await app.register(routes, { services });
});
