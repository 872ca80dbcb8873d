import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Vec3 } from 'vec3';
import { describe, expect, it } from 'vitest';
import { keepChangesWhileSaving, type SavingWorld } from './world-saving.ts';

// flying-squid's own world libraries (CommonJS, untyped), resolved from where it finds them.
const squidRequire = createRequire(createRequire(import.meta.url).resolve('flying-squid'));
type Loader = (registry: unknown) => new (...args: unknown[]) => unknown;
const registry = (squidRequire('prismarine-registry') as (v: string) => { blocksByName: Record<string, { defaultState: number }> })('1.21.4');
const World = (squidRequire('prismarine-world') as Loader)(registry);
const Chunk = (squidRequire('prismarine-chunk') as Loader)(registry);
const { Anvil } = squidRequire('prismarine-provider-anvil') as { Anvil: Loader };

interface TestWorld extends SavingWorld {
  getColumn(x: number, z: number): Promise<unknown>;
  setBlockStateId(pos: Vec3, state: number): Promise<void>;
  getBlockStateId(pos: Vec3): Promise<number>;
}

describe('world saving', () => {
  it('writes a change made to a chunk while that chunk is being written', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-world-'));
    try {
      const gold = registry.blocksByName.gold_block!.defaultState;
      const pos = new Vec3(1, 10, 1);
      // No saving interval: the test drives the saves.
      const world = new World(() => new Chunk({ minY: -64, worldHeight: 384 }), new (Anvil(registry))(dir), 0) as TestWorld;
      keepChangesWhileSaving(world);
      await world.getColumn(0, 0);
      const saving = world.saveNow();
      await world.setBlockStateId(pos, gold);
      await saving;
      expect(world.savingQueue.has('0,0')).toBe(true);
      await world.saveNow();
      expect(world.savingQueue.size).toBe(0);

      const reread = new World(null, new (Anvil(registry))(dir), 0) as TestWorld;
      expect(await reread.getBlockStateId(pos)).toBe(gold);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
