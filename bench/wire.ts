import net from 'node:net';
import minecraftProtocol from 'minecraft-protocol';

/**
 * The few Minecraft packets the gateway benches send, written once as bytes by minecraft-protocol's
 * serializer, and a status ping client light enough that thousands of them measure the server, not
 * the client: it reads frames by their length and nothing else.
 */
const VERSION = '1.21.4';
const PROTOCOL = 769;

function serializer(state: (typeof minecraftProtocol.states)[keyof typeof minecraftProtocol.states]) {
  return minecraftProtocol.createSerializer({ state, isServer: false, version: VERSION, customPackets: {} }) as { createPacketBuffer(p: object): Buffer };
}

function varint(value: number): Buffer {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value) byte |= 0x80;
    bytes.push(byte);
  } while (value);
  return Buffer.from(bytes);
}

const frame = (body: Buffer) => Buffer.concat([varint(body.length), body]);

function handshake(host: string, port: number, intent: 'status' | 'login'): Buffer {
  const body = serializer(minecraftProtocol.states.HANDSHAKING).createPacketBuffer({
    name: 'set_protocol',
    params: { protocolVersion: PROTOCOL, serverHost: host, serverPort: port, nextState: intent === 'status' ? 1 : 2 },
  });
  return frame(body);
}

/** A handshake and a login start for `name`, as a client's first bytes. */
export function loginHello(host: string, port: number, name: string): Buffer {
  const body = serializer(minecraftProtocol.states.LOGIN).createPacketBuffer({ name: 'login_start', params: { username: name, playerUUID: '00000000-0000-0000-0000-000000000000' } });
  return Buffer.concat([handshake(host, port, 'login'), frame(body)]);
}

const statusRequest = frame(serializer(minecraftProtocol.states.STATUS).createPacketBuffer({ name: 'ping_start', params: {} }));
const pingPacket = frame(serializer(minecraftProtocol.states.STATUS).createPacketBuffer({ name: 'ping', params: { time: 1n } }));

/** Reads whole frames out of a stream of chunks, calling `onFrame` with each frame's packet id. */
function frames(onFrame: (id: number) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      let length = 0;
      let shift = 0;
      let at = 0;
      for (;;) {
        if (at >= pending.length) return;
        const byte = pending[at++]!;
        length |= (byte & 0x7f) << shift;
        shift += 7;
        if (!(byte & 0x80)) break;
      }
      if (pending.length < at + length) return;
      onFrame(pending[at]!);
      pending = pending.subarray(at + length);
    }
  };
}

/**
 * One server list ping as a client makes it: handshake, status request, the answer, ping, pong.
 * Resolves once the pong arrives; rejects on a close before it or after `timeoutMs`.
 */
export function statusPing(port: number, host: string, { localAddress, timeoutMs = 10_000 }: { localAddress?: string; timeoutMs?: number } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', noDelay: true, ...(localAddress ? { localAddress } : {}) });
    const timer = setTimeout(() => fail(new Error(`no pong from ${host} within ${timeoutMs} ms`)), timeoutMs);
    let done = false;
    const fail = (error: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    socket.on('error', fail);
    socket.once('close', () => fail(new Error(`${host} closed before its pong`)));
    socket.once('connect', () => socket.write(Buffer.concat([handshake(host, port, 'status'), statusRequest])));
    socket.on(
      'data',
      frames((id) => {
        if (id === 0x00) socket.write(pingPacket);
        else if (id === 0x01 && !done) {
          done = true;
          clearTimeout(timer);
          socket.destroy();
          resolve();
        }
      }),
    );
  });
}

/** Status pings by `concurrency` clients one after the other for `durationMs`: pings answered per second, and failures. */
export async function pingRate(port: number, host: string, { concurrency = 32, durationMs = 5000 } = {}): Promise<{ perSecond: number; failed: number }> {
  let answered = 0;
  let failed = 0;
  const until = performance.now() + durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        try {
          await statusPing(port, host);
          answered += 1;
        } catch {
          failed += 1;
        }
      }
    }),
  );
  return { perSecond: answered / ((performance.now() - started) / 1000), failed };
}
