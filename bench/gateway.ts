import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { createGateway } from '../src/runtime/gateway/gateway.ts';
import { handOver, takeHandedConnections } from '../src/runtime/gateway/hand-off.ts';
import { words } from '../src/runtime/gateway/words.ts';
import { percentile } from './load.ts';
import { loginHello, statusPing } from './wire.ts';

/**
 * The game gateway's cost against a direct connection, in the same run, on this machine: a client
 * that sends a Minecraft handshake and login start and then either takes a stream of bytes (a
 * world's chunks, as a joining player gets them) or plays ping-pong with small packets (movement,
 * chat), straight to the target, through a plain Node proxy (`net` and `pipe`, ten lines: what any
 * proxy written in Node can do here), through the gateway copying (as a gateway process of its own,
 * `npm run gateway`, does for every game, and the API's for Agones and jar servers), and through a
 * gateway that hands each connection to its target (as the API's gateway does for the local
 * driver's flying-squid servers: the target is its child, with an IPC channel). Targets, plain
 * proxy and gateways each run in a process of their own; the client is this process. Then the
 * gateway alone: 2 000 logins held at once (its memory and file descriptors) and 2 000 status pings
 * at once, answered from its memory as a sleeping game's are.
 */
export interface GatewayFigures {
  directMBps: number;
  plainProxyMBps: number;
  /** Through the gateway copying. */
  gatewayMBps: number;
  /** Through the gateway handing the connection to its target's process: its target's bytes go straight to the client. */
  handedMBps: number;
  /** CPU time the proxy's process spent per MB copied (user + system). */
  plainProxyCpuMsPerMB: number;
  gatewayCpuMsPerMB: number;
  /** The handing gateway's, per MB its target sent. */
  handedCpuMsPerMB: number;
  /** Round trips of a 64-byte packet: a proxy is crossed twice per round trip. */
  directRttP50Ms: number;
  directRttP99Ms: number;
  plainProxyRttP99Ms: number;
  gatewayRttP50Ms: number;
  gatewayRttP99Ms: number;
  handedRttP50Ms: number;
  handedRttP99Ms: number;
  /** Half the difference of the p99 round trips: what one packet's way gains, one direction. */
  addedPerPacketP99Ms: number;
  /**
   * The copy with a core of its own, as a gateway Deployment has its own node: the client and the
   * target pinned to one core, the copying gateway to the other, direct and through it in turns
   * (null where `taskset` or a second core is missing).
   */
  ownCore: { directMBps: number; gatewayMBps: number } | null;
  held: { connections: number; idleRssMb: number; heldRssMb: number; perConnectionKb: number; idleFds: number; heldFds: number };
  concurrentPings: { pings: number; answered: number; seconds: number };
}

const STREAM_BYTES = 512 * 1024 * 1024;
const ROUND_TRIPS = 20_000;
const PACKET = Buffer.alloc(64, 7);
export const HELD_CONNECTIONS = 2000;
const ROLE = 'GATEWAY_BENCH_ROLE';

/** The game's side: after the first bytes, streams STREAM_BYTES and ends (a login as `stream`), or echoes everything. */
function target(): net.Server {
  const chunk = Buffer.alloc(64 * 1024, 1);
  return net.createServer({ noDelay: true }, (socket) => {
    socket.on('error', () => {});
    socket.once('data', (first: Buffer) => {
      if (!first.includes(Buffer.from('stream'))) {
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
}

/** The baseline: a TCP proxy as Node's documentation would write it. */
function plainProxy(targetPort: number): net.Server {
  return net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
}

/** The gateway: bench.localhost leads to the target, asleep.localhost is answered from memory as a sleeping game's entry. */
function gateway(targetPort: number) {
  const entry = words.sleeping('Bench', '1.21.4');
  return createGateway({ route: ({ host }) => (host === 'bench.localhost' ? { host: '127.0.0.1', port: targetPort } : host === 'asleep.localhost' ? { answer: entry } : null) });
}

if (process.env[ROLE]) {
  const targetPort = Number(process.env.GATEWAY_BENCH_TARGET);
  const role = process.env[ROLE];
  const port =
    role === 'gateway'
      ? await gateway(targetPort).listen(0, '127.0.0.1')
      : role === 'handing'
        ? await handingGateway()
        : await new Promise<number>((resolve) => {
            const server = role === 'target' ? target() : plainProxy(targetPort);
            // A target takes the connections its parent hands it as its own (a handing gateway's target).
            if (role === 'target') takeHandedConnections((socket) => server.emit('connection', socket));
            server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => resolve((server.address() as net.AddressInfo).port));
          });
  process.send!(port);
  // A handing gateway's target goes with it.
  process.once('disconnect', () => process.exit(0));
}

interface Child {
  port: number;
  pid: number;
  process: ChildProcess;
}

/**
 * A gateway that runs its target as its child, with an IPC channel, as the local driver runs the
 * game servers in the API, and hands each bench.localhost connection to it.
 */
async function handingGateway(): Promise<number> {
  const own = await spawnRole('target');
  const entry = words.sleeping('Bench', '1.21.4');
  const handOff = (socket: net.Socket, head: Buffer) => handOver(own.process, socket, head);
  return createGateway({
    route: ({ host }) => (host === 'bench.localhost' ? { host: '127.0.0.1', port: own.port, handOff } : host === 'asleep.localhost' ? { answer: entry } : null),
  }).listen(0, '127.0.0.1');
}

async function spawnRole(role: string, targetPort = 0): Promise<Child> {
  const child = fork(fileURLToPath(import.meta.url), [], { env: { ...process.env, [ROLE]: role, GATEWAY_BENCH_TARGET: String(targetPort) } });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve(m as number));
    child.once('exit', (code) => reject(new Error(`${role} exited with ${code}`)));
  });
  return { port, pid: child.pid!, process: child };
}

/**
 * Runs `measure` with this process (the client) and the target on the first core and the gateway
 * on the second (`taskset`), then gives every process both cores again; null without them.
 */
async function withOwnCore<T>(targetPid: number, gatewayPid: number, measure: () => Promise<T>): Promise<T | null> {
  const pin = (cpus: string, pid: number) => spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' }).status === 0;
  if (os.availableParallelism() < 2 || !pin('0', process.pid)) return null;
  try {
    if (!pin('0', targetPid) || !pin('1', gatewayPid)) return null;
    return await measure();
  } finally {
    for (const pid of [process.pid, targetPid, gatewayPid]) pin(`0-${os.availableParallelism() - 1}`, pid);
  }
}

/** User + system CPU time of a process, in ms. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

export function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

export const fdCount = (pid: number) => fs.readdirSync(`/proc/${pid}/fd`).length;

async function connected(port: number, localAddress?: string): Promise<net.Socket> {
  const socket = net.connect({ port, host: '127.0.0.1', noDelay: true, ...(localAddress ? { localAddress } : {}) });
  socket.on('error', () => {});
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return socket;
}

async function stream(port: number): Promise<number> {
  const socket = await connected(port);
  const started = performance.now();
  socket.write(loginHello('bench.localhost', port, 'stream'));
  let received = 0;
  socket.on('data', (data: Buffer) => (received += data.length));
  await new Promise((resolve) => socket.once('close', resolve));
  if (received < STREAM_BYTES) throw new Error(`only ${received} bytes of ${STREAM_BYTES} arrived`);
  return received / 1024 / 1024 / ((performance.now() - started) / 1000);
}

/** A connection whose first bytes (a login) came back from the echoing target: it is piped end to end. */
async function echoing(port: number, localAddress?: string): Promise<{ socket: net.Socket; roundTrip(bytes: Buffer): Promise<void> }> {
  const socket = await connected(port, localAddress);
  let pending = 0;
  let wake: (() => void) | null = null;
  socket.on('data', (data: Buffer) => {
    pending -= data.length;
    if (pending <= 0 && wake) wake();
  });
  socket.once('close', () => wake?.());
  const roundTrip = (bytes: Buffer) =>
    new Promise<void>((resolve, reject) => {
      if (socket.destroyed) return reject(new Error('closed'));
      pending += bytes.length;
      wake = () => (pending <= 0 ? resolve() : reject(new Error('closed before its echo')));
      socket.write(bytes);
    });
  await roundTrip(loginHello('bench.localhost', port, 'echo'));
  return { socket, roundTrip };
}

async function pingPong(port: number): Promise<number[]> {
  const { socket, roundTrip } = await echoing(port);
  const times: number[] = [];
  for (let i = 0; i < ROUND_TRIPS; i++) {
    const started = performance.now();
    await roundTrip(PACKET);
    times.push(performance.now() - started);
  }
  socket.destroy();
  return times.sort((a, b) => a - b);
}

/** `count` at a time in batches of `batch` (a listen backlog is finite; a SYN dropped costs a second's retry). */
async function inBatches<T>(count: number, batch: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i += batch) out.push(...(await Promise.all(Array.from({ length: Math.min(batch, count - i) }, (_, j) => make(i + j)))));
  return out;
}

/** The loopback address of the i-th of many players, 40 to an address: as many players come from many addresses, under the gateway's limit per address. */
const player = (i: number) => `127.0.2.${1 + (i % 50)}`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const settle = () => new Promise((r) => setTimeout(r, 1000));

export async function gatewayBench(): Promise<GatewayFigures> {
  const game = await spawnRole('target');
  const plain = await spawnRole('plain', game.port);
  const gate = await spawnRole('gateway', game.port);
  const handing = await spawnRole('handing');
  try {
    // Warm each way first, then take turns, so none has the JIT, the page cache or a quiet moment alone.
    for (const port of [game.port, plain.port, gate.port, handing.port]) await stream(port);
    const mbps: Record<'direct' | 'plain' | 'gateway' | 'handed', number[]> = { direct: [], plain: [], gateway: [], handed: [] };
    const cpu = { plain: 0, gateway: 0, handed: 0 };
    const ways = [
      ['direct', game],
      ['plain', plain],
      ['gateway', gate],
      ['handed', handing],
    ] as const;
    for (let i = 0; i < ways.length; i++) {
      // Each way leads one round: none always follows the same one.
      for (let j = 0; j < ways.length; j++) {
        const [name, child] = ways[(i + j) % ways.length]!;
        const before = cpuMs(child.pid);
        mbps[name].push(await stream(child.port));
        if (name !== 'direct') cpu[name] += cpuMs(child.pid) - before;
      }
    }
    const copiedMB = (ways.length * STREAM_BYTES) / 1024 / 1024;
    const ownCore = await withOwnCore(game.pid, gate.pid, async () => {
      const pinned = { direct: [] as number[], gateway: [] as number[] };
      // A round on the new cores first, untimed (the caches of the cores each process left).
      await stream(game.port);
      await stream(gate.port);
      for (let i = 0; i < 2; i++) {
        pinned.direct.push(await stream(game.port));
        pinned.gateway.push(await stream(gate.port));
      }
      return { directMBps: median(pinned.direct), gatewayMBps: median(pinned.gateway) };
    });

    for (const port of [game.port, plain.port, gate.port, handing.port]) await pingPong(port);
    const directRtt = await pingPong(game.port);
    const plainRtt = await pingPong(plain.port);
    const gatewayRtt = await pingPong(gate.port);
    const handedRtt = await pingPong(handing.port);

    // 2 000 logins held at once through a gateway of its own (the streams' buffers would blur its
    // memory), warmed by a few, each one's bytes echoed back by the target; then 2 000 status pings
    // at once, every one answered from its memory.
    const fresh = await spawnRole('gateway', game.port);
    let heldFigures: GatewayFigures['held'];
    let concurrentPings: GatewayFigures['concurrentPings'];
    try {
      for (const h of await inBatches(20, 20, (i) => echoing(fresh.port, player(i)))) h.socket.destroy();
      await settle();
      const idleRssMb = rssMb(fresh.pid);
      const idleFds = fdCount(fresh.pid);
      const held = await inBatches(HELD_CONNECTIONS, 200, (i) => echoing(fresh.port, player(i)));
      await Promise.all(held.map((h) => h.roundTrip(PACKET)));
      await settle();
      const heldRssMb = rssMb(fresh.pid);
      heldFigures = { connections: held.length, idleRssMb, heldRssMb, perConnectionKb: ((heldRssMb - idleRssMb) * 1024) / held.length, idleFds, heldFds: fdCount(fresh.pid) };
      for (const h of held) h.socket.destroy();
      await settle();
      const started = performance.now();
      const outcomes = await Promise.allSettled(Array.from({ length: HELD_CONNECTIONS }, (_, i) => statusPing(fresh.port, 'asleep.localhost', { localAddress: player(i), timeoutMs: 30_000 })));
      concurrentPings = { pings: HELD_CONNECTIONS, answered: outcomes.filter((o) => o.status === 'fulfilled').length, seconds: (performance.now() - started) / 1000 };
    } finally {
      fresh.process.kill();
    }

    const figures: GatewayFigures = {
      directMBps: median(mbps.direct),
      plainProxyMBps: median(mbps.plain),
      gatewayMBps: median(mbps.gateway),
      handedMBps: median(mbps.handed),
      plainProxyCpuMsPerMB: cpu.plain / copiedMB,
      gatewayCpuMsPerMB: cpu.gateway / copiedMB,
      handedCpuMsPerMB: cpu.handed / copiedMB,
      directRttP50Ms: percentile(directRtt, 50),
      directRttP99Ms: percentile(directRtt, 99),
      plainProxyRttP99Ms: percentile(plainRtt, 99),
      gatewayRttP50Ms: percentile(gatewayRtt, 50),
      gatewayRttP99Ms: percentile(gatewayRtt, 99),
      handedRttP50Ms: percentile(handedRtt, 50),
      handedRttP99Ms: percentile(handedRtt, 99),
      addedPerPacketP99Ms: 0,
      ownCore,
      held: heldFigures,
      concurrentPings,
    };
    figures.addedPerPacketP99Ms = Math.max(0, (figures.gatewayRttP99Ms - figures.directRttP99Ms) / 2);
    return figures;
  } finally {
    for (const child of [game, plain, gate, handing]) child.process.kill();
  }
}
