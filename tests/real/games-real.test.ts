import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Bot } from 'mineflayer';
import type { Item } from 'prismarine-item';
import { Vec3 } from 'vec3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';
import type { Database } from '../../src/server/db/client.ts';
import { loadOrCreateKeys, type IdentityKeys } from '../../src/server/identity/keys.ts';
import { signAccessToken } from '../../src/server/identity/tokens.ts';
import { LocalDriver, localConsoles } from '../../src/runtime/local-driver.ts';
import { freshDatabase } from '../fixtures/db.ts';
import { join, kicked, quit, randomPortRange, solidGroundNear } from '../fixtures/minecraft.ts';

// prismarine-item's types declare an ES default export its CommonJS code does not have.
const itemLoader = createRequire(import.meta.url)('prismarine-item') as (registry: object) => typeof Item;
const VERSION = '1.21.4';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The whole chain for real: the API with the local driver running flying-squid servers, the
 * reconciler's loop, and a Minecraft client (mineflayer) that joins, is kicked, refused, banned,
 * builds, and finds its block again after a stop, a crash and a restart of the API.
 * One game, reused across the steps, so it takes as few server starts as it can.
 */
describe('games for real: API, reconciler, local driver and a Minecraft client', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-real-'));
  const portRange = randomPortRange();
  const bots: Bot[] = [];
  let config: Config;
  let keys: IdentityKeys;
  let database: Database;
  let dispose: () => Promise<void>;
  let app: FastifyInstance;
  let driver: LocalDriver;
  let gameId: string;
  let port: number;
  /** Where the bot's block stands, found when it is placed. */
  let placed: Vec3;

  async function openApp() {
    const consoles = localConsoles(config.game.dataDir);
    driver = new LocalDriver({ dataDir: config.game.dataDir, host: '127.0.0.1', portRange, consoles });
    app = await buildApp({ config, database, logger: false, runtime: { driver, consoles } });
  }

  async function as(username: string, options: InjectOptions & { roles?: string[] }) {
    const { roles, ...rest } = options;
    const bearer = await signAccessToken(config, keys, { username, roles: roles ?? [] });
    return app.inject({ ...rest, headers: { ...rest.headers, authorization: `Bearer ${bearer}` } });
  }
  const alice = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => as('alice', { method, url, ...(payload ? { payload } : {}) });

  async function waitForStatus(status: string, timeoutMs = 120_000) {
    const until = Date.now() + timeoutMs;
    let last: unknown;
    while (Date.now() < until) {
      const res = await alice('GET', `/v1/game/${gameId}/status`);
      last = res.json();
      // RUNNING in the database is not enough after an API restart: the server must answer too.
      if (res.json().status === status && (status !== 'RUNNING' || res.json().address)) return res.json() as { status: string; address: string | null; playersOnline: number };
      await sleep(250);
    }
    throw new Error(`game not ${status} within ${timeoutMs} ms; last ${JSON.stringify(last)}`);
  }

  async function joined(name = 'Builder'): Promise<Bot> {
    const result = await join(port, name, VERSION);
    if (!result.joined) throw new Error(`${name} was refused: ${result.reason}`);
    bots.push(result.bot);
    return result.bot;
  }

  async function refused(name = 'Builder'): Promise<string> {
    const result = await join(port, name, VERSION);
    if (result.joined) {
      bots.push(result.bot);
      throw new Error(`${name} joined but should have been refused`);
    }
    return result.reason;
  }

  async function leave(bot: Bot) {
    await quit(bot);
    bots.splice(bots.indexOf(bot), 1);
  }

  /** The bot's block is where it was placed. */
  async function blockStillThere() {
    const bot = await joined();
    await bot.waitForChunksToLoad();
    expect(bot.blockAt(placed)?.name).toBe('gold_block');
    await leave(bot);
  }

  beforeAll(async () => {
    config = loadConfig({
      DATA_DIR: dataDir,
      OIDC_KEYS_FILE: path.join(dataDir, 'keys.json'),
      WEB_DIR: path.join(dataDir, 'no-web'),
      LOG_LEVEL: 'silent',
      GAME_HOST: '127.0.0.1',
      GAME_RECONCILE_INTERVAL_MS: '300',
    });
    keys = await loadOrCreateKeys(config.oidc.keysFile);
    ({ database, dispose } = await freshDatabase());
    await openApp();
  });

  afterAll(async () => {
    await Promise.all(bots.splice(0).map((b) => quit(b).catch(() => {})));
    await app?.close();
    await driver?.close();
    await dispose?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates and starts a game; a player joins, is kicked, whitelisted, banned; the world survives a stop', async () => {
    const staff = { roles: ['staff'] };
    const def = await as('boss', {
      ...staff,
      method: 'POST',
      url: '/v1/definition/game',
      payload: { name: { fr: 'Créatif', en: 'Creative' }, description: { fr: 'Bâtir', en: 'Build' }, version: VERSION, published: true },
    });
    expect(def.statusCode).toBe(201);
    const pack = await as('boss', {
      ...staff,
      method: 'POST',
      url: '/v1/definition/game/package',
      payload: { definitionId: def.json().id, name: { fr: 'Petit', en: 'Small' }, ramMb: 512, maxPlayers: 5, periodDays: 30, priceCredits: 100 },
    });
    expect(pack.statusCode).toBe(201);
    const aliceId = (await alice('GET', '/v1/user')).json().id as string;
    await app.services.credits.apply(app.services.db, { userId: aliceId, amount: 100, kind: 'ADMIN_ADJUSTMENT', reason: { key: 'text', params: { text: 'Test credits' } } });
    const created = await alice('POST', '/v1/game/create', { definitionId: def.json().id, packageId: pack.json().id, name: 'Real world', settings: { gameMode: 'creative', difficulty: 'peaceful' } });
    expect(created.statusCode).toBe(201);
    gameId = created.json().id;

    expect((await alice('POST', `/v1/game/${gameId}/start`)).statusCode).toBe(200);
    const running = await waitForStatus('RUNNING');
    port = Number(running.address!.split(':').at(-1));
    expect(running.address).toBe(`127.0.0.1:${port}`);

    // A player joins and the API sees them; they build a block.
    const builder = await joined();
    expect((await alice('GET', `/v1/game/${gameId}/minecraft/players/connected`)).json()).toMatchObject({ playersOnline: 1, players: [{ name: 'Builder' }] });
    await builder.waitForChunksToLoad();
    const ground = solidGroundNear(builder);
    placed = ground.position.offset(0, 1, 0);
    const ItemOf = itemLoader(builder.registry);
    await builder.creative.setInventorySlot(36, new ItemOf(builder.registry.itemsByName.gold_block!.id, 1));
    await builder.equip(builder.registry.itemsByName.gold_block!.id, 'hand');
    await builder.placeBlock(ground, new Vec3(0, 1, 0));
    expect(builder.blockAt(placed)?.name).toBe('gold_block');

    // Kicked through the API: the player sees the reason.
    const kick = kicked(builder);
    const kickRes = await alice('POST', `/v1/game/${gameId}/minecraft/kick`, { name: 'Builder', reason: 'Time for a break' });
    expect(kickRes.json()).toEqual({ message: 'Kicked Builder: Time for a break' });
    expect(await kick).toBe('Time for a break');
    bots.splice(bots.indexOf(builder), 1);

    // The whitelist turned on live refuses them; adding them lets them in.
    expect((await alice('PUT', `/v1/game/${gameId}/minecraft/whitelist/status?enabled=true`)).json()).toEqual({ enabled: true });
    expect(await refused()).toBe('You are not white-listed on this server!');
    expect((await alice('POST', `/v1/game/${gameId}/minecraft/player`, { name: 'Builder', type: 'WHITELIST', action: 'ADD' })).statusCode).toBe(200);
    const again = await joined();

    // Banned live: kicked at once, and cannot come back.
    const banKick = kicked(again);
    expect((await alice('POST', `/v1/game/${gameId}/minecraft/player`, { name: 'Builder', type: 'BANNED', action: 'ADD' })).statusCode).toBe(200);
    expect(await banKick).toContain('You are banned from this server.');
    bots.splice(bots.indexOf(again), 1);
    expect(await refused()).toContain('You are banned from this server.');

    expect((await alice('POST', `/v1/game/${gameId}/stop`)).statusCode).toBe(200);
    await waitForStatus('STOPPED');
    // Pardoned while stopped: the server gets the list at its next start.
    expect((await alice('POST', `/v1/game/${gameId}/minecraft/player`, { name: 'Builder', type: 'BANNED', action: 'REMOVE' })).json().players).toEqual([]);
    expect((await alice('POST', `/v1/game/${gameId}/start`)).statusCode).toBe(200);
    await waitForStatus('RUNNING');
    await blockStillThere();
  }, 300_000);

  it('restarts a server that dies, and tells the owner', async () => {
    const pid = driver.pid({ id: gameId })!;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGKILL');
    await waitForStatus('CRASHED', 30_000);
    // The first restart comes after a 5 s back-off.
    await waitForStatus('RUNNING', 120_000);
    expect(driver.pid({ id: gameId })).not.toBe(pid);
    const notices = (await alice('GET', '/v1/user/notifications?size=50')).json().data as { data: { key: string; title: string } }[];
    // Said in the owner's language (French by default), from the crash message.
    expect(notices.find((n) => n.data.key === 'game.crashed')?.data.title).toMatch(/arrêté brutalement/);
    await blockStillThere();
  }, 180_000);

  it('stops servers cleanly with the API, and starts them again with their world when it comes back', async () => {
    const pid = driver.pid({ id: gameId })!;
    await app.close();
    expect(() => process.kill(pid, 0)).toThrow();
    await openApp();
    await waitForStatus('RUNNING');
    await blockStillThere();
  }, 180_000);
});
