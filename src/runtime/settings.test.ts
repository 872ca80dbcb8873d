import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import minecraftProtocol from 'minecraft-protocol';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { gameSpec, join, kicked, quit, randomPortRange, waitFor } from '../../tests/fixtures/minecraft.ts';
import { LocalDriver } from './local-driver.ts';
import { pingServer } from './minecraft/probe.ts';
import { readServerConfig } from './minecraft/server-config.ts';

/** A game's settings on a real flying-squid server: what changes live over RCON, what it reads at start. */
describe('settings on a flying-squid server', () => {
  let dataDir: string;
  let driver: LocalDriver;
  const bots: Bot[] = [];

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-settings-'));
    driver = new LocalDriver({ dataDir, host: '127.0.0.1', portRange: randomPortRange() });
  });

  afterEach(async () => {
    await Promise.all(bots.splice(0).map(quit));
    await driver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('changes its MOTD and difficulty live, and shows its icon in the server list', { timeout: 120_000 }, async () => {
    const icon = (
      await sharp({ create: { width: 64, height: 64, channels: 4, background: '#c33' } })
        .png()
        .toBuffer()
    ).toString('base64');
    const game = gameSpec('settings', { icon, viewDistance: 4 });
    await driver.provision(game);
    await driver.start(game);
    await waitFor(driver, game, 'RUNNING');
    const { port } = readServerConfig(driver.dir(game));
    expect((await pingServer('127.0.0.1', port)).motd).toBe('BlockHost test');
    // What a client's server list reads: the icon is the one the game was started with.
    const status = (await minecraftProtocol.ping({ host: '127.0.0.1', port })) as { favicon?: string };
    expect(status.favicon).toBe(`data:image/png;base64,${icon}`);

    expect(await driver.rcon(game, 'motd Now with castles')).toBe('The MOTD is now "Now with castles"');
    expect((await pingServer('127.0.0.1', port)).motd).toBe('Now with castles');
    expect(await driver.rcon(game, 'difficulty hard')).toBe('The difficulty has been set to hard');
    expect(await driver.rcon(game, 'difficulty impossible')).toMatch(/Unknown or incomplete command/);
  });

  it('gives a new game mode to every player, those online at once and those who come back', { timeout: 180_000 }, async () => {
    const game = gameSpec('game-mode', { gameMode: 'survival', levelType: 'flat' });
    await driver.provision(game);
    await driver.start(game);
    await waitFor(driver, game, 'RUNNING');
    const joined = async (name: string) => {
      const result = await join(readServerConfig(driver.dir(game)).port, name, game.version);
      if (!result.joined) throw new Error(`${name} could not join: ${result.reason}`);
      bots.push(result.bot);
      return result.bot;
    };
    const alex = await joined('Alex');
    await expect.poll(() => alex.game.gameMode, { timeout: 20_000 }).toBe('survival');

    // Changed while Alex plays, as the Settings page does: Alex plays creative at once.
    const switched = new Promise<void>((resolve) =>
      alex.on('game', () => {
        if (alex.game.gameMode === 'creative') resolve();
      }),
    );
    expect(await driver.rcon(game, 'defaultgamemode creative')).toBe('The default game mode is now Creative Mode');
    await switched;
    expect(await driver.rcon(game, 'defaultgamemode hardcore')).toMatch(/Unknown or incomplete command/);
    await quit(bots.pop()!);

    // Changed while the server is stopped: Alex, whose file says creative, comes back in adventure.
    await driver.stop(game);
    await waitFor(driver, game, 'STOPPED');
    const adventure = { ...game, gameMode: 'adventure' as const };
    await driver.start(adventure);
    await waitFor(driver, adventure, 'RUNNING');
    const back = await joined('Alex');
    await expect.poll(() => back.game.gameMode, { timeout: 20_000 }).toBe('adventure');
  });

  it.each([true, false])('lets players hurt each other only with PvP on (pvp: %s)', { timeout: 120_000 }, async (pvp) => {
    const game = gameSpec(`pvp-${pvp}`, { gameMode: 'survival', pvp, levelType: 'flat' });
    await driver.provision(game);
    await driver.start(game);
    await waitFor(driver, game, 'RUNNING');
    const { port } = readServerConfig(driver.dir(game));
    // Both at once, as players of a duel join: each sees the other however their logins cross.
    const results = await Promise.all(['Target', 'Fighter'].map((name) => join(port, name, game.version)));
    for (const result of results) if (result.joined) bots.push(result.bot);
    const [target, fighter] = bots;
    if (!fighter || !target) throw new Error('a player could not join');
    await expect.poll(() => fighter.players.Target?.entity?.id, { timeout: 20_000 }).toBe(target.entity.id);
    await expect.poll(() => target.health).toBe(20);
    fighter.attack(fighter.players.Target!.entity);
    if (pvp) {
      await expect.poll(() => target.health, { timeout: 10_000 }).toBeLessThan(20);
    } else {
      // The attack and then a chat line, in that order from the same client: once the target reads
      // the line, the server has dealt with the attack.
      const heard = new Promise<void>((resolve) =>
        target.on('messagestr', (message) => {
          if (message.includes('after the hit')) resolve();
        }),
      );
      fighter.chat('after the hit');
      await heard;
      expect(target.health).toBe(20);
    }
  });

  it.each([false, true])('kicks a player who hovers in survival, unless flight is allowed (allowFlight: %s)', { timeout: 120_000 }, async (allowFlight) => {
    const game = gameSpec(`flight-${allowFlight}`, { gameMode: 'survival', allowFlight });
    await driver.provision(game);
    await driver.start(game);
    await waitFor(driver, game, 'RUNNING');
    const result = await join(readServerConfig(driver.dir(game)).port, 'Flyer', game.version);
    if (!result.joined) throw new Error(`Flyer could not join: ${result.reason}`);
    const bot = result.bot;
    bots.push(bot);
    await bot.waitForChunksToLoad();
    // A flying client: it rises five blocks and stays there, saying it is off the ground, for six
    // seconds (vanilla's bound is four), sending its position each tick.
    bot.physicsEnabled = false;
    const { x, y, z } = bot.entity.position;
    const reason = kicked(bot, 15_000);
    reason.catch(() => {});
    let gone = false;
    bot.once('end', () => {
      gone = true;
    });
    for (let tick = 0; tick < 120 && !gone; tick++) {
      // Where mineflayer believes it is too: it repeats its position each second on its own.
      bot.entity.position.y = y + Math.min(5, tick * 0.25);
      bot.entity.onGround = false;
      bot._client.write('position', { x, y: bot.entity.position.y, z, flags: { onGround: false, hasHorizontalCollision: false } });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (allowFlight) {
      expect(gone).toBe(false);
      expect(await driver.rcon(game, 'list')).toContain('Flyer');
    } else {
      expect(await reason).toBe('Flying is not enabled on this server');
    }
  });
});
