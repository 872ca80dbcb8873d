import { defineModule } from '../module.ts';
import routes from './routes.ts';

/** Players’ reviews of the catalogue’s games. */
export default defineModule('reviews', async (app, { services }) => {
  await app.register(routes, { services });
  services.personalData.register('reviews', ({ id }) => services.reviews.ofUser(id));
  // A review stays, its author shown as a former player: the catalogue's ratings do not change.
  services.personalData.erasure('reviews', { none: 'shown as a former player’s' });
});
