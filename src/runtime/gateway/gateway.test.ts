import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import minecraftProtocol from 'minecraft-protocol';
import type { Bot } from 'mineflayer';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { gameSpec, join, kicked, quit, randomPortRange, reasonText, waitFor } from '../../../tests/fixtures/minecraft.ts';
import { PIECE, readIndexed, sendIndexed } from '../../../tests/fixtures/indexed-stream.ts';
import { LocalDriver } from '../local-driver.ts';
import { readServerConfig } from '../minecraft/server-config.ts';
import { createGateway, type Gateway, type Target } from './gateway.ts';

/**
 * The game gateway in front of two real flying-squid servers, with real Minecraft clients
 * (mineflayer) that say which host they typed, as a player's client does, with no DNS involved.
 */
describe('the game gateway', () => {
  const VERSION = '1.21.4';
  let dataDir: string;
  let driver: LocalDriver;
  const alpha = gameSpec('alpha', { motd: 'Alpha world', levelType: 'flat' });
  const beta = gameSpec('beta', { motd: 'Beta world', levelType: 'flat' });
  const routes = new Map<string, Target>();
  let gateway: Gateway;
  let port: number;
  const bots: Bot[] = [];

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-gateway-'));
    driver = new LocalDriver({ dataDir, host: '127.0.0.1', portRange: randomPortRange() });
    await Promise.all([driver.start(alpha), driver.start(beta)]);
    await Promise.all([waitFor(driver, alpha, 'RUNNING'), waitFor(driver, beta, 'RUNNING')]);
    routes.set('alpha.localhost', { host: '127.0.0.1', port: readServerConfig(driver.dir(alpha)).port });
    routes.set('beta.localhost', { host: '127.0.0.1', port: readServerConfig(driver.dir(beta)).port });
    // A name whose server is gone: nothing listens on the port it leads to.
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    routes.set('gone.localhost', { host: '127.0.0.1', port: (closed.address() as net.AddressInfo).port });
    await new Promise((resolve) => closed.close(resolve));
  }, 180_000);

  afterAll(async () => {
    await driver?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function openGateway(handshakeTimeoutMs?: number): Promise<void> {
    gateway = createGateway({ route: ({ host }) => routes.get(host) ?? null, ...(handshakeTimeoutMs ? { handshakeTimeoutMs } : {}) });
    port = await gateway.listen(0, '127.0.0.1');
  }

  afterEach(async () => {
    await Promise.all(bots.splice(0).map(quit));
    await gateway?.close();
  });

  async function joined(name: string, host: string, localAddress?: string): Promise<Bot> {
    const result = await join(port, name, VERSION, 60_000, host, localAddress);
    if (!result.joined) throw new Error(`${name} was refused: ${result.reason}`);
    bots.push(result.bot);
    return result.bot;
  }

  /** A status ping through the gateway, as the server list sends it for `host` (from `localAddress`, a loopback one). */
  async function ping(host: string, localAddress = '127.0.0.1'): Promise<{ motd: string; version: string }> {
    // Connected by hand, as no DNS knows these names (the library's `stream` option would say connected twice).
    const connect = (client: minecraftProtocol.Client) => client.setSocket(net.connect({ port, host: '127.0.0.1', localAddress }));
    const answer = await minecraftProtocol.ping({ host, port, version: VERSION, connect } as minecraftProtocol.PingOptions);
    if (!('description' in answer)) throw new Error('a pre-1.7 answer');
    return { motd: reasonText(answer.description), version: answer.version.name };
  }

  it('takes each player to the server of the name they typed, on one port', async () => {
    await openGateway();
    await joined('AlphaPlayer', 'alpha.localhost');
    // Forge's marker and a fully qualified name's trailing dot, in capitals: the same server.
    await joined('BetaPlayer', 'Beta.Localhost.\0FML3\0');

    expect(await driver.rcon(alpha, 'list')).toBe('There are 1 of a max of 5 players online: AlphaPlayer');
    expect(await driver.rcon(beta, 'list')).toBe('There are 1 of a max of 5 players online: BetaPlayer');

    expect(await ping('alpha.localhost')).toMatchObject({ motd: 'Alpha world', version: VERSION });
    expect(await ping('beta.localhost')).toMatchObject({ motd: 'Beta world', version: VERSION });

    // Leaving closes both sides.
    await Promise.all(bots.splice(0).map(quit));
    await expect.poll(() => gateway.openSockets(), { timeout: 10_000 }).toBe(0);
  });

  it('hands a player to its local server’s own process, which sees the player’s address, and copies when a target refuses', async () => {
    const handing = await driver.gatewayTarget(alpha);
    expect(handing?.handOff).toBeTypeOf('function');
    // Beta's target refuses every hand-off: its connections are copied, as a gateway process's are.
    const refusing: Target = { ...(await driver.gatewayTarget(beta))!, handOff: async () => false };
    gateway = createGateway({ route: ({ host }) => (host === 'alpha.localhost' ? handing : host === 'beta.localhost' ? refusing : null) });
    port = await gateway.listen(0, '127.0.0.1');
    // The server's console, its colours taken out; its lines reach the file through this process, a moment after they are printed.
    const log = (game: typeof alpha) => stripVTControlCharacters(fs.readFileSync(path.join(driver.dir(game), 'logs', 'latest.log'), 'utf8'));

    const handed = await joined('HandedIn', 'alpha.localhost', '127.0.0.7');
    // The player's own socket is the server's: nothing of it is left in the gateway, and the
    // server names the player's address, not the gateway's.
    expect(gateway.openSockets()).toBe(0);
    await expect.poll(() => log(alpha), { timeout: 10_000 }).toMatch(/HandedIn \((::ffff:)?127\.0\.0\.7\) connected/);
    expect(await driver.rcon(alpha, 'list')).toContain('HandedIn');
    // The world arrives whole (the server's own bulk), and the server's kick reaches the player.
    await handed.waitForChunksToLoad();
    // A status ping is handed too, and answered by the server.
    expect(await ping('alpha.localhost')).toMatchObject({ motd: 'Alpha world', version: VERSION });
    expect(gateway.openSockets()).toBe(0);
    const kick = kicked(handed);
    await driver.rcon(alpha, 'kick HandedIn Handed back');
    expect(await kick).toContain('Handed back');

    await joined('CopiedIn', 'beta.localhost', '127.0.0.8');
    expect(gateway.openSockets()).toBe(2);
    await expect.poll(() => log(beta), { timeout: 10_000 }).toMatch(/CopiedIn \((::ffff:)?127\.0\.0\.1\) connected/);
    expect(await driver.rcon(beta, 'list')).toContain('CopiedIn');
    await Promise.all(bots.splice(0).map(quit));
    await expect.poll(() => gateway.openSockets(), { timeout: 10_000 }).toBe(0);
  });

  it('says a name leads nowhere, in the server list and at login, and a server that is gone does not answer', async () => {
    await openGateway();
    const unknown = await ping('nobody.localhost');
    expect(unknown.motd).toContain("Le serveur « nobody.localhost » n'existe pas.");
    expect(unknown.motd).toContain('Server "nobody.localhost" does not exist.');

    const refused = await join(port, 'Lost', VERSION, 30_000, 'nobody.localhost');
    expect(refused.joined).toBe(false);
    expect(!refused.joined && refused.reason).toBe(`Le serveur « nobody.localhost » n'existe pas. / Server "nobody.localhost" does not exist.`);

    const gone = await join(port, 'Late', VERSION, 30_000, 'gone.localhost');
    expect(!gone.joined && gone.reason).toContain('ne répond pas');
    expect((await ping('gone.localhost')).motd).toContain('is not answering');
  });

  it('holds a login until a slow route answers, telling it who logs in, and answers with a route’s own words', async () => {
    let release = (_: Target) => {};
    const answered = new Promise<Target>((resolve) => (release = resolve));
    const asked: Array<{ host: string; username: string | undefined }> = [];
    gateway = createGateway({
      route: ({ host, intent, username }) => {
        if (host === 'said.localhost') return { answer: { motd: 'Its own words', reason: 'Not you', version: '1.21.4' } };
        if (host !== 'slow.localhost') return null;
        if (intent === 'login') asked.push({ host, username });
        return answered;
      },
    });
    port = await gateway.listen(0, '127.0.0.1');
    expect(await ping('said.localhost')).toEqual({ motd: 'Its own words', version: '1.21.4' });
    const refused = await join(port, 'Someone', VERSION, 60_000, 'said.localhost');
    expect(refused).toEqual({ joined: false, reason: 'Not you' });

    const joining = join(port, 'Patient_1', VERSION, 60_000, 'slow.localhost');
    await expect.poll(() => asked, { timeout: 20_000 }).toEqual([{ host: 'slow.localhost', username: 'Patient_1' }]);
    release(routes.get('alpha.localhost')!);
    const result = await joining;
    if (!result.joined) throw new Error(`refused: ${result.reason}`);
    bots.push(result.bot);
    expect(await driver.rcon(alpha, 'list')).toContain('Patient_1');
  });

  it('answers "full" past its connections at once, per address and in all, and routes again once they close', async () => {
    // Held connections say nothing: a long handshake time keeps them open while the others are tried.
    gateway = createGateway({ route: ({ host }) => routes.get(host) ?? null, maxConnections: 4, connectionsPerAddress: 2, handshakeTimeoutMs: 30_000 });
    port = await gateway.listen(0, '127.0.0.1');
    const held: net.Socket[] = [];
    const hold = async (localAddress: string) => {
      const socket = net.connect({ port, host: '127.0.0.1', localAddress });
      socket.on('error', () => {});
      held.push(socket);
      await new Promise((resolve) => socket.once('connect', resolve));
    };
    try {
      await hold('127.0.0.1');
      await hold('127.0.0.1');
      // A third from that address: a list entry and a login refused saying so; another address passes.
      expect((await ping('alpha.localhost')).motd).toContain('Too many connections from your address');
      const refused = await join(port, 'Crowded', VERSION, 30_000, 'alpha.localhost');
      expect(!refused.joined && refused.reason).toContain('Trop de connexions depuis votre adresse');
      expect((await ping('alpha.localhost', '127.0.0.2')).motd).toBe('Alpha world');
      // Four held in all: anyone else hears the gateway is full.
      await hold('127.0.0.2');
      await hold('127.0.0.3');
      expect((await ping('alpha.localhost', '127.0.0.4')).motd).toContain('Too many players are connecting right now');
    } finally {
      for (const socket of held) socket.destroy();
    }
    await expect.poll(() => gateway.openSockets(), { timeout: 10_000 }).toBe(0);
    expect((await ping('alpha.localhost')).motd).toBe('Alpha world');
  });

  it('answers a legacy ping with a line asking for a newer client', async () => {
    await openGateway();
    const socket = net.connect(port, '127.0.0.1');
    socket.end(Buffer.from([0xfe, 0x01]));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    await new Promise((resolve) => socket.once('close', resolve));
    const answer = Buffer.concat(chunks);
    expect(answer[0]).toBe(0xff);
    expect(Buffer.from(answer.subarray(3)).swap16().toString('utf16le')).toContain('Please use Minecraft 1.7 or newer');
  });

  /**
   * Listens with `server`, opens a gateway that routes every name to it, and a client through the
   * gateway that sent its handshake (a status one): whatever the server writes then comes to it.
   */
  async function clientThrough(server: net.Server): Promise<net.Socket> {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    gateway = createGateway({ route: () => ({ host: '127.0.0.1', port: (server.address() as net.AddressInfo).port }) });
    port = await gateway.listen(0, '127.0.0.1');
    const client = net.connect(port, '127.0.0.1');
    client.on('error', () => {});
    const serializer = minecraftProtocol.createSerializer({ state: minecraftProtocol.states.HANDSHAKING, isServer: false, version: VERSION, customPackets: {} }) as {
      createPacketBuffer(p: object): Buffer;
    };
    const hello = serializer.createPacketBuffer({ name: 'set_protocol', params: { protocolVersion: 769, serverHost: 'bulk.localhost', serverPort: port, nextState: 1 } });
    client.write(Buffer.concat([Buffer.from([hello.length]), hello]));
    return client;
  }

  it('copies a server’s bytes whole and in order to a slow client, holding the server back meanwhile', { timeout: 60_000 }, async () => {
    // 64 MB in 64 kB writes, each 4 bytes their own index: a byte lost, doubled, reordered or
    // overwritten shows. `taken` counts what the server's socket handed to the kernel.
    const total = 64 * 1024 * 1024;
    let taken = 0;
    const server = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () => sendIndexed(socket, total, () => (taken += PIECE)));
    });
    try {
      const client = await clientThrough(server);
      client.pause();
      // The client reads nothing until every buffer on the way is full and the server's socket
      // takes no more: the rest must still wait in the server, not pile up in the gateway.
      let last = -1;
      await expect
        .poll(
          () => {
            const still = taken === last;
            last = taken;
            return still && taken > 0;
          },
          { interval: 250, timeout: 20_000 },
        )
        .toBe(true);
      expect(taken).toBeLessThan(total / 2);

      // A slow reader: a pause after each read, so the gateway's writes keep filling its socket.
      const received = readIndexed(client, () => {
        client.pause();
        setImmediate(() => client.resume());
      });
      client.resume();
      await new Promise((resolve) => client.once('close', resolve));
      expect({ read: received.bytes, wrong: received.wrong }).toEqual({ read: total, wrong: 0 });
      await expect.poll(() => gateway.openSockets(), { timeout: 10_000 }).toBe(0);
    } finally {
      server.close();
    }
  });

  it('keeps a server’s bytes whole and in order as its reads change size: a bulk stream, then a trickle, then bulk again', { timeout: 60_000 }, async () => {
    // Each 4 bytes their own index. The trickle is 40 single indices, each written once the client
    // acknowledged the one before, so each is a read of its own: enough small reads for the
    // gateway to go back to its small buffer, between two bulk phases that make it grow.
    const BULK_WORDS = 512 * 1024;
    let index = 0;
    const words = (count: number) => {
      const bytes = Buffer.allocUnsafe(count * 4);
      for (let i = 0; i < count; i++) bytes.writeUInt32LE(index++, i * 4);
      return bytes;
    };
    const bulk = async (socket: net.Socket) => {
      for (let sent = 0; sent < BULK_WORDS; sent += PIECE / 4) {
        if (!socket.write(words(PIECE / 4))) await new Promise((resolve) => socket.once('drain', resolve));
      }
    };
    const server = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', async () => {
        await bulk(socket);
        for (let i = 0; i < 40; i++) {
          const acknowledged = new Promise((resolve) => socket.once('data', resolve));
          socket.write(words(1));
          await acknowledged;
        }
        await bulk(socket);
        socket.end();
      });
    });
    try {
      const client = await clientThrough(server);
      // In the trickle, each index is acknowledged for the next to come.
      const received = readIndexed(client, (indices, partial) => {
        const trickled = indices - BULK_WORDS;
        if (trickled > 0 && trickled <= 40 && !partial) client.write('k');
      });
      await new Promise((resolve) => client.once('close', resolve));
      expect({ read: received.bytes, wrong: received.wrong }).toEqual({ read: (2 * BULK_WORDS + 40) * 4, wrong: 0 });
    } finally {
      server.close();
    }
  });

  it('closes random, truncated, oversized and stalled handshakes, then still serves a player, with no socket left', async () => {
    await openGateway(1000);
    const handshake = (host: string, nextState = 2) =>
      (
        minecraftProtocol.createSerializer({ state: minecraftProtocol.states.HANDSHAKING, isServer: false, version: VERSION, customPackets: {} }) as { createPacketBuffer(p: object): Buffer }
      ).createPacketBuffer({
        name: 'set_protocol',
        params: { protocolVersion: 769, serverHost: host, serverPort: port, nextState },
      });
    const framed = (body: Buffer) => Buffer.concat([Buffer.from([(body.length & 0x7f) | (body.length > 127 ? 0x80 : 0), ...(body.length > 127 ? [body.length >> 7] : [])]), body]);
    const good = framed(handshake('alpha.localhost'));
    const sends: Buffer[] = [];
    for (let i = 0; i < 60; i++) sends.push(Buffer.from(Array.from({ length: 1 + Math.floor(Math.random() * 3000) }, () => Math.floor(Math.random() * 256))));
    for (let i = 1; i < good.length; i++) sends.push(good.subarray(0, i));
    sends.push(
      Buffer.alloc(0), // connects and says nothing
      Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]), // a length of 4 GB
      Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), // a varint too long
      framed(handshake('a'.repeat(2000) + '.localhost')), // a host far past 255 characters
      framed(handshake('alpha.localhost', 7)), // no such next state
      Buffer.concat([framed(handshake('nobody.localhost', 1)), Buffer.from([0x05, 0x07, 1, 2, 3, 4])]), // a status request that is not one
      Buffer.concat([framed(handshake('nobody.localhost', 1)), Buffer.from([0x01, 0x00])]), // a status asked, its ping never sent
    );
    const closedByGateway = sends.map(
      (bytes) =>
        new Promise<boolean>((resolve) => {
          const socket = net.connect(port, '127.0.0.1');
          socket.on('error', () => {});
          socket.on('data', () => {});
          // Written and left open: only the gateway may end these connections.
          socket.once('connect', () => socket.write(bytes));
          socket.once('close', () => resolve(true));
        }),
    );
    expect((await Promise.all(closedByGateway)).every(Boolean)).toBe(true);
    await expect.poll(() => gateway.openSockets(), { timeout: 10_000 }).toBe(0);

    await joined('AfterFuzz', 'alpha.localhost');
    expect(await driver.rcon(alpha, 'list')).toContain('AfterFuzz');
    expect((await ping('nobody.localhost')).motd).toContain("n'existe pas");
    await Promise.all(bots.splice(0).map(quit));
    await expect.poll(() => gateway.openSockets(), { timeout: 10_000 }).toBe(0);
  });
});
