import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgonesDriver } from './agones-driver.ts';
import { configFromEnv } from './minecraft/container.ts';
import { rconCommands } from './minecraft/probe.ts';
import { gameSpec, join, quit, randomPortRange } from '../../tests/fixtures/minecraft.ts';

/**
 * The game image's entry (deploy/game/Dockerfile) run as the `agones` driver would run it: with
 * the environment of the driver's own GameServer manifest, a Minecraft client joining it, the
 * sidecar's `mc-health`, RCON with the game's password, and the pod's SIGTERM.
 */
const PASSWORD = 'rcon-secret-of-the-game';

/** The `minecraft` container's environment in the driver's manifest for `game`, its secret resolved. */
function driverEnv(game: ReturnType<typeof gameSpec>): Record<string, string> {
  const driver = new AgonesDriver({ apiUrl: 'https://kubernetes.invalid', token: 'unused', namespace: 'games', image: 'registry.example.com/blockhost/game:1.0.0' });
  const manifest = driver.gameServerManifest(game);
  const container = manifest.spec.template.spec.containers.find((c) => c.name === 'minecraft')!;
  return Object.fromEntries((container.env as Array<{ name: string; value?: string; valueFrom?: { secretKeyRef: { key: string } } }>).map((e) => [e.name, e.value ?? (e.valueFrom ? PASSWORD : '')]));
}

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-game-image-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the game image', () => {
  it("reads the driver's environment as the server's settings", () => {
    const game = gameSpec('image-env', {
      motd: 'Castle',
      maxPlayers: 7,
      gameMode: 'survival',
      difficulty: 'hard',
      whitelistEnabled: true,
      pvp: false,
      viewDistance: 6,
      seed: '-42',
      levelType: 'flat',
      ramMb: 1024,
    });
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'server-icon.png'), Buffer.from('an icon'));
    expect(configFromEnv(driverEnv(game), dir)).toEqual({
      version: '1.21.4',
      port: 25565,
      rconPort: 25575,
      rconPassword: PASSWORD,
      motd: 'Castle',
      maxPlayers: 7,
      gameMode: 'survival',
      difficulty: 'hard',
      whitelistEnabled: true,
      pvp: false,
      viewDistance: 6,
      seed: '-42',
      levelType: 'flat',
      icon: Buffer.from('an icon').toString('base64'),
      heapMb: 768,
      ramMb: 1024,
    });
  });

  it('refuses an environment it cannot serve, saying which variable', () => {
    const env = driverEnv(gameSpec('image-bad'));
    expect(() => configFromEnv({ ...env, RCON_PASSWORD: '' }, tempDir())).toThrow('RCON_PASSWORD is required');
    expect(() => configFromEnv({ ...env, MODE: 'hardcore' }, tempDir())).toThrow('MODE=hardcore: expected one of survival, creative, adventure, spectator');
    expect(() => configFromEnv({ ...env, MEMORY: 'lots' }, tempDir())).toThrow('MEMORY=lots');
    expect(() => configFromEnv({ ...env, LEVEL_TYPE: 'amplified' }, tempDir())).toThrow('LEVEL_TYPE=amplified: expected one of normal, flat');
  });

  it('serves a player on the whitelist the lists container copied, answers mc-health and RCON, and saves the world on SIGTERM', async () => {
    const dir = tempDir();
    const { from } = randomPortRange();
    const env = { ...driverEnv(gameSpec('image-run', { whitelistEnabled: true })), SERVER_PORT: String(from), RCON_PORT: String(from + 1), MC_DATA_DIR: dir };
    fs.writeFileSync(path.join(dir, 'whitelist.json'), JSON.stringify([{ uuid: '00000000-0000-3000-8000-000000000001', name: 'Alex' }]));
    const health = () => spawnSync(process.execPath, ['src/runtime/minecraft/mc-health.ts'], { env: { ...process.env, ...env } }).status;
    expect(health()).toBe(1);

    const server = spawn(process.execPath, ['src/runtime/minecraft/container.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    server.stdout.on('data', (c: Buffer) => (output += c.toString()));
    server.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    try {
      const until = Date.now() + 90_000;
      while (health() !== 0) {
        if (server.exitCode !== null || Date.now() > until) throw new Error(`the server did not come up:\n${output}`);
        await new Promise((r) => setTimeout(r, 500));
      }
      const [list] = await rconCommands({ host: '127.0.0.1', port: from + 1, password: PASSWORD }, ['list']);
      expect(list).toMatch(/0 of a max of 5 players online/);
      const alex = await join(from, 'Alex', '1.21.4');
      expect(alex.joined).toBe(true);
      if (alex.joined) await quit(alex.bot);
      const steve = await join(from, 'Steve', '1.21.4');
      expect(steve.joined).toBe(false);
    } finally {
      server.kill('SIGTERM');
    }
    // flying-squid's own SIGTERM hook used to exit at once (143), before the world was saved.
    expect(await exited, output).toBe(0);
    expect(output).toContain('World saved');
    expect(fs.existsSync(path.join(dir, 'world', 'level.dat'))).toBe(true);
  }, 180_000);
});
