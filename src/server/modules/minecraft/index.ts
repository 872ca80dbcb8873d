import { defineModule } from '../module.ts';
import routes from './routes.ts';

/** Linked Minecraft accounts, skins and heads. */
export default defineModule('minecraft', async (app, { services }) => {
  await app.register(routes, { services });
  services.personalData.register('minecraft', async ({ id }) => (await services.minecraft.players([id])).get(id) ?? null);
  // The link is a column of the user's row, which the profile's erasure clears.
  services.personalData.erasure('minecraft', { none: 'cleared with the profile' });
});
