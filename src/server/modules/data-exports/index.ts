import { defineModule } from '../module.ts';
import routes from './routes.ts';

/**
 * A person's copy of their data: asked, built in the background from every module's section
 * (lib/personal-data.ts), downloaded, deleted after a week. Registered last, so every module has
 * added its section before the first export is built.
 */
export default defineModule('data-exports', async (app, { services, loops }) => {
  await app.register(routes, { services });
  // Not a section of the export it builds, but the person's files all the same.
  services.personalData.erasure('dataExports', (id) => services.dataExportRounds.forget(id));
  if (loops) app.addHook('onReady', async () => services.dataExportRounds.start());
  app.addHook('preClose', async () => services.dataExportRounds.stop());
});
