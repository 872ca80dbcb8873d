import { inArray } from 'drizzle-orm';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openConfiguredDatabase } from '../src/server/db/open.ts';
import { games } from '../src/server/db/schema/games.ts';
import { isEmpty, seed } from '../src/server/db/seed.ts';
import { createRuntime } from '../src/runtime/index.ts';

/**
 * The real server as `src/server/main.ts` starts it, with two things a bench may ask over its IPC
 * channel, for the figures of servers that sleep (bench/gateway-sleep.ts):
 * - `{ ahead: ms }` moves the games' clock on, as tests/real/sleep-real.test.ts does, so the minutes
 *   an empty server waits before it sleeps pass without waiting for them;
 * - `{ asleep: ids }` writes those games SLEEPING as the reconciler leaves a game it put to sleep
 *   (desired state running, nothing runs), for a thousand games without starting each one first.
 * Each message is answered with `{ done: id }`.
 */
let ahead = 0;
const config = loadConfig();
const database = await openConfiguredDatabase(config);
await database.migrate();
if (await isEmpty(database)) await seed(config, database);
const clock = () => new Date(Date.now() + ahead);
const app = await buildApp({ config, database, runtime: createRuntime(config.game), clock });
await app.listen({ port: config.port, host: config.host });

process.on('message', (message: { id: number; ahead?: number; asleep?: string[] }) => {
  void (async () => {
    if (message.ahead) ahead += message.ahead;
    if (message.asleep?.length) {
      await app.services.db.update(games).set({ status: 'SLEEPING', desiredState: 'running', statusReason: null, statusChangedAt: clock(), launchedAt: null }).where(inArray(games.id, message.asleep));
    }
    process.send!({ done: message.id });
  })();
});

process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
