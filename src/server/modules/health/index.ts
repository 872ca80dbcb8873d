import { defineModule } from '../module.ts';
import routes from './routes.ts';

/** Liveness, readiness and metrics. */
export default defineModule('health', async (app, { services, redis }) => {
  await app.register(routes, { services, redis });
});
