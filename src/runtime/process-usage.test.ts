import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gameSpec, randomPortRange, waitFor } from '../../tests/fixtures/minecraft.ts';
import { LocalDriver } from './local-driver.ts';
import { ProcessUsage } from './process-usage.ts';

/** Resolves once `ms` passed: a CPU average is over time that has to pass between two readings. */
const elapse = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MB = 1024 * 1024;

describe('process usage', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('counts a child busy on a core in its parent’s CPU and memory, as a launcher running a jar', async () => {
    // The parent idles while its child spins; in a process group of their own, killed together.
    const script = "require('node:child_process').spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }); setInterval(() => {}, 1000);";
    const parent = spawn(process.execPath, ['-e', script], { stdio: 'ignore', detached: true });
    const killGroup = () => {
      try {
        process.kill(-parent.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    cleanups.push(killGroup);
    const usage = new ProcessUsage();
    await elapse(500);
    await usage.read(parent.pid!);
    await elapse(1500);
    const busy = await usage.read(parent.pid!);
    // One core spinning, on a machine other work may share: far above an idle process, not two cores.
    expect(busy!.cpuCores).toBeGreaterThan(0.3);
    expect(busy!.cpuCores).toBeLessThan(1.5);
    // Two Node processes.
    expect(busy!.memoryBytes).toBeGreaterThan(40 * MB);
    killGroup();
    await new Promise((resolve) => parent.once('exit', resolve));
    expect(await usage.read(parent.pid!)).toBeNull();
  });

  it('samples a real flying-squid server while it runs, and nothing once stopped', { timeout: 180_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-usage-'));
    const driver = new LocalDriver({ dataDir, host: '127.0.0.1', portRange: randomPortRange() });
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    cleanups.push(() => driver.close());
    const game = gameSpec('usage');
    expect(await driver.usage(game)).toBeNull();
    await driver.start(game);
    await waitFor(driver, game, 'RUNNING');
    // The first reading averages the server's life so far: its start generated chunks.
    const first = await driver.usage(game);
    expect(first!.cpuCores).toBeGreaterThan(0);
    expect(first!.memoryBytes).toBeGreaterThan(50 * MB);
    expect(first!.memoryBytes).toBeLessThan(4096 * MB);
    await elapse(1000);
    const next = await driver.usage(game);
    expect(next!.cpuCores).toBeGreaterThanOrEqual(0);
    expect(next!.memoryBytes).toBeGreaterThan(50 * MB);
    await driver.stop(game);
    expect(await driver.usage(game)).toBeNull();
  });
});
