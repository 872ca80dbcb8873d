import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gameSpec, randomPortRange, waitFor } from '../../tests/fixtures/minecraft.ts';
import { treeHash, writeBigWorld } from '../../tests/fixtures/big-worlds.ts';
import { LocalDriver } from './local-driver.ts';
import { archiveWorld, checkWorld, recoverWorld } from './minecraft/world-archive.ts';

/**
 * World backups and restores killed with SIGKILL half way, with real processes: the launcher of a
 * running server, and the world tool of a stopped one. Whatever the moment, no half zip is ever
 * published and the world is the old one or the new one, never a mix.
 */
describe('world backups killed half way', () => {
  let dataDir: string;
  let driver: LocalDriver;
  let tools: ChildProcess[];
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const at = (name: string) => ({ kind: 'file' as const, path: path.join(dataDir, 'store', name) });
  /** Our temporary zips and staging folders in a game folder. */
  const leftovers = (dir: string) => fs.readdirSync(dir).filter((f) => f.startsWith('.world-backup-') || f.startsWith('world.'));
  const storeFiles = () => (fs.existsSync(path.join(dataDir, 'store')) ? fs.readdirSync(path.join(dataDir, 'store')) : []);

  /** Resolves once a temporary zip of ours in `dir` holds bytes: a snapshot is under way. */
  async function zipping(dir: string, timeoutMs = 30_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const tmp = fs.readdirSync(dir).find((f) => f.startsWith('.world-backup-'));
      if (tmp && fs.statSync(path.join(dir, tmp), { throwIfNoEntry: false })?.size) return;
      await sleep(5);
    }
    throw new Error(`no snapshot started in ${dir} within ${timeoutMs} ms`);
  }

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-crash-'));
    tools = [];
    driver = new LocalDriver({ dataDir, host: '127.0.0.1', portRange: randomPortRange(), onWorldTool: (tool) => tools.push(tool) });
  });

  afterEach(async () => {
    await driver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a running server killed during its snapshot publishes nothing, keeps its world and starts again', async () => {
    const game = gameSpec('killed-live');
    const dir = driver.dir(game);
    await driver.start(game);
    await waitFor(driver, game, 'RUNNING');
    // Far regions the server never loads, so the zip takes seconds.
    writeBigWorld(path.join(dir, 'world'), 120);

    const backup = driver.backup(game, at('live.zip'));
    backup.catch(() => {});
    await zipping(dir);
    process.kill(driver.pid(game)!, 'SIGKILL');
    await expect(backup).rejects.toThrow('backup of game killed-live failed: the server exited');
    await waitFor(driver, game, 'CRASHED', 10_000);
    expect(storeFiles()).toEqual([]);
    await checkWorld(path.join(dir, 'world'));

    // The next launch removes the half zip and serves the world; snapshots work again.
    await driver.start(game);
    await waitFor(driver, game, 'RUNNING');
    expect(leftovers(dir)).toEqual([]);
    const again = await driver.backup(game, at('again.zip'));
    expect(again.sizeBytes).toBe(fs.statSync(at('again.zip').path).size);
    expect(storeFiles()).toEqual(['again.zip']);
  }, 240_000);

  it('a stopped server whose world tool is killed during a snapshot publishes nothing', async () => {
    const game = gameSpec('killed-archive');
    const dir = driver.dir(game);
    await driver.provision(game);
    writeBigWorld(path.join(dir, 'world'), 60);
    const before = treeHash(path.join(dir, 'world'));

    for (const delay of [null, 30, 120, 300]) {
      // Killed once it is zipping, or a given time after its spawn (maybe before it began).
      const backup = driver.backup(game, at('cold.zip'));
      backup.catch(() => {});
      if (delay === null) await zipping(dir);
      else await sleep(delay);
      tools.at(-1)!.kill('SIGKILL');
      await expect(backup).rejects.toThrow('world archive of game killed-archive failed: killed by signal SIGKILL');
      expect(storeFiles()).toEqual([]);
    }
    expect(treeHash(path.join(dir, 'world'))).toBe(before);

    // The next run of the tool removes what the killed ones left.
    const done = await driver.backup(game, at('cold.zip'));
    expect(done.sizeBytes).toBe(fs.statSync(at('cold.zip').path).size);
    expect(storeFiles()).toEqual(['cold.zip']);
    expect(leftovers(dir)).toEqual([]);
  }, 120_000);

  it('a restore killed at any moment leaves the old world or the new one, never a mix', async () => {
    const game = gameSpec('killed-restore');
    const dir = driver.dir(game);
    const world = path.join(dir, 'world');
    await driver.provision(game);
    writeBigWorld(world, 25, 'old');
    const other = path.join(dataDir, 'other');
    writeBigWorld(other, 25, 'new');
    const hashes = { old: treeHash(world), new: treeHash(other) };
    fs.mkdirSync(path.join(dataDir, 'store'));
    await archiveWorld(world, at('old.zip').path, 'world');
    await archiveWorld(other, at('new.zip').path, 'world');
    const current = () => {
      const hash = treeHash(world);
      return hash === hashes.old ? 'old' : hash === hashes.new ? 'new' : 'a mix';
    };

    // How long a whole restore takes here, to kill it at moments spread over it.
    const t0 = performance.now();
    await driver.restore(game, at('new.zip'), 1e10);
    await driver.restore(game, at('old.zip'), 1e10);
    const full = (performance.now() - t0) / 2;
    expect(current()).toBe('old');

    /** Resolves once the game folder shows the phase: its zip fetched, its staging folder, or the swap. */
    const phase = async (prefix: string, run: Promise<unknown>) => {
      let settled = false;
      run.then(
        () => (settled = true),
        () => (settled = true),
      );
      while (!settled && !fs.readdirSync(dir).some((f) => f.startsWith(prefix))) await sleep(1);
    };
    const outcomes: string[] = [];
    // Moments after the spawn, spread over a whole run and beyond (a loaded machine is uneven),
    // and the moments each phase begins: fetched, unpacking, swapping.
    const moments: Array<number | string> = [50, 150, 400, ...[0.3, 0.5, 0.7, 0.9, 1, 1.1, 1.3].map((f) => Math.round(full * f)), '.world-backup-', 'world.staging-', 'world.previous'];
    for (const moment of moments) {
      const from = current();
      const to = from === 'old' ? 'new' : 'old';
      const restore = driver.restore(game, at(`${to}.zip`), 1e10);
      restore.catch(() => {});
      await (typeof moment === 'number' ? sleep(moment) : phase(moment, restore));
      const tool = tools.at(-1)!;
      const killed = tool.exitCode === null && tool.signalCode === null && tool.kill('SIGKILL');
      const failed = await restore.then(
        () => false,
        (err: Error) => (expect(err.message).toContain('killed by signal SIGKILL'), true),
      );
      // What the next tool or launcher run does first.
      recoverWorld(dir);
      const now = current();
      outcomes.push(`${typeof moment === 'number' ? `${moment} ms` : moment}: ${killed ? 'killed' : 'done'} → ${now === from ? 'old' : now === to ? 'new' : now}`);
      expect(now === from || now === to, outcomes.join('; ')).toBe(true);
      if (!failed) expect(now).toBe(to);
      expect(leftovers(dir)).toEqual([]);
      await checkWorld(world);
    }
    console.log(`restore of ${Math.round(full)} ms killed at ${outcomes.join('; ')}`);
    expect(outcomes.some((o) => o.includes('killed'))).toBe(true);

    // Killed between the two renames of the swap: only world.previous is left. The next snapshot
    // or restore of the stopped world puts it back first, as a launch does.
    const before = current();
    fs.renameSync(world, path.join(dir, 'world.previous'));
    const snapshot = await driver.backup(game, at('after.zip'));
    expect(snapshot.sizeBytes).toBe(fs.statSync(at('after.zip').path).size);
    expect(current()).toBe(before);
    expect(leftovers(dir)).toEqual([]);
  }, 180_000);
});
