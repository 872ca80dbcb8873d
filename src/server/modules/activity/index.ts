import { defineModule } from '../module.ts';
import routes from './routes.ts';

/** A game’s activity: who did what on it. */
export default defineModule(
  'activity',
  async (app, { services }) => {
    await app.register(routes, { services });
  },
  { needs: ['game-guard'] },
);
