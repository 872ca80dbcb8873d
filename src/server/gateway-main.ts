import { ConfigError, loadConfig, type Config } from './config.ts';
import { openConfiguredDatabase } from './db/open.ts';
import { GameGateway } from './modules/games/gateway.ts';
import { ProcessSource } from './modules/games/gateway-targets.ts';

/**
 * `npm run gateway`: the game gateway as a process of its own (docs/architecture.md, "The game
 * gateway"), the API's image with another command, as many replicas as wanted behind a TCP load
 * balancer. It reads the database (names, statuses, where running servers are, sleeping games'
 * list entries) and hears its notices, asks the API to wake a game, and keeps no game running:
 * stopping it stops none.
 */
let config: Config;
try {
  config = loadConfig();
  if (!config.databaseUrl) throw new ConfigError('DATABASE_URL is not set: a gateway process reads PostgreSQL beside the API (the embedded database belongs to the API process alone)');
  if (!config.internalToken) throw new ConfigError('INTERNAL_TOKEN is not set: a gateway process asks the API for wakes with it');
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`Configuration error: ${err.message}`);
  process.exit(78);
}

const quiet = config.logLevel === 'silent';
/** One JSON line per event on stderr, as the API's logs are read. */
const line = (level: string) => (obj: object, msg: string) => {
  if (quiet) return;
  const err = (obj as { err?: unknown }).err;
  console.error(JSON.stringify({ level, time: Date.now(), msg, ...obj, ...(err instanceof Error ? { err: { message: err.message } } : {}) }));
};
const log = { warn: line('warn'), error: line('error'), info: line('info') };

const database = await openConfiguredDatabase(config);
database.setLog(log);
const source = new ProcessSource(database, { url: config.gateway.apiUrl, token: config.internalToken! });
const gateway = new GameGateway(database, source, log, { ...config.gateway, port: config.gateway.port ?? 25565, open: true });
await gateway.start();
log.info({ port: gateway.port, domain: config.gateway.domain, api: config.gateway.apiUrl }, `game gateway on port ${gateway.port}`);

// SIGTERM: the port closes (players connected through it are cut off; their games run on), then the database.
let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    log.info({}, `${signal}: shutting down`);
    setTimeout(() => process.exit(1), 10_000).unref();
    void gateway
      .stop()
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}
