import crypto from 'node:crypto';
import net from 'node:net';

/**
 * A Source RCON server, as vanilla Minecraft speaks it: little-endian packets of
 * `size, id, type, body\0\0`. A client logs in with a type 3 packet carrying the password and
 * gets back a type 2 packet with its id (or id -1 when the password is wrong); then each type 2
 * packet is a command, answered by a type 0 packet with the same id.
 */
const PacketType = { response: 0, command: 2, authResponse: 2, login: 3 } as const;

export interface Packet {
  id: number;
  type: number;
  body: string;
}

/** Vanilla refuses bodies above 1446 bytes; we allow a little more but bound memory per client. */
const maxPacketSize = 4096;

export function encodePacket({ id, type, body }: Packet): Buffer {
  const payload = Buffer.from(body, 'utf8');
  const buf = Buffer.alloc(14 + payload.length);
  buf.writeInt32LE(10 + payload.length, 0);
  buf.writeInt32LE(id, 4);
  buf.writeInt32LE(type, 8);
  payload.copy(buf, 12);
  return buf;
}

/** Splits a stream into packets; throws on a size no RCON client would send. */
export function packetReader(onPacket: (packet: Packet) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 4) {
      const size = pending.readInt32LE(0);
      if (size < 10 || size > maxPacketSize) throw new Error(`bad RCON packet size ${size}`);
      if (pending.length < 4 + size) return;
      const id = pending.readInt32LE(4);
      const type = pending.readInt32LE(8);
      const body = pending.subarray(12, 4 + size - 2).toString('utf8');
      pending = pending.subarray(4 + size);
      onPacket({ id, type, body });
    }
  };
}

function samePassword(a: string, b: string): boolean {
  const ha = crypto.createHash('sha256').update(a).digest();
  const hb = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(ha, hb);
}

export interface RconServerOptions {
  host: string;
  port: number;
  password: string;
  /** Runs one command; its resolved text is the answer, a rejection is answered with its message. */
  execute(command: string): Promise<string>;
}

export async function startRconServer(options: RconServerOptions): Promise<net.Server> {
  if (options.password.length === 0) throw new Error('RCON needs a password');
  const server = net.createServer((socket) => {
    let authenticated = false;
    // Commands of one client run one after the other, as vanilla does, so answers keep their order.
    let queue = Promise.resolve();
    const send = (packet: Packet) => {
      if (socket.writable) socket.write(encodePacket(packet));
    };
    const read = packetReader((packet) => {
      if (packet.type === PacketType.login) {
        authenticated = samePassword(packet.body, options.password);
        send({ id: authenticated ? packet.id : -1, type: PacketType.authResponse, body: '' });
        return;
      }
      if (!authenticated) {
        send({ id: -1, type: PacketType.authResponse, body: '' });
        return;
      }
      if (packet.type !== PacketType.command) return;
      queue = queue.then(async () => {
        let answer: string;
        try {
          answer = await options.execute(packet.body);
        } catch (err) {
          answer = err instanceof Error ? err.message : String(err);
        }
        send({ id: packet.id, type: PacketType.response, body: answer });
      });
    });
    socket.on('data', (chunk) => {
      try {
        read(chunk);
      } catch {
        socket.destroy();
      }
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
