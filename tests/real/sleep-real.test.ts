import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import minecraftProtocol from 'minecraft-protocol';
import { describe, expect, it } from 'vitest';
import { useRealApp } from '../fixtures/real-app.ts';
import { join, reasonText } from '../fixtures/minecraft.ts';

const VERSION = '1.21.4';
const MINUTE = 60_000;

/**
 * A real server that sleeps when empty and wakes when a player joins through the game gateway
 * (docs/architecture.md, "Sleeping and waking"). The games' clock runs ahead on demand, so the
 * minutes without a player pass without waiting for them; everything else is real.
 */
describe('a game sleeping when empty and woken by a player, with a real server', () => {
  let ahead = 0;
  const real = useRealApp('sleep-real', { env: { GAME_GATEWAY_PORT: '0' }, clock: () => new Date(Date.now() + ahead) });
  const { as, bots } = real;

  const alice = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => as('alice', { method, url, ...(payload ? { payload } : {}) });

  async function ping(port: number, host: string): Promise<{ motd: string; version: string }> {
    const connect = (client: minecraftProtocol.Client) => client.setSocket(net.connect(port, '127.0.0.1'));
    const answer = await minecraftProtocol.ping({ host, port, version: VERSION, connect } as minecraftProtocol.PingOptions);
    return 'description' in answer ? { motd: reasonText(answer.description), version: answer.version.name } : { motd: '', version: '' };
  }

  it('sleeps with nobody on it, answers the list itself, stays asleep for a banned player and wakes for a whitelisted one', { timeout: 400_000 }, async () => {
    const offer = await real.definition(VERSION);
    const gameId = await real.buy('alice', { ...offer, name: 'Sleepy world', addressName: 'sleepy', settings: { motd: 'Sleepy by name' } });
    const status = async () => (await alice('GET', `/v1/game/${gameId}`)).json().status as string;
    expect((await alice('PUT', `/v1/game/${gameId}/settings`, { sleepAfterMinutes: 5 })).statusCode).toBe(200);
    for (const [name, type] of [
      ['Friend_1', 'WHITELIST'],
      ['Banned_1', 'BANNED'],
    ]) {
      const added = await alice('POST', `/v1/game/${gameId}/minecraft/player`, { name, type, action: 'ADD' });
      expect(added.statusCode, added.body).toBe(200);
    }
    expect((await alice('PUT', `/v1/game/${gameId}/minecraft/whitelist/status?enabled=true`)).statusCode).toBe(200);
    await expect.poll(() => real.app.services.gameGateway!.addressOf(gameId), { timeout: 10_000 }).toMatch(/^sleepy\.localhost:\d+$/);
    const gatewayPort = Number(real.app.services.gameGateway!.addressOf(gameId)!.split(':')[1]);

    expect((await alice('POST', `/v1/game/${gameId}/start`)).statusCode).toBe(200);
    await expect.poll(status, { timeout: 180_000, interval: 250 }).toBe('RUNNING');

    // Nobody joins: each look moves the games' clock a minute on, until the reconciler puts it to sleep.
    await expect
      .poll(
        async () => {
          const now = await status();
          if (now === 'RUNNING') ahead += MINUTE;
          return now;
        },
        { timeout: 180_000, interval: 500 },
      )
      .toBe('SLEEPING');
    const asleep = (await alice('GET', `/v1/game/${gameId}`)).json();
    expect(asleep).toMatchObject({ status: 'SLEEPING', desiredState: 'running', statusReason: null });
    const notices = (await alice('GET', '/v1/user/notifications?size=100')).json().data as Array<{ data: { key: string } }>;
    expect(notices.map((n) => n.data.key)).not.toContain('game.crashed');
    expect(notices.map((n) => n.data.key)).not.toContain('game.crashedStopped');

    // The list entry, from the gateway's memory: the game's own MOTD and version, and the sleeping line.
    const entry = await ping(gatewayPort, 'sleepy.localhost');
    expect(entry.motd).toContain('Sleepy by name');
    expect(entry.motd).toContain('En veille, se réveille quand vous rejoignez');
    expect(entry.motd).toContain('Asleep, wakes when you join');
    expect(entry.version).toBe(VERSION);

    // A banned player, and one not on the enforced whitelist, are refused without waking it.
    const banned = await join(gatewayPort, 'Banned_1', VERSION, 60_000, 'sleepy.localhost');
    expect(banned.joined).toBe(false);
    if (!banned.joined) expect(banned.reason).toContain('banni');
    const stranger = await join(gatewayPort, 'Stranger_1', VERSION, 60_000, 'sleepy.localhost');
    expect(stranger.joined).toBe(false);
    if (!stranger.joined) expect(stranger.reason).toContain('liste blanche');
    expect(await status()).toBe('SLEEPING');

    // A whitelisted player's login wakes it, held until the server runs: they spawn without reconnecting.
    const woken = await join(gatewayPort, 'Friend_1', VERSION, 240_000, 'sleepy.localhost', '127.0.0.5');
    if (!woken.joined) throw new Error(`refused: ${woken.reason}`);
    bots.push(woken.bot);
    expect(await status()).toBe('RUNNING');
    // The held login was handed to the server's process, which names the player's own address (a copy would be the gateway's).
    const log = () => stripVTControlCharacters(fs.readFileSync(path.join(real.driver.dir({ id: gameId }), 'logs', 'latest.log'), 'utf8'));
    await expect.poll(log, { timeout: 10_000 }).toMatch(/Friend_1 \((::ffff:)?127\.0\.0\.5\) connected/);
    expect((await alice('GET', `/v1/game/${gameId}/minecraft/players/connected`)).json()).toMatchObject({ playersOnline: 1, players: [{ name: 'Friend_1' }] });
  });
});
