import { defineModule } from '../module.ts';
import routes from './routes.ts';

/** Players’ reviews of the catalogue’s games. */
export default defineModule('reviews', async (app, { services }) => {
  await app.register(routes, { services });
  services.personalData.register('reviews', ({ id }) => services.reviews.ofUser(id));
});
