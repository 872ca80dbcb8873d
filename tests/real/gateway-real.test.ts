import net from 'node:net';
import minecraftProtocol from 'minecraft-protocol';
import { describe, expect, it } from 'vitest';
import { useRealApp } from '../fixtures/real-app.ts';
import { join, reasonText } from '../fixtures/minecraft.ts';

const VERSION = '1.21.4';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The game gateway inside the API (GAME_GATEWAY_PORT, here any free port): a game's address name
 * leads a real Minecraft client to its real server, the game page shows that address with the
 * direct one beside it, and a rename is followed at once, from the database's notice.
 */
describe('the game gateway in the API, with a real server', () => {
  const real = useRealApp('gateway-real', { env: { GAME_GATEWAY_PORT: '0' } });
  const { as, bots } = real;

  const alice = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => as('alice', { method, url, ...(payload ? { payload } : {}) });

  async function ping(port: number, host: string): Promise<string> {
    const connect = (client: minecraftProtocol.Client) => client.setSocket(net.connect(port, '127.0.0.1'));
    const answer = await minecraftProtocol.ping({ host, port, version: VERSION, connect } as minecraftProtocol.PingOptions);
    return 'description' in answer ? reasonText(answer.description) : '';
  }

  it('leads a player by the game’s name to its server, shows the address, and follows a rename', { timeout: 180_000 }, async () => {
    const offer = await real.definition(VERSION);
    const gameId = await real.buy('alice', { ...offer, name: 'Gateway world', addressName: 'alice-world', settings: { motd: 'Alice by name' } });
    // Known to the gateway once the database's notice of the new name is heard.
    await expect.poll(() => real.app.services.gameGateway!.addressOf(gameId), { timeout: 10_000 }).toMatch(/^alice-world\.localhost:\d+$/);
    const gatewayPort = Number(real.app.services.gameGateway!.addressOf(gameId)!.split(':')[1]);

    // Stopped: the name is known, and the list says the server is stopped.
    await expect.poll(() => ping(gatewayPort, 'alice-world.localhost'), { timeout: 10_000 }).toContain('est arrêté');
    expect(await ping(gatewayPort, 'nobody.localhost')).toContain("n'existe pas");

    expect((await alice('POST', `/v1/game/${gameId}/start`)).statusCode).toBe(200);
    let status: { status: string; address: string | null; directAddress?: string } = { status: '', address: null };
    const until = Date.now() + 120_000;
    while (Date.now() < until && !status.address) {
      status = (await alice('GET', `/v1/game/${gameId}/status`)).json();
      if (!status.address) await sleep(250);
    }
    expect(status).toMatchObject({ status: 'RUNNING', address: `alice-world.localhost:${gatewayPort}`, directAddress: expect.stringMatching(/^127\.0\.0\.1:\d+$/) });
    // Friends told the server is open get the same address.
    expect((await alice('POST', `/v1/game/${gameId}/announce`)).json()).toMatchObject({ address: `alice-world.localhost:${gatewayPort}` });

    expect(await ping(gatewayPort, 'alice-world.localhost')).toBe('Alice by name');
    const result = await join(gatewayPort, 'ByName', VERSION, 60_000, 'alice-world.localhost');
    if (!result.joined) throw new Error(`refused: ${result.reason}`);
    bots.push(result.bot);
    expect((await alice('GET', `/v1/game/${gameId}/minecraft/players/connected`)).json()).toMatchObject({ playersOnline: 1, players: [{ name: 'ByName' }] });

    // A rename: the new name leads there as soon as the database's notice is heard, the old one nowhere.
    expect((await alice('PUT', `/v1/game/${gameId}/address-name`, { addressName: 'alice-new' })).statusCode).toBe(200);
    await expect.poll(() => ping(gatewayPort, 'alice-new.localhost'), { timeout: 10_000 }).toBe('Alice by name');
    expect(await ping(gatewayPort, 'alice-world.localhost')).toContain("n'existe pas");
    expect((await alice('GET', `/v1/game/${gameId}/status`)).json().address).toBe(`alice-new.localhost:${gatewayPort}`);
  });
});
