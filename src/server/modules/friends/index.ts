import { defineModule } from '../module.ts';
import routes from './routes.ts';
import { whole } from '../../lib/personal-data.ts';

/** Friends and friend requests. */
export default defineModule('friends', async (app, { services }) => {
  await app.register(routes, { services });
  services.personalData.register('friends', async ({ id }) => ({ friends: (await services.friends.list(id, whole)).data, requests: (await services.friends.requests(id, whole)).data }));
  services.personalData.erasure('friends', (id) => services.friends.forget(id));
});
