import { describe, expect, it } from 'vitest';
import { parseList } from './probe.ts';
import { numericSeed, serverProperties, type ServerConfig } from './server-config.ts';

describe('server settings', () => {
  it('reads seeds as vanilla does, folded to what flying-squid takes', () => {
    expect(numericSeed('12345')).toBe(12345);
    expect(numericSeed('-12345')).toBe(12345);
    // Java: "abc".hashCode() == 96354
    expect(numericSeed('abc')).toBe(96354);
    expect(numericSeed('0')).toBe(1);
    expect(numericSeed('99999999999999999999')).toBeGreaterThan(0);
  });

  it('writes server.properties for a jar, RCON on', () => {
    const config: ServerConfig = {
      version: '1.21.4',
      port: 25565,
      rconPort: 25566,
      rconPassword: 's3cret',
      motd: 'Hello\\world',
      maxPlayers: 8,
      gameMode: 'creative',
      difficulty: 'hard',
      whitelistEnabled: true,
      levelType: 'flat',
      ramMb: 1024,
    };
    const props = serverProperties(config);
    expect(props).toContain('enable-rcon=true\nrcon.port=25566\nrcon.password=s3cret\n');
    expect(props).toContain('motd=Hello\\\\world\n');
    expect(props).toContain('white-list=true\n');
    expect(props).toContain('online-mode=false\n');
    // The game's mode is every player's, as on flying-squid; a flat world when the game asks for one.
    expect(props).toContain('gamemode=creative\nforce-gamemode=true\n');
    expect(props).toContain('level-type=flat\n');
  });

  it('reads the players out of vanilla list answers', () => {
    expect(parseList('There are 2 of a max of 20 players online: Alex, Steve')).toEqual({ online: 2, max: 20, players: ['Alex', 'Steve'] });
    expect(parseList('There are 0 of a max of 5 players online: ')).toEqual({ online: 0, max: 5, players: [] });
    // Paper and 1.12-era servers drop the "of".
    expect(parseList('There are 1 of a max 10 players online: Alex')).toEqual({ online: 1, max: 10, players: ['Alex'] });
    expect(parseList('Unknown command')).toBeNull();
  });
});
