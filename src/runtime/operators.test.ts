import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { gameSpec, join, quit, randomPortRange, waitFor } from '../../tests/fixtures/minecraft.ts';
import { LocalDriver } from './local-driver.ts';
import { readServerConfig } from './minecraft/server-config.ts';

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
    const game = gameSpec('operators', { gameMode: 'survival', ops: ['Oppy'] });
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
});
