/**
 * One game server, as a child process of the API: `node launcher.ts <gameDir>`. Reads the game's
 * `blockhost-server.json` and runs flying-squid with our admin plugin, or, when the config names
 * a jar (MC_SERVER_JAR), a vanilla or Paper server under `java -jar`.
 *
 * It never outlives the API: when the IPC channel to its parent closes (the API exited or was
 * killed) it saves the world and exits, as it does on SIGTERM and SIGINT. flying-squid's own CLI
 * is not used because it ignores the config it is given.
 *
 * The driver asks it for world snapshots over IPC (`{ type: 'backup', id, location }`): it pauses
 * the world's saves, flushes everything, zips the world and resumes, while players play on, and
 * answers `backup-progress` now and then, then `backup-done` or `backup-failed`, with the same id.
 *
 * Once flying-squid takes logins, the driver's gateway may hand it a player's connection over the
 * same channel (`{ type: 'connection', head }` with the socket, `gateway/hand-off.ts`): it goes to
 * minecraft-protocol's server as a connection accepted on the game port would.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { Server } from 'node:net';
import path from 'node:path';
import { installAdmin, type SquidPlayer, type SquidServer } from './admin-plugin.ts';
import { installCombat } from './combat.ts';
import { takeHandedConnections } from '../gateway/hand-off.ts';
import type { ObjectLocation } from '../driver.ts';
import { archiveToLocation, parseLocation, recoverWorld, type ArchiveResult } from './world-archive.ts';
import { loadServerOnly } from './server-only.ts';
import { readyInItsOwnTime } from './squid-ready.ts';
import { keepChangesWhileSaving, type SavingWorld } from './world-saving.ts';
import { settingDefaults } from '../../contract/values.ts';
import { difficulties, gameModes, numericSeed, readServerConfig, serverProperties, writeServerConfig, type ServerConfig } from './server-config.ts';

interface World extends SavingWorld {
  startSaving(): void;
  stopSaving(): void;
}
interface FlyingSquid extends SquidServer {
  overworld: World;
  players: Array<SquidPlayer & { save(): Promise<void> }>;
  quit(reason: string): Promise<void>;
  /** minecraft-protocol's server, with the TCP server listening on the game port that feeds it connections. */
  _server: SquidServer['_server'] & { socketServer: Server };
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
// A restore or snapshot killed earlier may have left a swap half done: settled before the world loads.
recoverWorld(process.cwd());

/** How each runner makes a snapshot of its running world. */
type Snapshot = (location: ObjectLocation, onProgress: (fraction: number) => void) => Promise<ArchiveResult>;
interface Runner {
  stop: (code?: number) => void;
  snapshot: Snapshot;
}

/** One snapshot at a time, and the stop waits for the one under way (it would write the world). */
let snapshotting: Promise<unknown> = Promise.resolve();
function serializedSnapshot(snapshot: Snapshot): Snapshot {
  return (location, onProgress) => {
    const next = snapshotting.then(() => snapshot(location, onProgress));
    snapshotting = next.catch(() => {});
    return next;
  };
}

/**
 * SIGTERM and SIGINT (a pod's end, Ctrl-C) stop the server through `stop`, which saves the world
 * before exiting. flying-squid's log plugin hooks them too, through exit-hook, which exits at once
 * (143) before anything is saved: its listeners are dropped. It hooks them asynchronously, so this
 * runs again once flying-squid is ready.
 */
function takeStopSignals(stop: (code?: number) => void): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => stop(0));
  }
}

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

/** flying-squid's options for the game's config; `online` counts the players in the game. */
function squidOptions(config: ServerConfig, online: () => number): object {
  return {
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
    generation:
      config.levelType === 'flat'
        ? // flying-squid's superflat: bedrock, three layers of dirt, grass on top, as vanilla's flat preset.
          { name: 'superflat', options: { ...(config.seed ? { seed: numericSeed(config.seed) } : {}) } }
        : { name: 'diamond_square', options: { worldHeight: 80, ...(config.seed ? { seed: numericSeed(config.seed) } : {}) } },
    // Vanilla's: a client silent for 30 s has timed out. flying-squid's 10 s dropped players whose
    // client was busy loading chunks (a crowd joining, a slow machine) for a moment.
    kickTimeout: 30_000,
    // minecraft-protocol checks the plugin channels' type definitions with a JSON schema validator
    // it builds for each login (0.4 s of a core, 0.9 s at the first): they are its own, fixed ones.
    validateChannelProtocol: false,
    plugins: {},
    modpe: false,
    // Chunks are generated in JS on the game's single thread: vanilla's 10 makes a first join
    // generate 441 columns, 6 makes it 169 and keeps joins quick on a shared machine, unless the
    // owner chose another on the game's Settings.
    'view-distance': config.viewDistance ?? 6,
    // minecraft-protocol answers the Server List Ping with it.
    ...(config.icon ? { favicon: `data:image/png;base64,${config.icon}` } : {}),
    'player-list-text': { header: { text: config.motd }, footer: { text: '' } },
    'everybody-op': false,
    'max-entities': 100,
    // The status ping counts the players in the game, as `list` does: minecraft-protocol's own count
    // includes a client refused at login until its connection closes, a second later.
    beforePing: (response: { players: { online: number } }) => {
      response.players.online = online();
      return response;
    },
  };
}

function runFlyingSquid(config: ServerConfig): Runner {
  // flying-squid is CommonJS without types; the interfaces above say what we use of it.
  const { createMCServer } = loadServerOnly(import.meta.url) as { createMCServer(options: object): FlyingSquid };
  const serv: FlyingSquid = readyInItsOwnTime(() => createMCServer(squidOptions(config, () => serv.players.length)));

  let stopping = false;
  const stop = onceStop(async () => {
    stopping = true;
    console.log('Stopping the server');
    rcon?.close();
    await snapshotting;
    // Players are saved before they are kicked, as flying-squid saves them on disconnect without waiting.
    await Promise.all(serv.players.map((p) => p.save()));
    await serv.quit('Server closed').catch((err: unknown) => console.error('closing:', err));
    serv.overworld.stopSaving();
    while (serv.overworld.savingQueue.size > 0) await serv.overworld.saveNow();
    console.log('World saved');
  });

  let rcon: { close(): void } | undefined;
  let ready = false;
  // The world exists once flying-squid is ready, and no player may join before.
  // A server never ready is reported by installAdmin below, which waits for the same.
  serv.waitForReady(60_000).then(
    () => {
      keepChangesWhileSaving(serv.overworld);
      ready = true;
      // flying-squid has hooked the signals by now, whenever its import of exit-hook resolved.
      takeStopSignals(stop);
    },
    () => {},
  );

  // Vanilla's `save-off`, `save-all flush`, zip, `save-on`: the saving loop stops, so no chunk is
  // written while the zip reads the files; players and every queued chunk are written first, so
  // the zip holds the world as it is now. Changes meanwhile stay queued and are saved after.
  const snapshot: Snapshot = async (location, onProgress) => {
    if (!ready) throw new Error('the server is still starting');
    if (stopping) throw new Error('the server is stopping');
    serv.overworld.stopSaving();
    try {
      await Promise.all(serv.players.map((p) => p.save()));
      while (serv.overworld.savingQueue.size > 0) await serv.overworld.saveNow();
      return await archiveToLocation(process.cwd(), location, { onProgress });
    } finally {
      // Always resumed, even when the zip failed; the stop saves by itself.
      if (!stopping) serv.overworld.startSaving();
    }
  };
  serv.on('error', (err) => {
    console.error(`server error: ${err.message}`);
    process.exit(1);
  });
  installAdmin(serv, {
    dir: process.cwd(),
    rconPort: config.rconPort,
    rconPassword: config.rconPassword,
    whitelistEnabled: config.whitelistEnabled,
    pvp: config.pvp ?? true,
    spawnProtection: config.spawnProtection ?? settingDefaults.spawnProtection,
    allowFlight: config.allowFlight ?? settingDefaults.allowFlight,
    onStop: () => stop(0),
    onWhitelistChange: (enabled) => writeServerConfig(process.cwd(), { ...readServerConfig(process.cwd()), whitelistEnabled: enabled }),
  }).then(
    (server) => {
      rcon = server;
      console.log(`RCON listening on 127.0.0.1:${config.rconPort}`);
      // The world and the game port were ready before RCON: logins are taken from now on, and the
      // driver hears it at once instead of at its next look (a held login is waiting for it).
      if (process.connected) process.send?.({ type: 'ready' });
    },
    (err: unknown) => {
      console.error(`RCON failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
  installCombat(serv);
  // minecraft-protocol's server takes its connections from the 'connection' event of its TCP
  // server (node_modules/minecraft-protocol/src/server.js): a handed socket is given to it there,
  // from the ready word the driver hears (RCON up, the last to open) until the stop.
  takeHandedConnections((socket) => rcon !== undefined && !stopping && Boolean(serv._server.socketServer.emit('connection', socket)));
  return { stop, snapshot };
}

function runJar(config: ServerConfig & { jar: string }): Runner {
  fs.writeFileSync('server.properties', serverProperties(config));
  // Setting MC_SERVER_JAR is the operator accepting Mojang's EULA for the servers it runs.
  fs.writeFileSync('eula.txt', 'eula=true\n');
  if (config.icon) fs.writeFileSync('server-icon.png', Buffer.from(config.icon, 'base64'));
  else fs.rmSync('server-icon.png', { force: true });
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
  const command = (line: string) => {
    if (!exited) java.stdin.write(`${line}\n`);
  };
  // The vanilla console takes `stop` on stdin: it saves the world and exits.
  const stop = onceStop(async () => {
    await snapshotting;
    await new Promise<void>((resolve) => {
      if (exited) return resolve();
      java.once('exit', () => resolve());
      command('stop');
    });
  });
  const snapshot: Snapshot = async (location, onProgress) => {
    if (exited) throw new Error('the server has exited');
    command('save-off');
    try {
      command('save-all flush');
      // Java says "Saved the game" when the flush is done, but its output is inherited (it goes
      // straight to the game's log), so we cannot wait for it: a fixed 2 s instead. A flush longer
      // than that (a big world on a slow disk) could put a region file caught mid-write in the zip.
      await new Promise((r) => setTimeout(r, 2000));
      return await archiveToLocation(process.cwd(), location, { onProgress });
    } finally {
      command('save-on');
    }
  };
  return { stop, snapshot };
}

const runner = config.jar ? runJar({ ...config, jar: config.jar }) : runFlyingSquid(config);
const { stop } = runner;
const snapshot = serializedSnapshot(runner.snapshot);

interface BackupRequest {
  type: 'backup';
  id: string;
  location: unknown;
}

process.on('message', (message: unknown) => {
  const m = message as Partial<BackupRequest> | null;
  if (m?.type !== 'backup' || typeof m.id !== 'string') return;
  const { id } = m;
  const reply = (answer: object) => {
    if (process.connected) process.send?.({ id, ...answer });
  };
  Promise.resolve()
    .then(() => snapshot(parseLocation(m.location), (fraction) => reply({ type: 'backup-progress', fraction })))
    .then(
      ({ sizeBytes, sha256 }) => reply({ type: 'backup-done', sizeBytes, sha256 }),
      (err: unknown) => {
        console.error('backup failed:', err);
        reply({ type: 'backup-failed', error: err instanceof Error ? err.message : String(err) });
      },
    );
});
takeStopSignals(stop);
if (process.connected) process.on('disconnect', () => stop(0));
