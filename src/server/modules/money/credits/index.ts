import { defineModule } from '../../module.ts';
import routes from './routes.ts';
import { whole } from '../../../lib/personal-data.ts';

/** The credits ledger; streams each balance change to its owner. */
export default defineModule('credits', async (app, { services }) => {
  await app.register(routes, { services });
  services.personalData.register('credits', async ({ id, locale }) => ({ balance: await services.credits.balance(id), ledger: (await services.credits.entries(id, locale, whole)).data }));
  // Kept ten years, as French accounting law requires (docs/decisions.md): the row it names is anonymised.
  services.personalData.erasure('credits', { none: 'accounting: the ledger, under the replaced name' });
  await services.credits.start();
  app.addHook('preClose', () => services.credits.stop());
});
