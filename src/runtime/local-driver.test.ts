import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Bot } from 'mineflayer';
import type { Item } from 'prismarine-item';
import { Vec3 } from 'vec3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gameSpec, join, kicked, quit, randomPortRange, solidGroundNear, waitFor } from '../../tests/fixtures/minecraft.ts';
import { minecraftVersions } from '../contract/games.ts';
import { NoCapacityError, type GameSpec } from './driver.ts';
import { LocalDriver } from './local-driver.ts';
import { readList } from './minecraft/player-lists.ts';
import { pingServer } from './minecraft/probe.ts';
import { configFile, readServerConfig } from './minecraft/server-config.ts';
import { checkWorld, unpackWorld } from './minecraft/world-archive.ts';

// prismarine-item's types declare an ES default export its CommonJS code does not have.
const itemLoader = createRequire(import.meta.url)('prismarine-item') as (registry: object) => typeof Item;

/**
 * The local driver against real flying-squid servers and a real Minecraft client (mineflayer).
 * Slow: each start loads a server and generates chunks.
 */
describe('LocalDriver with flying-squid', () => {
  let dataDir: string;
  let driver: LocalDriver;
  const bots: Bot[] = [];

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-runtime-'));
    driver = new LocalDriver({ dataDir, host: 'play.example.test', portRange: randomPortRange() });
  });

  afterEach(async () => {
    await Promise.all(bots.splice(0).map(quit));
    await driver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function joined(port: number, name: string, version: string): Promise<Bot> {
    const result = await join(port, name, version);
    if (!result.joined) throw new Error(`${name} was refused: ${result.reason}`);
    bots.push(result.bot);
    return result.bot;
  }

  async function refused(port: number, name: string, version: string): Promise<string> {
    const result = await join(port, name, version);
    if (result.joined) {
      bots.push(result.bot);
      throw new Error(`${name} joined but should have been refused`);
    }
    return result.reason;
  }

  it('runs a game: players join, are kicked, whitelisted and banned, and the world survives a restart', async () => {
    // MC_TEST_VERSION runs it against another version flying-squid and mineflayer both speak.
    const game = gameSpec('lifecycle', { banned: ['Intruder'], levelType: 'flat', version: process.env.MC_TEST_VERSION ?? '1.21.4' });
    const { version } = game;
    const ready = new Promise<string>((resolve) => driver.onReady(resolve));
    await driver.start(game);
    // The server's own word that it takes logins: the first look after it sees it running.
    expect(await ready).toBe(game.id);
    expect((await driver.observe(game)).status).toBe('RUNNING');
    const running = await waitFor(driver, game, 'RUNNING');
    const { port } = readServerConfig(driver.dir(game));
    expect(running).toMatchObject({ address: `play.example.test:${port}`, motd: 'BlockHost test', version, maxPlayers: 5, playersOnline: 0, players: [] });

    // A ban written before the start applies.
    expect(await refused(port, 'Intruder', version)).toContain('You are banned from this server.');
    // The refused connection stays open a second after the reason: it is no player, and the
    // count goes with the names, in observe and in the status ping players see.
    const afterRefusal = await driver.observe(game);
    expect(afterRefusal.playersOnline).toBe(afterRefusal.players.length);
    expect(afterRefusal).toMatchObject({ status: 'RUNNING', playersOnline: 0, players: [] });
    expect((await pingServer('127.0.0.1', port)).online).toBe(0);

    const builder = await joined(port, 'Builder', version);
    expect(await driver.rcon(game, 'list')).toBe('There are 1 of a max of 5 players online: Builder');
    expect(await driver.observe(game)).toMatchObject({ status: 'RUNNING', playersOnline: 1, players: ['Builder'] });
    expect((await pingServer('127.0.0.1', port)).online).toBe(1);

    // The bot places a block in creative mode; it must outlive the restart below.
    expect(builder.game.gameMode).toBe('creative');
    await builder.waitForChunksToLoad();
    const ground = solidGroundNear(builder);
    const placed = ground.position.offset(0, 1, 0);
    const Item = itemLoader(builder.registry);
    await builder.creative.setInventorySlot(36, new Item(builder.registry.itemsByName.gold_block!.id, 1));
    await builder.equip(builder.registry.itemsByName.gold_block!.id, 'hand');
    await builder.placeBlock(ground, new Vec3(0, 1, 0));
    expect(builder.blockAt(placed)?.name).toBe('gold_block');

    const kick = kicked(builder);
    expect(await driver.rcon(game, 'kick Builder Time for a break')).toBe('Kicked Builder: Time for a break');
    expect(await kick).toBe('Time for a break');

    expect(await driver.rcon(game, 'whitelist on')).toBe('Whitelist is now turned on');
    expect(await refused(port, 'Builder', version)).toBe('You are not white-listed on this server!');
    expect(await driver.observe(game)).toMatchObject({ playersOnline: 0, players: [] });
    expect(await driver.rcon(game, 'whitelist add Builder')).toBe('Added Builder to the whitelist');
    expect(await driver.rcon(game, 'whitelist list')).toBe('There are 1 whitelisted player(s): Builder');
    const again = await joined(port, 'Builder', version);

    const banKick = kicked(again);
    expect(await driver.rcon(game, 'ban Builder Griefing')).toBe('Banned Builder: Griefing');
    expect(await banKick).toBe('You are banned from this server.\nReason: Griefing');
    expect(await refused(port, 'Builder', version)).toBe('You are banned from this server.\nReason: Griefing');
    expect(readList(driver.dir(game), 'banned').map((e) => [e.name, e.reason])).toEqual([
      ['Intruder', 'Banned by an operator.'],
      ['Builder', 'Griefing'],
    ]);

    expect(await driver.rcon(game, 'pardon Builder')).toBe('Unbanned Builder');
    expect(await driver.rcon(game, 'op Builder')).toBe('Made Builder a server operator');
    expect(await driver.rcon(game, 'nonsense')).toBe('Unknown or incomplete command, see below for error');

    await driver.stop(game);
    expect(await driver.observe(game)).toMatchObject({ status: 'STOPPED', address: null });
    expect(readList(driver.dir(game), 'whitelist').map((e) => e.name)).toEqual(['Builder']);
    expect(readList(driver.dir(game), 'ops').map((e) => e.name)).toEqual(['Builder']);

    // The platform starts it again with the lists it holds.
    const restarted = { ...game, whitelistEnabled: true, whitelist: ['Builder'], ops: ['Builder'], banned: ['Intruder'] };
    await driver.start(restarted);
    await waitFor(driver, restarted, 'RUNNING');
    const back = await joined(port, 'Builder', version);
    await back.waitForChunksToLoad();
    expect(back.blockAt(placed)?.name).toBe('gold_block');
  }, 300_000);

  it('backs up a running server while a player plays on, a stopped one, and restores a stopped one', async () => {
    const game = gameSpec('backups');
    const dir = driver.dir(game);
    const at = (name: string) => ({ kind: 'file' as const, path: path.join(dataDir, 'store', name) });
    await driver.provision(game);
    await expect(driver.backup(game, at('none.zip'))).rejects.toThrow('game backups has no world yet');

    await driver.start(game);
    await waitFor(driver, game, 'RUNNING');
    const { port } = readServerConfig(dir);
    const player = await joined(port, 'Saver', game.version);
    await player.waitForChunksToLoad();

    // Running: the launcher pauses its saves, flushes, zips and resumes; the player stays.
    const liveProgress: number[] = [];
    const live = await driver.backup(game, at('live.zip'), (f) => liveProgress.push(f));
    // Progress came over IPC, rising, 100 % once the zip was in place.
    expect(liveProgress.at(-1)).toBe(1);
    expect(liveProgress).toEqual([...liveProgress].sort((a, b) => a - b));
    expect(live.sizeBytes).toBe(fs.statSync(at('live.zip').path).size);
    expect(live.sha256).toMatch(/^[0-9a-f]{64}$/);
    const staging = path.join(dataDir, 'unpacked');
    await unpackWorld(at('live.zip').path, staging);
    await checkWorld(staging);
    // The flush wrote the chunks the player loaded and the player's own file.
    expect(fs.readdirSync(path.join(staging, 'region')).filter((f) => f.endsWith('.mca')).length).toBeGreaterThan(0);
    expect(fs.readdirSync(path.join(staging, 'playerdata')).length).toBe(1);
    expect(await driver.observe(game)).toMatchObject({ status: 'RUNNING', players: ['Saver'] });
    expect(await driver.rcon(game, 'list')).toBe('There are 1 of a max of 5 players online: Saver');
    // Saves resumed: a second snapshot works the same.
    await expect(driver.backup(game, at('live-2.zip'))).resolves.toMatchObject({ sizeBytes: expect.any(Number) as number });

    await expect(driver.restore(game, at('live.zip'), 1e9)).rejects.toThrow('game backups is running');

    await quit(player);
    await driver.stop(game);
    // Stopped: the world tool zips it, and puts a zip back in place of the world.
    const marker = path.join(dir, 'world', 'marker.txt');
    fs.writeFileSync(marker, 'kept');
    const coldProgress: number[] = [];
    const cold = await driver.backup(game, at('cold.zip'), (f) => coldProgress.push(f));
    expect(coldProgress.at(-1)).toBe(1);
    expect(cold.sizeBytes).toBe(fs.statSync(at('cold.zip').path).size);
    fs.writeFileSync(marker, 'lost');
    await driver.restore(game, at('cold.zip'), 1e9);
    expect(fs.readFileSync(marker, 'utf8')).toBe('kept');
    // A zip over the quota is refused with its code, the world untouched.
    await expect(driver.restore(game, at('cold.zip'), 100)).rejects.toMatchObject({ code: 'archive.too-large' });
    expect(fs.readFileSync(marker, 'utf8')).toBe('kept');
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('world'))).toEqual(['world']);
    // The restored world is one the server loads.
    await driver.start(game);
    await waitFor(driver, game, 'RUNNING');
    expect(fs.readFileSync(marker, 'utf8')).toBe('kept');
  }, 180_000);

  it('refuses what it cannot host, with the reason', async () => {
    await expect(driver.provision(gameSpec('old', { version: '1.7.10' }))).rejects.toThrow('Minecraft "1.7.10" is not served by flying-squid: expected a release from 1.8.8 to 1.21.4');
    await expect(driver.provision(gameSpec('new', { version: '1.21.5' }))).rejects.toThrow('Minecraft "1.21.5" is not served by flying-squid');
    await expect(driver.provision(gameSpec('../escape'))).rejects.toThrow('game id "../escape" is invalid');
    await expect(driver.rcon(gameSpec('idle'), 'list')).rejects.toThrow('game idle is not running');
    // Provisioning takes no ports (a start does): ten ports allow any number of games to exist.
    for (let i = 0; i < 6; i++) await driver.provision(gameSpec(`g${i}`));
    const stored = () => JSON.parse(fs.readFileSync(path.join(driver.dir({ id: 'g0' }), configFile), 'utf8')) as Record<string, unknown>;
    const { rconPassword, port } = stored();
    expect(port).toBeUndefined();
    // Provisioned again, a game keeps its RCON password.
    await driver.provision(gameSpec('g0', { motd: 'changed' }));
    expect(stored()).toMatchObject({ rconPassword, motd: 'changed' });
    // Every release the catalogue accepts is one the runtime serves.
    for (const version of minecraftVersions) await expect(driver.provision(gameSpec('g0', { version }))).resolves.toBeUndefined();
    expect(() => new LocalDriver({ dataDir, host: 'h', portRange: { from: 30_000, to: 30_000 } })).toThrow('port range 30000-30000 is invalid');
  });

  it('reports a crash with its reason', async () => {
    const game = gameSpec('crashing');
    await driver.start(game);
    // Launched is not running: the process lives but has not answered yet.
    expect(await driver.observe(game)).toMatchObject({ status: 'STARTING', address: null });
    await waitFor(driver, game, 'RUNNING');
    process.kill(driver.pid(game)!, 'SIGKILL');
    const crashed = await waitFor(driver, game, 'CRASHED', 10_000);
    expect(crashed.reason).toMatch(/^killed by signal SIGKILL/);

    // A server that cannot take a port exits, with the error in the reason. The driver hands out
    // free ports only, so the RCON port is taken right after the launch, long before the server
    // has loaded and binds it.
    await driver.start(game);
    const { rconPort } = readServerConfig(driver.dir(game));
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(rconPort, '127.0.0.1', resolve));
    try {
      const second = await waitFor(driver, game, 'CRASHED', 30_000);
      expect(second.reason).toMatch(/^exited with code 1: [\s\S]*EADDRINUSE/);
    } finally {
      squatter.close();
    }
    await driver.stop(game);
    expect((await driver.observe(game)).status).toBe('STOPPED');
  }, 120_000);

  it('takes ports at start and gives them back at stop or crash; no free ports is NoCapacityError', async () => {
    // Four ports: two games at once.
    const { from } = randomPortRange();
    const range = [from, from + 1, from + 2, from + 3];
    const tiny = new LocalDriver({ dataDir, host: 'h', portRange: { from, to: from + 3 }, stopTimeoutMs: 10_000 });
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((id) => gameSpec(`ports-${id}`)) as [GameSpec, GameSpec, GameSpec, GameSpec, GameSpec];
    const portsOf = (game: GameSpec) => {
      const { port, rconPort } = readServerConfig(tiny.dir(game));
      return [port, rconPort];
    };
    const full = /^no free ports left in the game port range \d+-\d+/;
    try {
      // Started together, they never get the same ports.
      await Promise.all([tiny.start(a), tiny.start(b)]);
      expect([...portsOf(a), ...portsOf(b)].sort((x, y) => x - y)).toEqual(range);
      expect(await tiny.hasCapacity()).toBe(false);
      await expect(tiny.start(c)).rejects.toThrow(NoCapacityError);
      await expect(tiny.start(c)).rejects.toThrow(full);
      expect(await tiny.observe(c)).toMatchObject({ status: 'STOPPED' });

      // Stopped, they give their ports back: two other games start.
      await Promise.all([tiny.stop(a), tiny.stop(b)]);
      expect(await tiny.hasCapacity()).toBe(true);
      await tiny.start(c);
      await tiny.start(d);
      expect([...portsOf(c), ...portsOf(d)].sort((x, y) => x - y)).toEqual(range);
      await expect(tiny.start(e)).rejects.toThrow(NoCapacityError);

      // A crash gives its ports back too.
      const crashedPorts = portsOf(c);
      process.kill(tiny.pid(c)!, 'SIGKILL');
      await waitFor(tiny, c, 'CRASHED', 10_000);
      await tiny.start(e);
      expect(portsOf(e)).toEqual(crashedPorts);

      // A game gets the ports it had when they are free, not merely the first free ones.
      const bHad = portsOf(b);
      await Promise.all([tiny.stop(d), tiny.stop(e)]);
      await tiny.start(b);
      expect(portsOf(b)).toEqual(bHad);
      expect(bHad).not.toContain(from);

      // A port something else listens on is not handed out.
      const squatter = net.createServer();
      await new Promise<void>((resolve) =>
        squatter.listen(
          range.find((p) => !bHad.includes(p))!,
          resolve,
        ),
      );
      try {
        expect(await tiny.hasCapacity()).toBe(false);
        await expect(tiny.start(a)).rejects.toThrow(NoCapacityError);
      } finally {
        await new Promise((resolve) => squatter.close(resolve));
      }
      await tiny.start(a);
      expect([...portsOf(a), ...portsOf(b)].sort((x, y) => x - y)).toEqual(range);
    } finally {
      await tiny.close();
    }
  }, 120_000);

  it('launches a jar (MC_SERVER_JAR) with the game settings in server.properties', async () => {
    const jar = path.join(dataDir, 'server.jar');
    fs.writeFileSync(jar, '');
    const jarDriver = new LocalDriver({ dataDir, host: '127.0.0.1', portRange: randomPortRange(), serverJar: jar });
    const game = gameSpec('vanilla', { version: '1.21.5', whitelist: ['Alex'], whitelistEnabled: true });
    try {
      await jarDriver.start(game);
      const { port, rconPort, rconPassword } = readServerConfig(jarDriver.dir(game));
      // No Minecraft jar can be fetched here: an empty one takes the launch as far as Java, whose
      // refusal must come back as the crash reason.
      const crashed = await waitFor(jarDriver, game, 'CRASHED', 30_000);
      expect(crashed.reason).toMatch(/^exited with code 1: .*Invalid or corrupt jarfile/);
      const props = fs.readFileSync(path.join(jarDriver.dir(game), 'server.properties'), 'utf8');
      expect(props).toContain(`server-port=${port}\n`);
      expect(props).toContain(`enable-rcon=true\nrcon.port=${rconPort}\nrcon.password=${rconPassword}\n`);
      expect(props).toContain('white-list=true\n');
      expect(readList(jarDriver.dir(game), 'whitelist').map((e) => e.name)).toEqual(['Alex']);
    } finally {
      await jarDriver.close();
    }
  });

  it('leaves no server behind when the process that started it is killed', async () => {
    // A stand-in for the API: starts a game with the driver, prints the server's pid, waits.
    const parentCode = `
      const { LocalDriver } = await import(${JSON.stringify(new URL('./local-driver.ts', import.meta.url).href)});
      const { gameSpec } = await import(${JSON.stringify(new URL('../../tests/fixtures/minecraft.ts', import.meta.url).href)});
      const driver = new LocalDriver(${JSON.stringify({ dataDir, host: '127.0.0.1', portRange: randomPortRange() })});
      await driver.start(gameSpec('orphan'));
      console.log(driver.pid({ id: 'orphan' }));
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['--input-type=module', '-e', parentCode], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pid = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (d: Buffer) => resolve(d.toString()))));
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive()).toBe(true);
    parent.kill('SIGKILL');
    const until = Date.now() + 20_000;
    while (alive() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(alive()).toBe(false);
  }, 60_000);
});
