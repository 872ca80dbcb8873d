import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { isSupportedVersion, minecraftVersions } from './games.ts';

describe('Minecraft versions', () => {
  it.each(['1.8.8', '1.8.9', '1.12.2', '1.20.4', '1.21', '1.21.4'])('%s is served', (v) => expect(isSupportedVersion(v)).toBe(true));
  it.each(['1.7.10', '1.8', '1.8.7', '1.9.5', '1.20.7', '1.21.0', '1.21.5', '1.22'])('%s is not', (v) => expect(isSupportedVersion(v)).toBe(false));

  // The list is written out because the web app shows it and cannot load minecraft-data; this keeps it
  // to what the local driver's flying-squid serves: every release minecraft-data lists from its oldest to its latest.
  it('are the releases flying-squid serves', () => {
    const require = createRequire(import.meta.url);
    const { versions } = require('minecraft-data') as { versions: { pc: Array<{ minecraftVersion: string; releaseType?: string }> } };
    const { oldestSupportedVersion, latestSupportedVersion } = require('flying-squid/src/lib/version.js') as Record<string, string>;
    // Newest first, snapshots and pre-releases among them.
    const names = versions.pc.filter((v) => (v.releaseType ?? 'release') === 'release' && /^\d+\.\d+(\.\d+)?$/.test(v.minecraftVersion)).map((v) => v.minecraftVersion);
    const served = names.slice(names.indexOf(latestSupportedVersion!), names.indexOf(oldestSupportedVersion!) + 1).reverse();
    expect(served.length).toBeGreaterThan(1);
    expect([...minecraftVersions]).toEqual(served);
  });
});
