import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { plainJs } from './plain-js.ts';

const launcher = fileURLToPath(new URL('./minecraft/launcher.ts', import.meta.url));
const worldTool = fileURLToPath(new URL('./minecraft/world-tool.ts', import.meta.url));

describe('the launcher as plain JavaScript', () => {
  it('runs, with everything it imports, in a Node that cannot load TypeScript', () => {
    const entry = plainJs(launcher);
    expect(entry).toMatch(/\.js$/);
    // Without a game folder the launcher prints its usage and exits 2: it got that far, so every
    // module it imports loaded; a `.ts` one left would fail with ERR_UNKNOWN_FILE_EXTENSION.
    const run = spawnSync(process.execPath, ['--no-experimental-strip-types', entry], { encoding: 'utf8' });
    expect(run.stderr).toContain('usage: node launcher.ts <gameDir>');
    expect(run.status).toBe(2);
  });
});

describe('the world tool as plain JavaScript', () => {
  it('runs, with everything it imports, in a Node that cannot load TypeScript', () => {
    const entry = plainJs(worldTool);
    expect(entry).toMatch(/\.js$/);
    // Without a command the tool answers its usage as a failure: every module it imports loaded.
    const run = spawnSync(process.execPath, ['--no-experimental-strip-types', entry], { encoding: 'utf8' });
    expect(JSON.parse(run.stdout)).toMatchObject({ error: 'failed', detail: expect.stringContaining('usage: node world-tool.ts') });
    expect(run.status).toBe(1);
  });
});
