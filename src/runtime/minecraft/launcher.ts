/**
 * One game server, as a child process of the API: `node launcher.ts <gameDir>`. Reads the game's
 * `blockhost-server.json` and runs flying-squid with our admin plugin, or, when the config names
 * a jar (MC_SERVER_JAR), a vanilla or Paper server under `java -jar`.
 *
 * It never outlives the API: when the IPC channel to its parent closes (the API exited or was
 * killed) it saves the world and exits, as it does on SIGTERM and SIGINT. flying-squid's own CLI
 * is not used because it ignores the config it is given.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { installAdmin, type SquidPlayer, type SquidServer } from './admin-plugin.ts';
import { keepChangesWhileSaving, type SavingWorld } from './world-saving.ts';
import { difficulties, gameModes, numericSeed, readServerConfig, serverProperties, writeServerConfig, type ServerConfig } from './server-config.ts';

interface World extends SavingWorld {
  stopSaving(): void;
}
interface FlyingSquid extends SquidServer {
  overworld: World;
  players: Array<SquidPlayer & { save(): Promise<void> }>;
  quit(reason: string): Promise<void>;
  on(event: 'newPlayer', listener: (player: SquidPlayer) => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
}

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node launcher.ts <gameDir>');
  process.exit(2);
}
const config = readServerConfig(dir);
process.chdir(dir);

/** Runs the stop once, whatever asked for it first, and exits with `code` when it is done. */
function onceStop(stop: () => Promise<void>): (code?: number) => void {
  let stopping = false;
  return (code = 0) => {
    if (stopping) return;
    stopping = true;
    stop().then(
      () => process.exit(code),
      (err: unknown) => {
        console.error('stop failed:', err);
        process.exit(1);
      },
    );
  };
}

function runFlyingSquid(config: ServerConfig): (code?: number) => void {
  // flying-squid is CommonJS without types; the interfaces above say what we use of it.
  const require = createRequire(import.meta.url);
  const { createMCServer } = require('flying-squid') as { createMCServer(options: object): FlyingSquid };
  const serv = createMCServer({
    port: config.port,
    version: config.version,
    motd: config.motd,
    'max-players': config.maxPlayers,
    'online-mode': false,
    // Its log file goes to ./logs; the driver already keeps our stdout in the game folder.
    logging: false,
    gameMode: gameModes[config.gameMode],
    difficulty: difficulties[config.difficulty],
    worldFolder: path.resolve('world'),
    generation: { name: 'diamond_square', options: { worldHeight: 80, ...(config.seed ? { seed: numericSeed(config.seed) } : {}) } },
    kickTimeout: 10_000,
    plugins: {},
    modpe: false,
    // Chunks are generated in JS on the game's single thread: vanilla's 10 makes a first join
    // generate 441 columns, 6 makes it 169 and keeps joins quick on a shared machine.
    'view-distance': 6,
    'player-list-text': { header: { text: config.motd }, footer: { text: '' } },
    'everybody-op': false,
    'max-entities': 100,
    // The status ping counts the players in the game, as `list` does: minecraft-protocol's own count
    // includes a client refused at login until its connection closes, a second later.
    beforePing: (response: { players: { online: number } }) => {
      response.players.online = serv.players.length;
      return response;
    },
  });

  const stop = onceStop(async () => {
    console.log('Stopping the server');
    rcon?.close();
    // Players are saved before they are kicked, as flying-squid saves them on disconnect without waiting.
    await Promise.all(serv.players.map((p) => p.save()));
    await serv.quit('Server closed').catch((err: unknown) => console.error('closing:', err));
    serv.overworld.stopSaving();
    while (serv.overworld.savingQueue.size > 0) await serv.overworld.saveNow();
    console.log('World saved');
  });

  let rcon: { close(): void } | undefined;
  // The world exists once flying-squid is ready, and no player may join before.
  // A server never ready is reported by installAdmin below, which waits for the same.
  serv.waitForReady(60_000).then(
    () => keepChangesWhileSaving(serv.overworld),
    () => {},
  );
  serv.on('error', (err) => {
    console.error(`server error: ${err.message}`);
    process.exit(1);
  });
  installAdmin(serv, {
    dir: process.cwd(),
    rconPort: config.rconPort,
    rconPassword: config.rconPassword,
    whitelistEnabled: config.whitelistEnabled,
    onStop: () => stop(0),
    onWhitelistChange: (enabled) => writeServerConfig(process.cwd(), { ...readServerConfig(process.cwd()), whitelistEnabled: enabled }),
  }).then(
    (server) => {
      rcon = server;
      console.log(`RCON listening on 127.0.0.1:${config.rconPort}`);
    },
    (err: unknown) => {
      console.error(`RCON failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
  return stop;
}

function runJar(config: ServerConfig & { jar: string }): (code?: number) => void {
  fs.writeFileSync('server.properties', serverProperties(config));
  // Setting MC_SERVER_JAR is the operator accepting Mojang's EULA for the servers it runs.
  fs.writeFileSync('eula.txt', 'eula=true\n');
  // The JVM needs room beside its heap (metaspace, threads, buffers): the heap gets three quarters.
  const heapMb = Math.max(Math.floor(config.ramMb * 0.75), 256);
  const java = spawn('java', [`-Xmx${heapMb}M`, `-Xms${Math.min(heapMb, 256)}M`, '-jar', config.jar, 'nogui'], {
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  let exited = false;
  java.on('error', (err) => {
    console.error(`cannot run java: ${err.message}`);
    process.exit(1);
  });
  java.on('exit', (code, signal) => {
    exited = true;
    process.exit(code ?? (signal ? 1 : 0));
  });
  // The vanilla console takes `stop` on stdin: it saves the world and exits.
  return onceStop(
    () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        java.once('exit', () => resolve());
        java.stdin.write('stop\n');
      }),
  );
}

const stop = config.jar ? runJar({ ...config, jar: config.jar }) : runFlyingSquid(config);
process.on('SIGTERM', () => stop(0));
process.on('SIGINT', () => stop(0));
if (process.connected) process.on('disconnect', () => stop(0));
