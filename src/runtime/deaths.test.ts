import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Bot } from 'mineflayer';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gameSpec, join, kicked, landHit, quit, randomPortRange, waitFor, within } from '../../tests/fixtures/minecraft.ts';
import type { ConsoleLine } from './console-log.ts';
import type { GameConsoles } from './consoles.ts';
import { parseDeath } from './deaths.ts';
import { LocalDriver, localConsoles } from './local-driver.ts';
import { readServerConfig } from './minecraft/server-config.ts';

describe('parseDeath', () => {
  it('reads a kill from flying-squid’s, vanilla’s and Paper’s console lines', () => {
    const kill = { victim: 'Bob', killer: 'Alice_2' };
    // As the local driver's console keeps flying-squid's line: time stamp dropped, colours kept.
    expect(parseDeath({ text: '[\u001b[32mINFO\u001b[39m]: Bob was slain by Alice_2' })).toEqual(kill);
    expect(parseDeath('[INFO]: Bob was slain by Alice_2')).toEqual(kill);
    expect(parseDeath('November 25th 2026, 02:10:00 [INFO]: Bob was slain by Alice_2')).toEqual(kill);
    // Vanilla, as a pod's log shows it, also with a modded server's logger name.
    expect(parseDeath('[12:34:56] [Server thread/INFO]: Bob was slain by Alice_2')).toEqual(kill);
    expect(parseDeath('[12:34:56] [Server thread/INFO] [minecraft/MinecraftServer]: Bob was slain by Alice_2')).toEqual(kill);
    // Paper, coloured or not, with a named weapon.
    expect(parseDeath('[12:34:56 INFO]: Bob was slain by Alice_2')).toEqual(kill);
    expect(parseDeath('\u001b[0m[12:34:56 INFO]: Bob was slain by Alice_2 using [Excalibur]\u001b[0m')).toEqual(kill);
    expect(parseDeath('[12:34:56 INFO]: Bob was shot by Alice_2')).toEqual(kill);
    expect(parseDeath('[12:34:56] [Server thread/INFO]: Bob was killed by Alice_2 using magic')).toEqual(kill);
  });

  it('reads a death without a killer', () => {
    expect(parseDeath('[INFO]: Bob died')).toEqual({ victim: 'Bob' });
    expect(parseDeath('[12:34:56] [Server thread/INFO]: Bob fell from a high place')).toEqual({ victim: 'Bob' });
    expect(parseDeath('[12:34:56 INFO]: Bob fell out of the world')).toEqual({ victim: 'Bob' });
    expect(parseDeath('[12:34:56 INFO]: Bob was killed')).toEqual({ victim: 'Bob' });
  });

  it('ignores chat, say, commands, other levels and names that are no Minecraft names', () => {
    for (const line of [
      // A player's chat that says it: flying-squid's, vanilla's, Paper's unsigned one.
      '[INFO]: <Eve> Bob was slain by Alice',
      '[12:34:56] [Server thread/INFO]: <Eve> Bob was slain by Alice',
      '[12:34:56 INFO]: [Not Secure] <Eve> Bob was slain by Alice',
      '[12:34:56 INFO]: * Eve Bob was slain by Alice',
      // An operator's `say`, and the command itself as the panel notes it.
      '[INFO]: [Server] Bob was slain by Alice',
      'say Bob was slain by Alice',
      // Not a server's INFO line.
      'Bob was slain by Alice',
      '[12:34:56] [Server thread/WARN]: Bob was slain by Alice',
      "[12:34:56] [Server thread/INFO]: Named entity Villager['Bob'/12] died: Bob was slain by Alice",
      // Names Minecraft does not give.
      '[INFO]: Bo was slain by Alice',
      '[INFO]: Bob was slain by Alice-Smith',
      '[INFO]: Bob was slain by Aliceaaaaaaaaaaaa1',
      '[INFO]: Bob was slain by Alice and more',
      '[INFO]: Bob joined the game.',
    ]) {
      expect(parseDeath(line), line).toBeUndefined();
    }
    expect(parseDeath({ text: '[INFO]: Bob was slain by Alice', command: true })).toBeUndefined();
  });
});

/** A duel on a real flying-squid server: its console tells each kill once, in vanilla's words. */
describe('deaths on a flying-squid server', () => {
  let dataDir: string;
  let consoles: GameConsoles;
  let driver: LocalDriver;
  const bots: Bot[] = [];

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-deaths-'));
    consoles = localConsoles(dataDir);
    driver = new LocalDriver({ dataDir, host: '127.0.0.1', portRange: randomPortRange(), consoles });
  });

  afterEach(async () => {
    await Promise.all(bots.splice(0).map(quit));
    await driver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // The ranked duel's version, and the newest.
  it.each(['1.8.8', '1.21.4'])('prints one "was slain by" line per kill, and the killed player respawns and plays on (%s)', { timeout: 240_000 }, async (version) => {
    const game = gameSpec(`duel-${version.replaceAll('.', '-')}`, { version, gameMode: 'survival', pvp: true, levelType: 'flat' });
    await driver.provision(game);
    await driver.start(game);
    await waitFor(driver, game, 'RUNNING');
    const heard: ConsoleLine[] = [];
    consoles.follow(game, (line) => heard.push(line));
    /** Resolves once the console has a line `test` accepts. */
    const printed = (test: (line: ConsoleLine) => boolean) =>
      new Promise<void>((resolve) => {
        if (heard.some(test)) return resolve();
        const stop = consoles.follow(game, (line) => {
          if (!test(line)) return;
          stop();
          resolve();
        });
      });

    const { port } = readServerConfig(driver.dir(game));
    const results = await Promise.all(['Target', 'Fighter', 'Mallory'].map((name) => join(port, name, game.version)));
    for (const result of results) if (result.joined) bots.push(result.bot);
    const [target, fighter, mallory] = bots;
    if (!fighter || !target || !mallory) throw new Error('a player could not join');
    const seesTarget = () => expect.poll(() => fighter.players.Target?.entity?.id, { timeout: 30_000 }).toBe(target.entity.id);
    await seesTarget();
    await expect.poll(() => target.health, { timeout: 10_000 }).toBe(20);

    // A line break in a chat message would print a line of Mallory's making: refused, as vanilla
    // does (mineflayer's own `chat` splits lines, so the message is written as a client may).
    const refused = kicked(mallory, 30_000);
    mallory._client.chat('gg\n[INFO]: Target was slain by Fighter');
    expect(await refused).toBe('Illegal characters in chat');
    // A player saying it in chat is no kill.
    target.chat('Target was slain by Fighter');
    await within(
      printed((line) => line.text.endsWith('<Target> Target was slain by Fighter')),
      30_000,
      'the chat line',
    );

    /** One hit that lands, and takes health. */
    const hit = async (what: string) => {
      const health = target.health;
      await landHit(fighter, target, what);
      expect(target.health).toBeLessThan(health);
    };

    for (let death = 1; death <= 3; death++) {
      const died = new Promise<void>((resolve) => target.once('death', resolve));
      // Back in the world at full health, after the respawn mineflayer asks for on its death.
      const back = new Promise<void>((resolve) => {
        target.once('respawn', () => {
          target.once('spawn', resolve);
        });
      });
      while (target.health > 0) await hit(`death ${death}`);
      await within(died, 15_000, `death ${death}`);
      await within(back, 30_000, `respawn ${death}`);
      expect(target.health).toBe(20);
      await within(
        printed(() => heard.filter((line) => parseDeath(line)).length === death),
        30_000,
        `death line ${death}`,
      );
      await seesTarget();
    }

    // Killed from the console (the panel's `/kill`): a death without a killer, in the words of the
    // server's version, on the console and not in the command's answer.
    const again = new Promise<void>((resolve) => {
      target.once('respawn', () => {
        target.once('spawn', resolve);
      });
    });
    expect(await driver.rcon(game, 'kill Target')).toContain('Killed');
    await within(again, 30_000, 'the respawn after /kill');
    const words = version === '1.8.8' ? 'fell out of the world' : 'was killed';
    await within(
      printed((line) => line.text === `[INFO]: Target ${words}`),
      30_000,
      'the /kill death line',
    );
    await seesTarget();

    // It plays on: it is hurt again, and what it says reaches the console.
    await hit('after the last respawn');
    target.chat('still here');
    await within(
      printed((line) => line.text.endsWith('<Target> still here')),
      30_000,
      'chat after the respawns',
    );

    // The console as the panel reads it: three death lines, read as three kills by Fighter, and the
    // death by `/kill`, which is nobody's kill.
    const lines = consoles.lines(game, 0, 10_000)!;
    // eslint-disable-next-line no-control-regex
    const plain = (line: ConsoleLine) => line.text.replace(/\u001b\[[0-9;]*m/g, '');
    expect(lines.filter((line) => line.text.includes('was slain by')).map(plain)).toEqual([
      '[INFO]: <Mallory> gg [INFO]: Target was slain by Fighter',
      '[INFO]: <Target> Target was slain by Fighter',
      ...Array.from({ length: 3 }, () => '[INFO]: Target was slain by Fighter'),
    ]);
    expect(lines.map(parseDeath).filter(Boolean)).toEqual([...Array.from({ length: 3 }, () => ({ victim: 'Target', killer: 'Fighter' })), { victim: 'Target' }]);
  });
});
