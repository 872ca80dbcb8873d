import { defineModule } from '../module.ts';
import routes from './routes.ts';

/** Friends and friend requests. */
export default defineModule('friends', async (app, { services }) => {
  await app.register(routes, { services });
});
