import fs from 'node:fs';
import net from 'node:net';
import mineflayer, { type Bot, type BotOptions } from 'mineflayer';
import { quit } from '../tests/fixtures/minecraft.ts';
import { percentile } from './load.ts';
import { startServer, type BenchServer } from './server.ts';
import { freeOffer } from './whitelist.ts';
import { fdCount, rssMb } from './gateway.ts';
import { pingRate, statusPing } from './wire.ts';

/**
 * The game gateway in the real API (`GAME_GATEWAY_PORT`), with the local driver and real
 * flying-squid servers (bench/clock-server.ts: the server with a clock the bench moves on):
 * - a sleeping server joined by name through the gateway with a real mineflayer client: from the
 *   client's first byte to its spawn, the login held while the server wakes (p50, p95), each join
 *   from its own loopback address (the wakes per address are limited) and the server put back to
 *   sleep between joins (the games' clock moved past its 5 minutes without a player);
 * - status pings per second through the gateway, answered from memory for the sleeping game and
 *   passed on to the server for a running one, against the running server's own port;
 * - what a player notices of the copying: a running server's world downloaded by real joins,
 *   straight and through the gateway in turns (to the spawn, and to every chunk around it loaded);
 * - the cost side: 1 000 games hosted, all but the awake ones SLEEPING (their rows exist, nothing
 *   runs), the awake ones real servers each visited once by a player; the API's memory and the
 *   servers' (RSS, and PSS, which shares the node binary's pages among the servers that map them).
 */
export interface SleepFigures {
  wakeJoins: number;
  wakeToSpawnMs: number[];
  wakeToSpawnP50Ms: number;
  wakeToSpawnP95Ms: number;
  /** Medians of the stages: the wake asked (STARTING seen), the server's start (RUNNING seen), the login replayed and the world sent. */
  toStartingP50Ms: number;
  startingToRunningP50Ms: number;
  runningToSpawnP50Ms: number;
  pings: { sleepingPerSecond: number; runningPerSecond: number; directPerSecond: number; failed: number };
  /** What a player notices of the gateway (in the API, with the local driver: the connection handed to the server): a running server joined straight and through the gateway, in turns. */
  worldDownload: { joins: number; direct: Download; gateway: Download };
  cost: CostFigures;
}

/**
 * Medians of a join of a running server: from the client's first byte to its spawn, and to every chunk around it loaded; the bytes
 * its socket read by then (compressed: some 50 kB for the columns around a flying-squid spawn, hence counted in kB).
 */
interface Download {
  spawnP50Ms: number;
  chunksP50Ms: number;
  bytes: number;
}

interface CostFigures {
  games: number;
  sleeping: number;
  /** Servers asked to run, and those that did (the machine may hold fewer: then the figures are extrapolated). */
  awakeAsked: number;
  awake: number;
  startTimesMs: number[];
  apiRssBeforeMb: number;
  apiRssMb: number;
  apiFds: number;
  serversRssMb: number;
  serversPssMb: number;
  /** Per awake server, for the extrapolation to `awakeAsked`. */
  perServerRssMb: number;
  perServerPssMb: number;
  /** API + `awakeAsked` servers, measured or extrapolated from the per-server PSS. */
  totalMb: number;
  extrapolated: boolean;
}

const VERSION = '1.21.4';
const OWNER = 'bench_sleep_owner';
const JOINS = 10;
const COST_GAMES = Number(process.env.GATEWAY_BENCH_GAMES ?? 1000);
const AWAKE = Number(process.env.GATEWAY_BENCH_AWAKE ?? 50);
/** Starting more servers stops when one start takes this long (the machine is full) or the starts took this long in all. */
const START_GIVE_UP_MS = 30_000;
const STARTS_BUDGET_MS = 6 * 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Status {
  status: string;
  address: string | null;
  directAddress?: string;
}

/** A mineflayer client logging in through the gateway by name, from `localAddress`; resolves with the bot once it spawned. */
function joinFrom(port: number, host: string, username: string, localAddress: string, timeoutMs = 120_000): Promise<Bot> {
  const options = {
    host: '127.0.0.1',
    port,
    username,
    version: VERSION,
    auth: 'offline',
    hideErrors: true,
    fakeHost: host,
    connect: (client: { setSocket(socket: net.Socket): void }) => client.setSocket(net.connect({ port, host: '127.0.0.1', localAddress })),
  } as BotOptions;
  const bot = mineflayer.createBot(options);
  bot.on('error', () => {});
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${username} did not spawn within ${timeoutMs} ms`)), timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      bot.end();
      reject(error);
    };
    bot.once('spawn', () => {
      clearTimeout(timer);
      resolve(bot);
    });
    bot.once('kicked', (reason) => fail(new Error(`${username} refused: ${JSON.stringify(reason)}`)));
    bot.once('end', (reason) => fail(new Error(`${username} disconnected: ${reason}`)));
  });
}

async function statusOf(server: BenchServer, gameId: string): Promise<Status> {
  return server.call<Status>(OWNER, 'GET', `/v1/game/${gameId}/status`);
}

async function until(server: BenchServer, gameId: string, wanted: string, timeoutMs = 180_000): Promise<Status> {
  for (const end = Date.now() + timeoutMs; ; await sleep(100)) {
    const now = await statusOf(server, gameId);
    if (now.status === wanted) return now;
    if (now.status === 'CRASHED' || Date.now() > end) throw new Error(`game ${gameId} ${now.status}, not ${wanted}`);
  }
}

/** Moves the games' clock a minute on at each look until the reconciler has put the empty server to sleep. */
async function putToSleep(server: BenchServer, gameId: string): Promise<void> {
  for (const end = Date.now() + 120_000; ; await sleep(250)) {
    const { status } = await statusOf(server, gameId);
    if (status === 'SLEEPING') return;
    if (Date.now() > end || (status !== 'RUNNING' && status !== 'STARTING')) throw new Error(`game ${gameId} ${status}, not asleep`);
    // Only a running server's minutes are skipped: a start's own time limit is the real one.
    if (status === 'RUNNING') await server.ask({ ahead: 60_000 });
  }
}

async function create(server: BenchServer, offer: { definitionId: string; packageId: string }, owner: string, name: string, addressName?: string): Promise<{ id: string; addressName: string }> {
  return server.call<{ id: string; addressName: string }>(owner, 'POST', '/v1/game/create', { ...offer, name, ...(addressName ? { addressName } : {}) });
}

const portOf = (address: string) => Number(address.split(':').pop());

/** The pids under `pid`, children first found through /proc. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => (parents.get(p) ?? []).forEach((c) => (out.push(c), walk(c)));
  walk(pid);
  return out;
}

function pssMb(pid: number): number {
  return Number(/Pss:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))![1]) / 1024;
}

/** One join's times from the client's first byte: the game seen STARTING (its wake asked), RUNNING, and the player spawned. */
interface Join {
  startingMs: number;
  runningMs: number;
  spawnMs: number;
}

async function wakeJoins(server: BenchServer, gameId: string, gatewayPort: number, host: string): Promise<Join[]> {
  const joins: Join[] = [];
  // The first join is a warm-up (the client's code, the API's first wake); each join comes from an address of its own.
  for (let i = 0; i <= JOINS; i++) {
    await putToSleep(server, gameId);
    const started = performance.now();
    const seen: Record<string, number> = {};
    let watching = true;
    // The game's status as its owner's page reads it, every 100 ms: where the time goes.
    const watcher = (async () => {
      while (watching) {
        const { status } = await statusOf(server, gameId);
        seen[status] ??= performance.now() - started;
        await sleep(100);
      }
    })();
    const bot = await joinFrom(gatewayPort, host, `Sleeper_${i}`, `127.0.0.${i + 2}`);
    const spawnMs = performance.now() - started;
    watching = false;
    await watcher;
    await quit(bot);
    const join = { startingMs: seen.STARTING ?? NaN, runningMs: seen.RUNNING ?? NaN, spawnMs };
    if (i > 0) joins.push(join);
    const at = (v: number) => `${(v / 1000).toFixed(1)} s`;
    console.log(`  join ${i} of the sleeping server${i === 0 ? ' (warm-up)' : ''}: STARTING at ${at(join.startingMs)}, RUNNING at ${at(join.runningMs)}, spawned at ${at(spawnMs)}`);
  }
  return joins;
}

const DOWNLOADS = 5;

/**
 * A running server joined `DOWNLOADS` times straight on its own port and as many through the
 * gateway by name, in turns (so neither has a quiet moment alone): the world as a player downloads
 * it, chunks generated or read by the server; the API's gateway hands the connection to the
 * server's process, so none is copied on the way.
 */
async function worldDownloads(gatewayPort: number, directPort: number, host: string): Promise<SleepFigures['worldDownload']> {
  const times: Record<'direct' | 'gateway', Array<{ spawn: number; chunks: number; bytes: number }>> = { direct: [], gateway: [] };
  // One warm-up each, not counted: the client's code and the chunks around the spawn the first time.
  for (let i = 0; i <= DOWNLOADS; i++) {
    for (const way of ['direct', 'gateway'] as const) {
      const started = performance.now();
      const bot = await joinFrom(way === 'direct' ? directPort : gatewayPort, host, `Visit_${way.slice(0, 1)}${i}`, `127.0.3.${i + 1}`);
      const spawn = performance.now() - started;
      await bot.waitForChunksToLoad();
      const chunks = performance.now() - started;
      const bytes = (bot._client as unknown as { socket: net.Socket }).socket.bytesRead;
      await quit(bot);
      if (i > 0) times[way].push({ spawn, chunks, bytes });
    }
  }
  const p50 = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    );
  const of = (list: Array<{ spawn: number; chunks: number; bytes: number }>): Download => ({
    spawnP50Ms: p50(list.map((t) => t.spawn)),
    chunksP50Ms: p50(list.map((t) => t.chunks)),
    bytes: p50(list.map((t) => t.bytes)),
  });
  const figures = { joins: DOWNLOADS, direct: of(times.direct), gateway: of(times.gateway) };
  const at = (d: Download) => `spawned at ${(d.spawnP50Ms / 1000).toFixed(2)} s, chunks loaded at ${(d.chunksP50Ms / 1000).toFixed(2)} s`;
  console.log(`  a running server's world, p50 of ${DOWNLOADS} joins: direct ${at(figures.direct)}; through the gateway ${at(figures.gateway)}`);
  return figures;
}

async function cost(server: BenchServer, offer: { definitionId: string; packageId: string }, gatewayPort: number): Promise<CostFigures> {
  await server.collectGarbage();
  const apiRssBeforeMb = server.rssKb() / 1024;
  const ids: string[] = [];
  const names = new Map<string, string>();
  const owners = 10;
  for (let i = 0; i < COST_GAMES; i += 20) {
    const batch = Array.from({ length: Math.min(20, COST_GAMES - i) }, (_, j) => create(server, offer, `bench_host_${(i + j) % owners}`, `Hosted ${i + j}`));
    for (const game of await Promise.all(batch)) {
      ids.push(game.id);
      names.set(game.id, game.addressName);
    }
  }
  const awakeIds = ids.slice(0, AWAKE);
  const sleepingIds = ids.slice(AWAKE);
  await server.ask({ asleep: sleepingIds });

  // Each sleeping game's list entry read once through the gateway, so its memory holds all of them.
  for (let i = 0; i < sleepingIds.length; i += 25) {
    await Promise.all(sleepingIds.slice(i, i + 25).map((id) => statusPing(gatewayPort, `${names.get(id)}.localhost`)));
  }

  // As many of the awake ones as the machine starts in reasonable time, each visited once by a player through the gateway.
  const startTimesMs: number[] = [];
  const startedAt = performance.now();
  let awake = 0;
  for (const [i, id] of awakeIds.entries()) {
    const owner = `bench_host_${ids.indexOf(id) % owners}`;
    // Kept awake: left empty after its one visit, a server sleeps after 10 minutes by default, and
    // the starts of 50 take longer than that, so the first ones were asleep when the memory was read.
    await server.call(owner, 'PUT', `/v1/game/${id}/settings`, { sleepAfterMinutes: 0 });
    const t0 = performance.now();
    await server.call(owner, 'POST', `/v1/game/${id}/start`);
    for (;;) {
      const s = await server.call<Status>(owner, 'GET', `/v1/game/${id}/status`);
      if (s.status === 'RUNNING') break;
      if (s.status === 'CRASHED') throw new Error(`awake game ${i} crashed`);
      await sleep(100);
    }
    startTimesMs.push(performance.now() - t0);
    const bot = await joinFrom(gatewayPort, `${names.get(id)}.localhost`, `Visitor_${i}`, '127.0.1.1');
    await quit(bot);
    awake += 1;
    const last = startTimesMs.at(-1)!;
    if (last > START_GIVE_UP_MS || performance.now() - startedAt > STARTS_BUDGET_MS) {
      console.log(`  stopped starting servers after ${awake}: the last start took ${(last / 1000).toFixed(1)} s, ${((performance.now() - startedAt) / 1000).toFixed(0)} s in all`);
      break;
    }
  }
  // What the visits leave is collected by then, as bench games measures an idle server.
  await sleep(10_000);
  await server.collectGarbage();
  const servers = descendants(server.pid).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').length > 0;
    } catch {
      return false;
    }
  });
  const serversRssMb = servers.reduce((sum, pid) => sum + rssMb(pid), 0);
  const serversPssMb = servers.reduce((sum, pid) => sum + pssMb(pid), 0);
  const apiRssMb = rssMb(server.pid);
  const perServerPssMb = awake ? serversPssMb / awake : 0;
  const extrapolated = awake < AWAKE;
  return {
    games: ids.length,
    sleeping: sleepingIds.length,
    awakeAsked: AWAKE,
    awake,
    startTimesMs: startTimesMs.map(Math.round),
    apiRssBeforeMb,
    apiRssMb,
    apiFds: fdCount(server.pid),
    serversRssMb,
    serversPssMb,
    perServerRssMb: awake ? serversRssMb / awake : 0,
    perServerPssMb,
    totalMb: apiRssMb + (extrapolated ? perServerPssMb * AWAKE : serversPssMb),
    extrapolated,
  };
}

export async function sleepBench(): Promise<SleepFigures> {
  // The product's reconciler settings; ports for every awake server and the two games before them.
  const from = 12_000 + Math.floor(Math.random() * 40) * 250;
  const server = await startServer(
    { GAME_DRIVER: 'local', GAME_HOST: '127.0.0.1', GAME_PORT_RANGE: `${from}-${from + 2 * AWAKE + 20}`, GAME_GATEWAY_PORT: '0', GAME_DOMAIN: 'localhost' },
    { entry: 'bench/clock-server.ts' },
  );
  const bots: Bot[] = [];
  try {
    const offer = await freeOffer(server);
    const { id: sleepy } = await create(server, offer, OWNER, 'Sleepy bench', 'bench-sleepy');
    await server.call(OWNER, 'PUT', `/v1/game/${sleepy}/settings`, { sleepAfterMinutes: 5 });
    await server.call(OWNER, 'POST', `/v1/game/${sleepy}/start`);
    const { address } = await until(server, sleepy, 'RUNNING');
    const gatewayPort = portOf(address!);
    console.log(`bench gateway: the API's gateway on port ${gatewayPort}, a sleeping game joined ${JOINS} times`);
    const joins = await wakeJoins(server, sleepy, gatewayPort, 'bench-sleepy.localhost');
    await putToSleep(server, sleepy);

    // A running game beside the sleeping one, never put to sleep: the clock stays where it is from now on.
    const { id: awake } = await create(server, offer, OWNER, 'Awake bench', 'bench-awake');
    await server.call(OWNER, 'PUT', `/v1/game/${awake}/settings`, { sleepAfterMinutes: 0 });
    await server.call(OWNER, 'POST', `/v1/game/${awake}/start`);
    const running = await until(server, awake, 'RUNNING');
    const sleepingPings = await pingRate(gatewayPort, 'bench-sleepy.localhost');
    const runningPings = await pingRate(gatewayPort, 'bench-awake.localhost');
    const directPings = await pingRate(portOf(running.directAddress!), 'bench-awake.localhost');
    const worldDownload = await worldDownloads(gatewayPort, portOf(running.directAddress!), 'bench-awake.localhost');
    await server.call(OWNER, 'POST', `/v1/game/${awake}/stop`);
    await until(server, awake, 'STOPPED');
    if ((await statusOf(server, sleepy)).status !== 'SLEEPING') throw new Error('the pinged game woke up');

    console.log(`bench gateway: ${COST_GAMES} games hosted, ${AWAKE} of them awake`);
    const costFigures = await cost(server, offer, gatewayPort);
    const spawns = joins.map((j) => j.spawnMs).sort((a, b) => a - b);
    const p50 = (values: number[]) =>
      percentile(
        [...values].sort((a, b) => a - b),
        50,
      );
    return {
      wakeJoins: joins.length,
      wakeToSpawnMs: spawns.map(Math.round),
      wakeToSpawnP50Ms: percentile(spawns, 50),
      wakeToSpawnP95Ms: percentile(spawns, 95),
      toStartingP50Ms: p50(joins.map((j) => j.startingMs)),
      startingToRunningP50Ms: p50(joins.map((j) => j.runningMs - j.startingMs)),
      runningToSpawnP50Ms: p50(joins.map((j) => j.spawnMs - j.runningMs)),
      pings: {
        sleepingPerSecond: sleepingPings.perSecond,
        runningPerSecond: runningPings.perSecond,
        directPerSecond: directPings.perSecond,
        failed: sleepingPings.failed + runningPings.failed + directPings.failed,
      },
      worldDownload,
      cost: costFigures,
    };
  } finally {
    await Promise.all(bots.map((b) => quit(b).catch(() => {})));
    await server.stop();
  }
}
