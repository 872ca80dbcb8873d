import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pingServer } from './minecraft/probe.ts';
import { randomPortRange } from '../../tests/fixtures/minecraft.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'squid-ready-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * A flying-squid server in a process of its own, on a machine where its plugins and socket are never
 * ready within flying-squid's own 5 s: those timers run out at once, before anything could be
 * ready, which is what a busy machine did to servers starting while others generated their worlds. `guarded` starts it as the launcher does.
 */
async function startSlowly(guarded: boolean, port: number): Promise<{ code: number | null; output: string; pinged: boolean }> {
  const script = path.join(dir, `start-${guarded ? 'guarded' : 'bare'}.ts`);
  fs.writeFileSync(
    script,
    `import { createRequire } from 'node:module';
import { readyInItsOwnTime } from ${JSON.stringify(path.join(import.meta.dirname, 'minecraft', 'squid-ready.ts'))};
const realSetTimeout = globalThis.setTimeout;
globalThis.setTimeout = ((fn, ms, ...args) => (ms === 5000 ? (fn(...args), realSetTimeout(() => {}, 0)) : realSetTimeout(fn, ms, ...args)));
const { createMCServer } = createRequire(${JSON.stringify(import.meta.filename)})('flying-squid');
const options = { port: ${port}, version: '1.21.4', motd: 'slow', 'max-players': 2, 'online-mode': false, logging: false,
  generation: { name: 'superflat', options: {} }, kickTimeout: 10000, plugins: {}, modpe: false, 'view-distance': 2,
  'everybody-op': false, 'max-entities': 10 };
const serv = ${guarded ? 'readyInItsOwnTime(() => createMCServer(options))' : 'createMCServer(options)'};
serv.waitForReady(60000).then(() => console.log('READY'), (err) => { console.log('NOT READY', err.message); process.exit(3); });
`,
  );
  const child = spawn(process.execPath, [script], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve) => child.stdout.on('data', () => output.includes('READY') && !output.includes('NOT READY') && resolve()));
  const first = await Promise.race([exited.then((code) => ({ code })), ready.then(() => null)]);
  if (first) return { code: first.code, output, pinged: false };
  const status = await pingServer('127.0.0.1', port, 10_000);
  child.kill('SIGKILL');
  await exited;
  return { code: null, output, pinged: status.motd === 'slow' };
}

describe('a flying-squid server on a busy machine', () => {
  it('ends at once when its plugins take more than 5 s, as flying-squid alone does', { timeout: 90_000 }, async () => {
    const { code, output } = await startSlowly(false, randomPortRange().from);
    expect(code).not.toBe(0);
    expect(output).toContain("Timeout waiting for 'pluginsReady' event");
  });

  it('comes up and answers a ping however long its plugins take, when started as the launcher starts it', { timeout: 90_000 }, async () => {
    const { code, output, pinged } = await startSlowly(true, randomPortRange().from);
    expect(code, output).toBeNull();
    expect(pinged).toBe(true);
  });
});
