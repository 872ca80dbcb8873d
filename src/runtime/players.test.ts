import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { gameSpec, join, quit, randomPortRange, waitFor } from '../../tests/fixtures/minecraft.ts';
import { LocalDriver } from './local-driver.ts';
import { readServerConfig } from './minecraft/server-config.ts';

/**
 * Who sees whom: for each pair, the other's name in the client's player list (what a vanilla
 * client needs before it draws a player) and the player itself in the client's world, under the
 * entity the server moves. Empty when everyone sees everyone.
 */
function unseen(bots: Bot[]): string[] {
  return bots.flatMap((bot) => bots.filter((other) => other !== bot && bot.players[other.username]?.entity?.id !== other.entity.id).map((other) => `${bot.username} does not see ${other.username}`));
}

/** Players on one flying-squid server see each other, however their logins cross. */
describe('players on a flying-squid server', () => {
  let dataDir: string;
  let driver: LocalDriver;
  const bots: Bot[] = [];

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-players-'));
    driver = new LocalDriver({ dataDir, host: '127.0.0.1', portRange: randomPortRange() });
  });

  afterEach(async () => {
    await Promise.all(bots.splice(0).map(quit));
    await driver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows each of ten players who log in at once to every other', { timeout: 180_000 }, async () => {
    const game = gameSpec('crowd', { maxPlayers: 10, levelType: 'flat' });
    await driver.provision(game);
    await driver.start(game);
    await waitFor(driver, game, 'RUNNING');
    const { port } = readServerConfig(driver.dir(game));
    const names = Array.from({ length: 10 }, (_, i) => `Crowd${i}`);
    const results = await Promise.all(names.map((name) => join(port, name, game.version, 120_000)));
    for (const result of results) if (result.joined) bots.push(result.bot);
    expect(results.filter((r) => !r.joined)).toEqual([]);
    await expect.poll(() => unseen(bots), { timeout: 30_000 }).toEqual([]);
  });

  // A client busy loading a crowd's chunks, or on a slow link, answers keep-alives late: vanilla
  // waits 30 s before "Timed out", and so must we (flying-squid's 10 s dropped such players).
  it('keeps a player whose client answers nothing for 15 s', { timeout: 60_000 }, async () => {
    const game = gameSpec('patient', { levelType: 'flat' });
    await driver.provision(game);
    await driver.start(game);
    await waitFor(driver, game, 'RUNNING');
    const { port } = readServerConfig(driver.dir(game));
    const result = await join(port, 'Patient', game.version);
    if (!result.joined) throw new Error(result.reason);
    const bot = result.bot;
    bots.push(bot);
    let ended = '';
    const end = new Promise<void>((resolve) => bot.once('end', (reason) => resolve(void (ended = reason))));
    // Every answer to the server held back, as a client whose event loop is stuck would.
    const write = bot._client.write.bind(bot._client);
    const held: Array<[string, unknown]> = [];
    bot._client.write = (name: string, params: unknown) => void held.push([name, params]);
    await new Promise((resolve) => setTimeout(resolve, 15_000));
    bot._client.write = write;
    for (const [name, params] of held.splice(0)) write(name, params);
    // The next keep-alive (every 4 s) is answered, unless the server closed the connection.
    await Promise.race([new Promise((resolve) => bot._client.once('keep_alive', resolve)), end]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(ended).toBe('');
    expect(bot.players.Patient).toBeDefined();
  });
});
