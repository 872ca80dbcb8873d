import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GameSpec } from '../src/runtime/driver.ts';
import { LocalDriver } from '../src/runtime/local-driver.ts';
import { gameSpec, join, quit } from '../tests/fixtures/minecraft.ts';
import { percentile } from './load.ts';
import { startServer } from './server.ts';
import { freeOffer, gameServerEnv, runningAddress } from './whitelist.ts';

/**
 * `node bench/games.ts`: figures of the local game driver, with real flying-squid servers and a
 * real client (mineflayer):
 * - start → RUNNING (observe saw a status ping and an RCON login) and start → a bot spawned, over
 *   10 starts of new games (each start creates its world);
 * - RSS of an idle running server, 10 s after the bot left, against the baseline of the same run:
 *   servers started with Node's default flags (the driver's lean flags off);
 * - how many idle servers (each visited once by a bot, so holding its spawn chunks) the machine
 *   holds before a start takes twice as long as on an empty machine (at most 160).
 * `gamesBench()` answers the figures and their table rows; run alone, it prints the table, or the
 * figures as JSON with `--json`.
 */
const starts = 10;
const maxServers = 160;
let driver: LocalDriver;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rssMb(pid: number, field: 'VmRSS' | 'RssAnon' | 'RssFile' = 'VmRSS'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]) / 1024;
}

/** How long a server has had nobody on it when its memory is read: what the garbage of the visit leaves is collected by then. */
const idleMs = 10_000;

/** RSS of idle servers (each visited once, then left for `idleMs`): all of it, and its anonymous part (heap, malloc). */
async function idleRss(on: LocalDriver, count: number, label: string): Promise<{ rss: number[]; anon: number[] }> {
  const rss: number[] = [];
  const anon: number[] = [];
  for (let i = 0; i < count; i++) {
    const game = gameSpec(`${label}-${i}`);
    await timedStart(game, on);
    await visit(game, `${label}_${i}`, on);
    await sleep(idleMs);
    rss.push(rssMb(on.pid(game)!));
    anon.push(rssMb(on.pid(game)!, 'RssAnon'));
    await on.remove(game);
  }
  return { rss, anon };
}

/** Starts a game and times it to RUNNING; the driver is polled every 100 ms, as often as is useful. */
async function timedStart(game: GameSpec, on = driver): Promise<number> {
  const t0 = performance.now();
  await on.start(game);
  for (;;) {
    const seen = await on.observe(game);
    if (seen.status === 'RUNNING') return performance.now() - t0;
    if (seen.status === 'CRASHED' || seen.status === 'STOPPED') throw new Error(`game ${game.id} ${seen.status}: ${seen.reason ?? ''}`);
    await sleep(100);
  }
}

async function startToJoin(): Promise<{ running: number[]; joined: number[] }> {
  const running: number[] = [];
  const joined: number[] = [];
  for (let i = 0; i < starts; i++) {
    const game = gameSpec(`start-${i}`);
    const t0 = performance.now();
    running.push(await timedStart(game));
    await visit(game, `Bench_${i}`);
    joined.push(performance.now() - t0);
    await driver.remove(game);
  }
  return { running, joined };
}

/** Joins with a bot and leaves, as a player would: the server then holds its spawn chunks. */
async function visit(game: GameSpec, name: string, on = driver): Promise<void> {
  const { port } = JSON.parse(fs.readFileSync(path.join(on.dir(game), 'blockhost-server.json'), 'utf8')) as { port: number };
  const result = await join(port, name, game.version);
  if (!result.joined) throw new Error(`bot refused: ${result.reason}`);
  await quit(result.bot);
}

/**
 * Starts idle servers one after the other until the median of the last 5 starts is twice the
 * empty machine's (one slow start is noise: a neighbour's GC or world save) or `maxServers` run.
 */
async function capacity(baselineMs: number): Promise<{ held: number; times: number[]; totalRssMb: number; lastP50Ms: number }> {
  const times: number[] = [];
  const games: GameSpec[] = [];
  const recentP50 = () => percentile(sorted(times.slice(-5)), 50);
  for (let i = 0; i < maxServers; i++) {
    const game = gameSpec(`idle-${i}`);
    games.push(game);
    times.push(await timedStart(game));
    if (times.length >= 5 && recentP50() >= 2 * baselineMs) break;
    await visit(game, `Idle_${i}`);
  }
  await sleep(idleMs);
  const totalRssMb = games.reduce((sum, g) => sum + rssMb(driver.pid(g)!), 0);
  const doubled = times.length >= 5 && recentP50() >= 2 * baselineMs;
  // The server whose start doubled the median is not counted as held comfortably.
  return { held: doubled ? games.length - 1 : games.length, times, totalRssMb, lastP50Ms: recentP50() };
}

const sorted = (v: number[]) => [...v].sort((a, b) => a - b);
const ms = (v: number) => `${v.toFixed(0)} ms`;

/**
 * What a player sees: `POST /v1/game/{id}/start` → the status call answers RUNNING with an address,
 * and → a bot spawned, through the real server with its default reconciler settings. Each game is
 * new (its world is generated) and stopped before the next start, so each starts alone.
 */
async function apiStarts(): Promise<{ running: number[]; joined: number[] }> {
  // The product's reconciler settings; a game keeps its two ports once given, so room for all of them.
  const { GAME_RECONCILE_INTERVAL_MS: _, ...env } = gameServerEnv();
  // Below the ephemeral ports and the driver's own range (20000 and up), as in `gamesBench`.
  const from = 12_000 + Math.floor(Math.random() * 300) * 20;
  const server = await startServer({ ...env, GAME_PORT_RANGE: `${from}-${from + 2 * starts + 1}` });
  const owner = 'bench_api_owner';
  const running: number[] = [];
  const joined: number[] = [];
  try {
    const offer = await freeOffer(server);
    for (let i = 0; i < starts; i++) {
      const game = await server.call(owner, 'POST', '/v1/game/create', { ...offer, name: `API start ${i}` });
      const t0 = performance.now();
      await server.call(owner, 'POST', `/v1/game/${game.id}/start`);
      const address = await runningAddress(server, owner, game.id);
      running.push(performance.now() - t0);
      const result = await join(Number(address.split(':').pop()), `Api_${i}`, '1.21.4');
      if (!result.joined) throw new Error(`bot refused: ${result.reason}`);
      joined.push(performance.now() - t0);
      await quit(result.bot);
      await server.call(owner, 'POST', `/v1/game/${game.id}/stop`);
      while ((await server.call<{ status: string }>(owner, 'GET', `/v1/game/${game.id}/status`)).status !== 'STOPPED') await sleep(100);
    }
  } finally {
    await server.stop();
  }
  return { running, joined };
}

export interface GamesFigures {
  cpus: number;
  apiStartToRunningP50Ms: number;
  apiStartToRunningP95Ms: number;
  apiStartToJoinP50Ms: number;
  apiStartToJoinP95Ms: number;
  startToRunningP50Ms: number;
  startToRunningP95Ms: number;
  startToJoinP50Ms: number;
  startToJoinP95Ms: number;
  idleRssP50Mb: number;
  idleAnonP50Mb: number;
  baselineIdleRssP50Mb: number;
  baselineIdleAnonP50Mb: number;
  idleServersHeld: number;
  capacityStartTimesMs: number[];
  capacityTotalRssMb: number;
  capacityLastStartsP50Ms: number;
}

/** Runs the game-driver figures with a driver of its own, in a folder it removes after. */
export async function gamesBench(): Promise<{ figures: GamesFigures; rows: Array<[string, string]> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-bench-games-'));
  // Below Linux's ephemeral ports (32768 and up), which the machine's own connections take at random.
  const from = 20_000 + Math.floor(Math.random() * 30) * 400;
  driver = new LocalDriver({ dataDir, host: '127.0.0.1', portRange: { from, to: from + 2 * maxServers + 9 } });
  try {
    const api = await apiStarts();
    const { running, joined } = await startToJoin();
    const lean = await idleRss(driver, 5, 'lean');
    // The baseline of the same run: the same servers with Node's default flags.
    const baselineDriver = new LocalDriver({ dataDir, host: '127.0.0.1', portRange: { from: from + 2 * maxServers + 10, to: from + 2 * maxServers + 19 }, serverFlags: [] });
    const baseline = await idleRss(baselineDriver, 5, 'default').finally(() => baselineDriver.close());
    const p50Running = percentile(sorted(running), 50);
    const cap = await capacity(p50Running);
    const figures: GamesFigures = {
      cpus: os.cpus().length,
      apiStartToRunningP50Ms: percentile(sorted(api.running), 50),
      apiStartToRunningP95Ms: percentile(sorted(api.running), 95),
      apiStartToJoinP50Ms: percentile(sorted(api.joined), 50),
      apiStartToJoinP95Ms: percentile(sorted(api.joined), 95),
      startToRunningP50Ms: p50Running,
      startToRunningP95Ms: percentile(sorted(running), 95),
      startToJoinP50Ms: percentile(sorted(joined), 50),
      startToJoinP95Ms: percentile(sorted(joined), 95),
      idleRssP50Mb: percentile(sorted(lean.rss), 50),
      idleAnonP50Mb: percentile(sorted(lean.anon), 50),
      baselineIdleRssP50Mb: percentile(sorted(baseline.rss), 50),
      baselineIdleAnonP50Mb: percentile(sorted(baseline.anon), 50),
      idleServersHeld: cap.held,
      capacityStartTimesMs: cap.times.map(Math.round),
      capacityTotalRssMb: cap.totalRssMb,
      capacityLastStartsP50Ms: cap.lastP50Ms,
    };
    const rows: Array<[string, string]> = [
      ['machine', `${figures.cpus} CPUs, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`],
      [`POST start → status RUNNING (API, ${starts} new games)`, `p50 ${ms(figures.apiStartToRunningP50Ms)}, p95 ${ms(figures.apiStartToRunningP95Ms)}`],
      ['POST start → bot spawned (API)', `p50 ${ms(figures.apiStartToJoinP50Ms)}, p95 ${ms(figures.apiStartToJoinP95Ms)}`],
      [`  of which the driver: start → RUNNING`, `p50 ${ms(figures.startToRunningP50Ms)}, p95 ${ms(figures.startToRunningP95Ms)}`],
      ['  driver: start → bot spawned', `p50 ${ms(figures.startToJoinP50Ms)}, p95 ${ms(figures.startToJoinP95Ms)}`],
      [
        `RSS of an idle server, ${idleMs / 1000} s after a visit (target ≤ 120 MB)`,
        `p50 ${figures.idleRssP50Mb.toFixed(0)} MB, of which ${figures.idleAnonP50Mb.toFixed(0)} MB anonymous (heap, malloc); the rest is the shared node binary`,
      ],
      [
        '  baseline, same run: Node defaults',
        `p50 ${figures.baselineIdleRssP50Mb.toFixed(0)} MB, of which ${figures.baselineIdleAnonP50Mb.toFixed(0)} MB anonymous (${((100 * figures.idleRssP50Mb) / figures.baselineIdleRssP50Mb).toFixed(0)} % of it now)`,
      ],
      [`idle servers held before the median start time doubles (max ${maxServers}, target ≥ 150)`, `${cap.held}${cap.held === maxServers ? '+' : ''}`],
      [
        '  start → RUNNING with 0, 10, 20… servers up',
        cap.times
          .filter((_, i) => i % 10 === 0 || i === cap.times.length - 1)
          .map((t) => `${Math.round(t)}`)
          .join(', ') + ' ms',
      ],
      [`  start → RUNNING, last 5 starts (target p50 ≤ 1.5 s)`, `p50 ${ms(cap.lastP50Ms)} with ${cap.times.length - 1} servers up`],
      ['  RSS of those servers', `${cap.totalRssMb.toFixed(0)} MB in all`],
    ];
    return { figures, rows };
  } finally {
    await driver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { figures, rows } = await gamesBench();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(figures));
  } else {
    const width = Math.max(...rows.map(([k]) => k.length));
    for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
  }
}
