import { fork, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import minecraftProtocol from 'minecraft-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from './gateway.ts';
import { handOver } from './hand-off.ts';

/**
 * The gateway handing its clients to a server's own process over IPC (`hand-off.ts`), against a
 * forked server (tests/fixtures/handed-stream.ts) as the local driver forks its game servers, and
 * copying instead when that process cannot take them.
 */
describe('the gateway’s hand-off to a local server', () => {
  const TOTAL = 64 * 1024 * 1024;
  const children: ChildProcess[] = [];
  let gateway: Gateway | undefined;

  afterEach(async () => {
    await gateway?.close();
    for (const child of children.splice(0)) child.kill();
  });

  async function server(): Promise<ChildProcess> {
    const child = fork(fileURLToPath(new URL('../../../tests/fixtures/handed-stream.ts', import.meta.url)), [String(TOTAL)]);
    children.push(child);
    await new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
    });
    return child;
  }

  /** A status handshake for `host`, framed, as a server list sends it first. */
  function handshake(host: string, port: number): Buffer {
    const serializer = minecraftProtocol.createSerializer({ state: minecraftProtocol.states.HANDSHAKING, isServer: false, version: '1.21.4', customPackets: {} }) as {
      createPacketBuffer(p: object): Buffer;
    };
    const body = serializer.createPacketBuffer({ name: 'set_protocol', params: { protocolVersion: 769, serverHost: host, serverPort: port, nextState: 1 } });
    return Buffer.concat([Buffer.from([body.length]), body]);
  }

  /**
   * Connects from `localAddress`, sends `hello` and resolves with everything the connection carried
   * back, once it closed; `whileOpen` runs once the first bytes came back, then the client ends its
   * side if `end` says so.
   */
  async function exchange(port: number, hello: Buffer, localAddress: string, whileOpen: () => Promise<void>, end = false): Promise<Buffer> {
    const client = net.connect({ port, host: '127.0.0.1', localAddress });
    client.on('error', () => {});
    const chunks: Buffer[] = [];
    client.pause();
    client.on('data', (chunk: Buffer) => chunks.push(chunk));
    await new Promise((resolve) => client.once('connect', resolve));
    client.write(hello);
    // The first bytes back mean the server has the connection; the rest waits in the kernel meanwhile.
    await new Promise((resolve) => client.once('readable', resolve));
    await whileOpen();
    if (end) client.end();
    client.resume();
    await new Promise((resolve) => client.once('close', resolve));
    return Buffer.concat(chunks);
  }

  /** The fixture's answer: the head it read first, its peer's address on a line, then TOTAL bytes of indexes. */
  function read(answer: Buffer, head: Buffer): { head: Buffer; address: string; bytes: number; wrong: number } {
    const lineEnd = answer.indexOf('\n', head.length);
    const stream = answer.subarray(lineEnd + 1);
    let wrong = 0;
    for (let i = 0; i + 4 <= stream.length; i += 4) if (stream.readUInt32LE(i) !== i / 4) wrong += 1;
    return { head: answer.subarray(0, head.length), address: answer.subarray(head.length, lineEnd).toString(), bytes: stream.length, wrong };
  }

  it('gives the client to the server’s process with the bytes it read first, keeps no socket, and closes without waiting for it', { timeout: 60_000 }, async () => {
    const child = await server();
    gateway = createGateway({ route: () => ({ host: '127.0.0.1', port: 1, handOff: (socket, head) => handOver(child, socket, head) }) });
    const port = await gateway.listen(0, '127.0.0.1');
    const hello = handshake('bulk.localhost', port);
    const answer = await exchange(port, hello, '127.0.0.9', async () => {
      // Nothing of the connection is left in the gateway, and its closing does not wait for a
      // connection it gave away (Node would have the child count it as a cluster worker's).
      expect(gateway!.openSockets()).toBe(0);
      await gateway!.close();
    });
    expect(read(answer, hello)).toEqual({ head: hello, address: '127.0.0.9', bytes: TOTAL, wrong: 0 });
  });

  it('copies to the server’s port when its process cannot take the connection', async () => {
    const child = await server();
    // The channel to the server's process is gone (as when it exits): the hand-off leaves the socket as it was.
    child.disconnect();
    const target = net.createServer((socket) => {
      socket.on('error', () => {});
      // Answered, and left open until the client ends its side.
      socket.once('data', (first: Buffer) => socket.write(Buffer.concat([first, Buffer.from(`${socket.remoteAddress}\n`)])));
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    gateway = createGateway({ route: () => ({ host: '127.0.0.1', port: (target.address() as net.AddressInfo).port, handOff: (socket, head) => handOver(child, socket, head) }) });
    const port = await gateway.listen(0, '127.0.0.1');
    const hello = handshake('copied.localhost', port);
    try {
      let open = 0;
      const answer = await exchange(port, hello, '127.0.0.9', async () => void (open = gateway!.openSockets()), true);
      // The client's socket and the gateway's own to the server: the copy, which the server sees coming from the gateway.
      expect(open).toBe(2);
      expect(answer.toString()).toBe(`${hello.toString()}127.0.0.1\n`);
    } finally {
      target.close();
    }
  });
});
