import net from 'node:net';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import minecraftProtocol from 'minecraft-protocol';
import { createGateway } from '../src/runtime/gateway/gateway.ts';
import { percentile } from './load.ts';

/**
 * The game gateway's cost against a direct connection, in the same run, on this machine: a client
 * that sends a Minecraft handshake and then either takes a stream of bytes (a world's chunks, as a
 * joining player gets them) or plays ping-pong with small packets (movement, chat), once straight to
 * the target and once through the gateway. The gateway runs in a thread of its own, as it runs
 * beside the API's work (or in its own process) rather than in the client's or the game's.
 */
export interface GatewayFigures {
  directMBps: number;
  gatewayMBps: number;
  /** Round trips of a 64-byte packet: the gateway is crossed twice per round trip. */
  directRttP50Ms: number;
  directRttP99Ms: number;
  gatewayRttP50Ms: number;
  gatewayRttP99Ms: number;
  /** Half the difference of the p99 round trips: what one packet's way gains, one direction. */
  addedPerPacketP99Ms: number;
}

const STREAM_BYTES = 512 * 1024 * 1024;
const ROUND_TRIPS = 20_000;
const PACKET = Buffer.alloc(64, 7);

function handshake(port: number): Buffer {
  const serializer = minecraftProtocol.createSerializer({ state: minecraftProtocol.states.HANDSHAKING, isServer: false, version: '1.21.4', customPackets: {} }) as {
    createPacketBuffer(p: object): Buffer;
  };
  const body = serializer.createPacketBuffer({ name: 'set_protocol', params: { protocolVersion: 769, serverHost: 'bench.localhost', serverPort: port, nextState: 2 } });
  return Buffer.concat([Buffer.from([body.length]), body]);
}

/** The game's side: after the handshake, streams STREAM_BYTES and ends (`stream`), or echoes (`echo`). */
async function target(): Promise<{ port: number; close(): void }> {
  const chunk = Buffer.alloc(64 * 1024, 1);
  const server = net.createServer({ noDelay: true }, (socket) => {
    socket.on('error', () => {});
    socket.once('data', (first: Buffer) => {
      const mode = first.includes(Buffer.from('stream')) ? 'stream' : 'echo';
      if (mode === 'echo') {
        socket.write(first);
        socket.on('data', (data: Buffer) => socket.write(data));
        return;
      }
      let sent = 0;
      const pump = () => {
        while (sent < STREAM_BYTES) {
          sent += chunk.length;
          if (!socket.write(chunk)) return void socket.once('drain', pump);
        }
        socket.end();
      };
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => server.close() };
}

async function stream(port: number): Promise<number> {
  const socket = net.connect({ port, host: '127.0.0.1', noDelay: true });
  await new Promise((resolve) => socket.once('connect', resolve));
  const started = performance.now();
  socket.write(Buffer.concat([handshake(port), Buffer.from('stream')]));
  let received = 0;
  socket.on('data', (data: Buffer) => (received += data.length));
  await new Promise((resolve) => socket.once('close', resolve));
  if (received < STREAM_BYTES) throw new Error(`only ${received} bytes of ${STREAM_BYTES} arrived`);
  return received / 1024 / 1024 / ((performance.now() - started) / 1000);
}

async function pingPong(port: number): Promise<number[]> {
  const socket = net.connect({ port, host: '127.0.0.1', noDelay: true });
  await new Promise((resolve) => socket.once('connect', resolve));
  const hello = Buffer.concat([handshake(port), Buffer.from('echo')]);
  let pending = 0;
  let wake: (() => void) | null = null;
  socket.on('data', (data: Buffer) => {
    pending -= data.length;
    if (pending <= 0 && wake) wake();
  });
  const roundTrip = (bytes: Buffer) =>
    new Promise<void>((resolve) => {
      pending += bytes.length;
      wake = resolve;
      socket.write(bytes);
    });
  await roundTrip(hello);
  const times: number[] = [];
  for (let i = 0; i < ROUND_TRIPS; i++) {
    const started = performance.now();
    await roundTrip(PACKET);
    times.push(performance.now() - started);
  }
  socket.destroy();
  return times.sort((a, b) => a - b);
}

/** The gateway's thread: routes bench.localhost to the target's port, says its own port, closes when told. */
if (!isMainThread && (workerData as { gatewayBench?: number } | null)?.gatewayBench) {
  const targetPort = (workerData as { gatewayBench: number }).gatewayBench;
  const gateway = createGateway({ route: ({ host }) => (host === 'bench.localhost' ? { host: '127.0.0.1', port: targetPort } : null) });
  parentPort!.postMessage(await gateway.listen(0, '127.0.0.1'));
  parentPort!.once('message', () => void gateway.close().then(() => process.exit(0)));
}

export async function gatewayBench(): Promise<GatewayFigures> {
  const game = await target();
  const worker = new Worker(new URL(import.meta.url), { workerData: { gatewayBench: game.port } });
  const gatewayPort = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  try {
    // Warm both ways first, then alternate, so neither side has the JIT or the page cache alone.
    await stream(game.port);
    await stream(gatewayPort);
    const direct: number[] = [];
    const through: number[] = [];
    for (let i = 0; i < 3; i++) {
      direct.push(await stream(game.port));
      through.push(await stream(gatewayPort));
    }
    await pingPong(game.port);
    await pingPong(gatewayPort);
    const directRtt = await pingPong(game.port);
    const gatewayRtt = await pingPong(gatewayPort);
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const figures = {
      directMBps: median(direct),
      gatewayMBps: median(through),
      directRttP50Ms: percentile(directRtt, 50),
      directRttP99Ms: percentile(directRtt, 99),
      gatewayRttP50Ms: percentile(gatewayRtt, 50),
      gatewayRttP99Ms: percentile(gatewayRtt, 99),
      addedPerPacketP99Ms: 0,
    };
    figures.addedPerPacketP99Ms = Math.max(0, (figures.gatewayRttP99Ms - figures.directRttP99Ms) / 2);
    return figures;
  } finally {
    worker.postMessage('close');
    await new Promise((resolve) => worker.once('exit', resolve));
    game.close();
  }
}
