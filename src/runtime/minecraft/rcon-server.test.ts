import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { rconCommands } from './probe.ts';
import { encodePacket, packetReader, startRconServer, type Packet } from './rcon-server.ts';

describe('RCON server', () => {
  let server: net.Server | undefined;
  afterEach(() => server?.close());

  async function start(execute: (command: string) => Promise<string>): Promise<number> {
    server = await startRconServer({ host: '127.0.0.1', port: 0, password: 'right horse', execute });
    return (server.address() as net.AddressInfo).port;
  }

  /** Sends raw packets and collects the answers, to check the wire format itself. */
  async function exchange(port: number, packets: Packet[], answers: number): Promise<Packet[]> {
    const socket = net.connect(port, '127.0.0.1');
    const received: Packet[] = [];
    await new Promise<void>((resolve, reject) => {
      socket.on('error', reject);
      socket.on(
        'data',
        packetReader((p) => {
          received.push(p);
          if (received.length === answers) resolve();
        }),
      );
      // Sent in one write, split mid-packet on purpose: the server must reassemble.
      const bytes = Buffer.concat(packets.map(encodePacket));
      socket.write(bytes.subarray(0, 7));
      setTimeout(() => socket.write(bytes.subarray(7)), 20);
    });
    socket.destroy();
    return received;
  }

  it('logs in with type 3, answers commands of type 2 with type 0 and the same id', async () => {
    const port = await start(async (command) => `ran ${command}`);
    const answers = await exchange(
      port,
      [
        { id: 7, type: 3, body: 'right horse' },
        { id: 8, type: 2, body: 'list' },
      ],
      2,
    );
    expect(answers).toEqual([
      { id: 7, type: 2, body: '' },
      { id: 8, type: 0, body: 'ran list' },
    ]);
  });

  it('answers a wrong password with id -1 and refuses commands before login', async () => {
    const port = await start(async () => 'never');
    const answers = await exchange(
      port,
      [
        { id: 1, type: 3, body: 'wrong' },
        { id: 2, type: 2, body: 'stop' },
      ],
      2,
    );
    expect(answers.map((a) => a.id)).toEqual([-1, -1]);
    await expect(rconCommands({ host: '127.0.0.1', port, password: 'wrong' }, ['list'])).rejects.toThrow('Authentication failed');
  });

  it('speaks with a third-party client (rcon-client), errors answered as text', async () => {
    const port = await start(async (command) => {
      if (command === 'boom') throw new Error('Unknown or incomplete command');
      return `ok ${command}`;
    });
    expect(await rconCommands({ host: '127.0.0.1', port, password: 'right horse' }, ['say héllo', 'boom'])).toEqual(['ok say héllo', 'Unknown or incomplete command']);
  });

  it('drops a client sending an impossible packet size', async () => {
    const port = await start(async () => '');
    const socket = net.connect(port, '127.0.0.1');
    const closed = new Promise((resolve) => socket.on('close', resolve));
    let answered = 0;
    socket.on('data', (chunk: Buffer) => (answered += chunk.length));
    socket.write(Buffer.from([0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0]));
    // The client never ends it: the server hangs up, without a word.
    await closed;
    expect(answered).toBe(0);
    expect(socket.readyState).toBe('closed');
  });
});
