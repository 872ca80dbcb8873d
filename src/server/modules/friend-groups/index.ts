import { defineModule } from '../module.ts';
import routes from './routes.ts';

/** Friend groups, their members and invitations. */
export default defineModule('friend-groups', async (app, { services }) => {
  await app.register(routes, { services });
  services.personalData.register('friendGroups', ({ id }) => services.friendGroups.personalData(id));
  services.personalData.erasure('friendGroups', (id) => services.friendGroups.forget(id));
});
