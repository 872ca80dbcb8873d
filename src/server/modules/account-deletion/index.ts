import { defineModule } from '../module.ts';
import routes from './routes.ts';

/**
 * Deleting an account: the call, and the rounds that finish what a call left (docs/architecture.md,
 * "Deleting an account"). Registered last: by the time the app is ready every module has said what
 * becomes of its part of a person's data, and the app refuses to start when one has not.
 */
export default defineModule('account-deletion', async (app, { services, loops }) => {
  await app.register(routes, { services });
  app.addHook('onReady', async () => {
    const unerased = services.personalData.unerased();
    if (unerased.length) throw new Error(`no erasure says what becomes of the personal data sections ${unerased.join(', ')} when an account is deleted`);
    if (loops) services.accountDeletion.start();
  });
  app.addHook('preClose', async () => services.accountDeletion.stop());
});
