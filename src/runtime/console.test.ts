import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Bot } from 'mineflayer';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gameSpec, join, quit, randomPortRange, waitFor } from '../../tests/fixtures/minecraft.ts';
import { classify, ConsoleLog, consoleFile } from './console-log.ts';
import { GameConsoles } from './consoles.ts';
import { lineSplitter } from './lines.ts';
import type { ConsoleLine } from './console-log.ts';
import { LocalDriver, localConsoles } from './local-driver.ts';
import { legacyColours } from './minecraft/admin-plugin.ts';

describe('ConsoleLog', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-console-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('numbers lines, hands them to followers, and keeps the last ones in the file across a reopening', () => {
    const file = path.join(dir, consoleFile);
    const log = new ConsoleLog(file, { keep: 10, perSecond: 1000 });
    expect(log.started).toBe(false);
    const heard: number[] = [];
    const stop = log.follow((line) => heard.push(line.seq));
    for (let i = 1; i <= 25; i++) log.write('info', `line ${i}`);
    stop();
    log.write('warn', 'unheard');
    log.flush();
    expect(heard).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(log.after(20).map((l) => l.text)).toEqual(['line 21', 'line 22', 'line 23', 'line 24', 'line 25', 'unheard']);
    // Only the last 10 are kept, and the file never holds more than twice that.
    expect(log.after(0).map((l) => l.seq)).toEqual([17, 18, 19, 20, 21, 22, 23, 24, 25, 26]);
    expect(fs.readFileSync(file, 'utf8').trim().split('\n').length).toBeLessThanOrEqual(20);

    const again = new ConsoleLog(file, { keep: 10 });
    expect(again.started).toBe(true);
    expect(again.after(24)).toEqual(log.after(24));
    again.write('info', 'after the restart');
    expect(again.after(26)).toMatchObject([{ seq: 27, level: 'info', text: 'after the restart' }]);
  });

  it('collapses a flood beyond its rate into one marker a second, said even if the server falls silent', async () => {
    let now = 1_000_000;
    const log = new ConsoleLog(path.join(dir, consoleFile), { perSecond: 5, burst: 5, clock: () => now });
    for (let i = 0; i < 50; i++) log.write('info', `flood ${i}`);
    now += 1000;
    log.write('info', 'next second');
    expect(log.after(0).map((l) => [l.text, l.omitted])).toEqual([...Array.from({ length: 5 }, (_, i) => [`flood ${i}`, undefined]), ['45 lines omitted', 45], ['next second', undefined]]);
    for (let i = 0; i < 8; i++) log.write('info', `more ${i}`);
    await new Promise<void>((resolve) => log.follow((line) => line.omitted && resolve()));
    expect(log.after(0).at(-1)).toMatchObject({ level: 'warn', text: '4 lines omitted', omitted: 4 });
  });

  it('counts commands run from the panel and their answers toward the flood, without ending its marker', () => {
    let now = 1_000_000;
    const consoles = new GameConsoles(() => dir, { perSecond: 5, burst: 5, clock: () => now });
    const game = { id: 'flooded' };
    const log = consoles.of(game);
    for (let i = 0; i < 20; i++) log.write('info', `flood ${i}`);
    // Commands typed while the server floods: each echo and answer is one more line of the flood.
    for (let i = 0; i < 10; i++) {
      consoles.note(game, [{ level: 'info', text: `say ${i}`, command: true }]);
      consoles.note(game, [{ level: 'info', text: `[Server] ${i}` }]);
      log.write('info', `flood after ${i}`);
    }
    now += 1000;
    log.write('info', 'next second');
    expect(log.after(0).map((l) => [l.text, l.omitted])).toEqual([...Array.from({ length: 5 }, (_, i) => [`flood ${i}`, undefined]), ['45 lines omitted', 45], ['next second', undefined]]);
    // Once the bucket has room again, a command is kept as such.
    now += 1000;
    consoles.note(game, [{ level: 'info', text: 'list', command: true }]);
    expect(log.last).toMatchObject({ text: 'list', command: true });
  });

  it('splits chunks into lines, reads levels and drops flying-squid’s time stamp', () => {
    const lines: string[] = [];
    const split = lineSplitter((l) => lines.push(l), 10);
    split.push('one\r\ntw');
    split.push('o\nabcdefghijklmno');
    split.end();
    expect(lines).toEqual(['one', 'two', 'abcdefghij', 'klmno']);
    expect(classify('November 25th 2026, 02:10:00 [\u001b[33mWARN\u001b[39m]: slow', 'stdout')).toEqual({ level: 'warn', text: '[\u001b[33mWARN\u001b[39m]: slow' });
    expect(classify('[12:00:00] [Server thread/ERROR]: boom', 'stdout').level).toBe('error');
    // flying-squid's readline moves the cursor and prints its prompt before a line.
    expect(classify('\u001b[1G> November 25th 2026, 02:40:02 [INFO]: World seed: 1', 'stdout')).toEqual({ level: 'info', text: '[INFO]: World seed: 1' });
    expect(classify('[INFO]: fine', 'stderr').level).toBe('info');
    expect(classify('TypeError: x is undefined', 'stderr').level).toBe('error');
    expect(legacyColours('&eAlex joined the game. &&1')).toBe('§eAlex joined the game. &1');
  });
});

/** A real flying-squid server's console, through the local driver. */
describe('LocalDriver console', () => {
  let dataDir: string;
  let driver: LocalDriver;
  /** The runtime's consoles the driver writes into. */
  let consoles: GameConsoles;
  const bots: Bot[] = [];

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-console-runtime-'));
    consoles = localConsoles(dataDir);
    driver = new LocalDriver({ dataDir, host: 'play.example.test', portRange: randomPortRange(), consoles });
  });
  afterEach(async () => {
    await Promise.all(bots.splice(0).map(quit));
    await driver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the server’s output, joins and command answers, across a restart of the API', async () => {
    const game = gameSpec('console');
    expect(consoles.lines(game, 0, 100)).toBeNull();
    const heard: ConsoleLine[] = [];
    consoles.follow(game, (line) => heard.push(line));
    await driver.start(game);
    const running = await waitFor(driver, game, 'RUNNING');
    const port = Number(running.address!.split(':')[1]);

    const result = await join(port, 'Watcher', game.version);
    if (!result.joined) throw new Error(result.reason);
    bots.push(result.bot);
    // flying-squid's own commands answer over RCON, and the player's chat arrives coloured.
    const chat = new Promise<{ text: string; ansi: string }>((resolve) =>
      result.bot.on('message', (message) => {
        if (message.toString().startsWith('[Server]')) resolve({ text: message.toString(), ansi: message.toAnsi() });
      }),
    );
    const answer = await driver.rcon(game, 'time set day');
    expect(answer).toMatch(/^Time was changed from \d+ to 1000$/);
    // The platform notes a command run from the panel and its answer; the server does not print them.
    consoles.note(game, [
      { level: 'info', text: 'time set day', command: true },
      { level: 'info', text: answer },
    ]);
    expect(await driver.rcon(game, 'setblock 0 60 0 stone')).toBe('');
    expect(await driver.rcon(game, 'nosuchcommand')).toBe('Unknown or incomplete command, see below for error');
    expect(await driver.rcon(game, 'say &ehello')).toBe('');
    // Yellow, not "&e" as text.
    expect(await chat).toMatchObject({ text: '[Server] hello', ansi: expect.stringContaining('\u001b[93m') });

    // A player's chat is in the console once.
    result.bot.chat('hello from Watcher');
    await expect.poll(() => heard.filter((l) => l.text.includes('hello from Watcher')).length).toBeGreaterThan(0);
    await driver.rcon(game, 'list');
    await driver.stop(game);
    expect(heard.filter((l) => l.text.includes('hello from Watcher')).map((l) => l.text)).toHaveLength(1);
    const texts = () => heard.map((l) => l.text);
    expect(texts()[0]).toBe('Starting the server (Minecraft 1.21.4)');
    expect(texts()).toContainEqual(expect.stringContaining('&eWatcher joined the game.'));
    expect(heard.filter((l) => l.text.includes('Time was changed from') || l.command).map(({ text, command }) => ({ text, command }))).toEqual([
      { text: 'time set day', command: true },
      { text: answer, command: undefined },
    ]);
    expect(texts()).toContainEqual(expect.stringContaining('[Server] &ehello'));
    expect(texts().at(-1)).toBe('The server stopped');
    // flying-squid names the world's folder: relative to the game's, never where it is on the host.
    expect(texts()).toContainEqual(expect.stringContaining('./world'));
    expect(texts().filter((text) => text.includes(dataDir))).toEqual([]);
    expect(heard.map((l) => l.seq)).toEqual(heard.map((_, i) => i + 1));

    // Another API process reads the same history from the game's folder.
    const other = localConsoles(dataDir);
    await new Promise((r) => setImmediate(r));
    expect(other.lines(game, 0, 10_000)).toEqual(heard);
    expect(other.lines(game, heard.length - 1, 10)).toEqual([heard.at(-1)]);
  });

  it('says why a server crashed after the fact', async () => {
    const game = gameSpec('console-crash');
    await driver.start(game);
    await waitFor(driver, game, 'RUNNING');
    process.kill(driver.pid(game)!, 'SIGKILL');
    await waitFor(driver, game, 'CRASHED');
    const lines = consoles.lines(game, 0, 10_000);
    expect(lines!.at(-1)).toMatchObject({ level: 'error', text: 'The server crashed: killed by signal SIGKILL' });
  });
});
