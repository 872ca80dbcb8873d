import { defineModule } from '../module.ts';
import routes from './routes.ts';

/** Information pages in both languages. */
export default defineModule('content', async (app, { services }) => {
  await app.register(routes, { services });
});
