import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import minecraftProtocol from 'minecraft-protocol';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gameSpec, randomPortRange, waitFor } from '../../tests/fixtures/minecraft.ts';
import { LocalDriver } from './local-driver.ts';
import { pingServer } from './minecraft/probe.ts';
import { readServerConfig } from './minecraft/server-config.ts';

/** A game's settings on a real flying-squid server: what changes live over RCON, what it reads at start. */
describe('settings on a flying-squid server', () => {
  let dataDir: string;
  let driver: LocalDriver;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-settings-'));
    driver = new LocalDriver({ dataDir, host: '127.0.0.1', portRange: randomPortRange() });
  });

  afterEach(async () => {
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
});
