import { ConfigError, loadConfig, type Config } from './config.ts';

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`Configuration error: ${err.message}`);
  process.exit(78);
}

// The product's modules once the settings are known good: a bad one is told in a fraction of a
// second, not after loading the whole server.
const [{ buildApp }, { openConfiguredDatabase }, { isEmpty, seed }, { createRuntime }] = await Promise.all([
  import('./app.ts'),
  import('./db/open.ts'),
  import('./db/seed.ts'),
  import('../runtime/index.ts'),
]);

const database = await openConfiguredDatabase(config);
// Replicas starting together on a new database migrate and seed it once, one after the other.
await database.exclusively(async () => {
  await database.migrate();
  if (await isEmpty(database)) await seed(config, database);
});

const app = await buildApp({ config, database, runtime: createRuntime(config.game) });
// The database was opened before the logger existed; it reports a lost LISTEN connection there.
database.setLog(app.log);
await app.listen({ port: config.port, host: config.host });
app.log.info(`BlockHost at ${config.publicUrl} (database: ${database.kind}, issuer: ${config.oidc.issuer})`);
if (config.databaseUrl && !config.redis.url) {
  app.log.warn('REDIS_URL is not set: rate limits and failed sign-ins are counted by this process alone, right for a single replica only');
}

// SIGTERM: stop taking connections, let in-flight requests finish, end streams, then close the database.
let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: shutting down`);
    const force = setTimeout(() => process.exit(1), 25_000).unref();
    void app
      .close()
      .then(() => database.close())
      .then(() => {
        clearTimeout(force);
        process.exit(0);
      });
  });
}
