import { defineModule } from '../module.ts';
import routes from './routes.ts';

/** Sharing a game with friends and groups, at a level; listens for other replicas' changes of access. */
export default defineModule(
  'sharing',
  async (app, { services }) => {
    await app.register(routes, { services });
    services.personalData.register('sharing', ({ id }) => services.sharing.personalData(id));
    services.personalData.erasure('sharing', (id) => services.sharing.forget(id));
    await services.sharing.start();
    app.addHook('preClose', () => services.sharing.stop());
  },
  { needs: ['game-guard'] },
);
