import { describe, expect, it } from 'vitest';
import { isSupportedVersion } from './games.ts';

describe('Minecraft versions', () => {
  it.each(['1.8.8', '1.8.9', '1.12.2', '1.20.4', '1.21', '1.21.4'])('%s is served', (v) => expect(isSupportedVersion(v)).toBe(true));
  it.each(['1.7.10', '1.8', '1.8.7', '1.9.5', '1.20.7', '1.21.0', '1.21.5', '1.22'])('%s is not', (v) => expect(isSupportedVersion(v)).toBe(false));
});
