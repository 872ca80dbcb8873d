import { defineModule } from '../module.ts';
import routes from './routes.ts';

/** The back office's views of people and money: users, ledger, payments, invoices, the audit log, credit grants and refunds. */
export default defineModule('staff', async (app, { services }) => {
  await app.register(routes, { services });
});
