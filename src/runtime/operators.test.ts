import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import type { Item } from 'prismarine-item';
import { Vec3 } from 'vec3';
import { gameSpec, join, quit, randomPortRange, solidGroundNear, waitFor } from '../../tests/fixtures/minecraft.ts';
import { LocalDriver } from './local-driver.ts';
import { readServerConfig } from './minecraft/server-config.ts';

const itemLoader = createRequire(import.meta.url)('prismarine-item') as (registry: object) => typeof Item;

/** What a player's `/setblock` two blocks away did: the block there afterwards, and the server's answer if any. */
async function setBlockNear(bot: Bot, dx: number): Promise<{ block: string | undefined; answer: string }> {
  const at = bot.entity.position.floored().offset(dx, 1, 2);
  let answer = '';
  const heard = (message: string) => {
    answer = message;
  };
  bot.on('messagestr', heard);
  try {
    bot.chat(`/setblock ${at.x} ${at.y} ${at.z} gold_block`);
    // A refusal is a chat line; a change is a block update: wait for either, then a little more.
    const until = Date.now() + 5000;
    while (Date.now() < until && !answer && bot.blockAt(at)?.name !== 'gold_block') await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 300));
    return { block: bot.blockAt(at)?.name, answer };
  } finally {
    bot.off('messagestr', heard);
  }
}

/** The next block the server sends the bot at `at`: its answer to a dig it refuses or to a placement. */
function answerAt(bot: Bot, at: Vec3): Promise<string | undefined> {
  return new Promise((resolve) => {
    const heard = (_old: Block | null, now: Block) => {
      if (!now?.position.equals(at)) return;
      bot.off('blockUpdate', heard);
      resolve(now.name);
    };
    bot.on('blockUpdate', heard);
  });
}

/** Operators named in the panel (ops.json, `op`/`deop` over RCON) have their powers in the game. */
describe('operators on a flying-squid server', () => {
  let dataDir: string;
  let driver: LocalDriver;
  const bots: Bot[] = [];

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-operators-'));
    driver = new LocalDriver({ dataDir, host: '127.0.0.1', portRange: randomPortRange() });
  });

  afterEach(async () => {
    await Promise.all(bots.splice(0).map(quit));
    await driver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('gives an operator named before joining, or while online, op-only commands at once, and takes them back at once', { timeout: 120_000 }, async () => {
    const game = gameSpec('operators', { gameMode: 'survival', ops: ['Oppy'], levelType: 'flat' });
    await driver.provision(game);
    await driver.start(game);
    await waitFor(driver, game, 'RUNNING');
    const { port } = readServerConfig(driver.dir(game));
    for (const name of ['Oppy', 'Plain']) {
      const result = await join(port, name, game.version);
      if (!result.joined) throw new Error(`${name} could not join: ${result.reason}`);
      await result.bot.waitForChunksToLoad();
      bots.push(result.bot);
    }
    const [oppy, plain] = bots as [Bot, Bot];

    // Named before joining: the power is there.
    expect(await setBlockNear(oppy, 2)).toEqual({ block: 'gold_block', answer: '' });
    // Never named: none.
    const refused = await setBlockNear(plain, -2);
    expect(refused.block).not.toBe('gold_block');
    expect(refused.answer).toContain('You do not have permission to use this command');

    // Named while online: at once, without reconnecting.
    expect(await driver.rcon(game, 'op Plain')).toBe('Made Plain a server operator');
    expect(await setBlockNear(plain, -3)).toEqual({ block: 'gold_block', answer: '' });
    // Removed: gone at once.
    expect(await driver.rcon(game, 'deop Oppy')).toBe('Made Oppy no longer a server operator');
    const revoked = await setBlockNear(oppy, 3);
    expect(revoked.block).not.toBe('gold_block');
    expect(revoked.answer).toContain('You do not have permission to use this command');
  });

  it.each([16, 0])('keeps the spawn from players who are not operators (spawn protection %s)', { timeout: 120_000 }, async (spawnProtection) => {
    const game = gameSpec(`spawn-${spawnProtection}`, { gameMode: 'creative', ops: ['Boss'], spawnProtection, levelType: 'flat' });
    await driver.provision(game);
    await driver.start(game);
    await waitFor(driver, game, 'RUNNING');
    const { port } = readServerConfig(driver.dir(game));
    const result = await join(port, 'Builder', game.version);
    if (!result.joined) throw new Error(`Builder could not join: ${result.reason}`);
    const builder = result.bot;
    bots.push(builder);
    await builder.waitForChunksToLoad();
    const protectedSpawn = spawnProtection > 0;

    // Digging near the spawn: refused, the block stays (the client is told so); or done. A flat
    // world: grass under the spawn wherever it is, never water or a cliff.
    const ground = solidGroundNear(builder);
    const name = ground.name;
    // The client breaks the block on its side, then the server puts it back: awaited, however busy
    // the machine. A dig it accepts is answered with nothing.
    await builder.dig(ground);
    if (protectedSpawn) expect(await answerAt(builder, ground.position)).toBe(name);
    else await new Promise((r) => setTimeout(r, 500));
    expect(builder.blockAt(ground.position)?.name).toBe(protectedSpawn ? name : 'air');

    // Placing near the spawn: refused, nothing there; or placed.
    const under = solidGroundNear(builder);
    const above = under.position.offset(0, 1, 0);
    const Item = itemLoader(builder.registry);
    await builder.creative.setInventorySlot(36, new Item(builder.registry.itemsByName.gold_block!.id, 1));
    await builder.equip(builder.registry.itemsByName.gold_block!.id, 'hand');
    // Answered either way (the block placed, or what is there), without mineflayer's 5 s bound on
    // the answer, which a busy machine overran.
    const placed = answerAt(builder, above);
    await builder.activateBlock(under, new Vec3(0, 1, 0));
    expect(await placed).toBe(protectedSpawn ? 'air' : 'gold_block');
    expect(builder.blockAt(above)?.name).toBe(protectedSpawn ? 'air' : 'gold_block');

    // An operator may.
    if (protectedSpawn) {
      expect(await driver.rcon(game, 'op Builder')).toBe('Made Builder a server operator');
      const placedByOperator = answerAt(builder, above);
      await builder.activateBlock(under, new Vec3(0, 1, 0));
      expect(await placedByOperator).toBe('gold_block');
    }
  });
});
