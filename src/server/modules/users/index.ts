import { defineModule } from '../module.ts';
import routes from './routes.ts';

/** Accounts and their profiles; listens for other replicas' changes to them. */
export default defineModule('users', async (app, { services }) => {
  await app.register(routes, { services });
  services.personalData.register('profile', async ({ id }) => services.users.profile(id));
  services.personalData.erasure('profile', (id) => services.users.anonymise(id));
  await services.users.start();
  app.addHook('preClose', () => services.users.stop());
});
