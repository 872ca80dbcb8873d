import fs from 'node:fs';
import os from 'node:os';
import { load, percentile } from './load.ts';
import { startServer, type BenchServer } from './server.ts';
import { openMany } from './streams.ts';
import { gamesBench } from './games.ts';
import { JS_BUDGET_KB, LCP_TARGET_MS, webFigures } from './web.ts';
import { importBench } from './social.ts';
import { gameServerEnv, groupWhitelistBench } from './whitelist.ts';
import { soakBench } from './soak.ts';
import { webhookBench } from './payments.ts';
import { renewalsBench } from './renewals.ts';
import { STAFF_TARGETS_MS, staffListsBench } from './staff.ts';
import { liveBench } from './live.ts';
import { backupsBench } from './backups.ts';
import { consoleBench, consoleFloodBench } from './console.ts';
import { HELD_CONNECTIONS, gatewayBench } from './gateway.ts';
import { sleepBench } from './gateway-sleep.ts';
import { RANKED_TARGETS_MS, rankedBench } from './ranked.ts';
import { startCluster } from '../tests/replicas/cluster.ts';

/**
 * `npm run bench [-- spine|games|social ...]`: figures from runs against the real server (PGlite, or
 * PostgreSQL with DATABASE_URL) and real game servers, each with its target when it has one.
 * - spine: API throughput, notification streams held, fan-out, and `GET /v1/user` through two replicas
 *   against one;
 * - games: the local driver's start times, memory per idle server and capacity;
 * - social: a 200-name group import, and a 200-member group added to a running server's whitelist;
 * - web: JavaScript a first visit to / downloads (gzip, built files) and its largest contentful paint
 *   (after `npm run build`);
 * - payments: Stripe webhook events applied per second (against a local fake of Stripe's API), and
 *   1 000 game renewals coming due at the same instant;
 * - soak: 10 minutes (SOAK_MINUTES) of mixed player traffic with real game servers: errors and memory;
 * - staff: the back office's ledger and user lists over 1 000 000 ledger rows and 100 000 users, on
 *   PostgreSQL (STAFF_BENCH_DATABASE_URL, default the local `test` database's server);
 * - live: a game's status change, from its commit to the change event on its owner's open stream;
 * - backups: world backups and restores with the local driver (a 200 MB world, the API side's
 *   memory, the pause a player sees during a running server's snapshot, 10 games at once);
 * - console: a line a real server prints until it is on an open console stream, with one and with
 *   100 consoles open on the game; the API's event-loop delay while a server prints 1 000 lines a
 *   second, against the same seconds quiet;
 * - catalogue: the public catalogue and credit packs read by 32 clients, against /healthz in the
 *   same run, and the same reads by staff, which are not kept in memory (drafts, archived packs).
 * - gateway: bytes through the game gateway, handing the connection to a local server's process and
 *   copying (as a process of its own does), against a direct connection and a plain Node proxy in
 *   the same run, the latency each adds to a small packet, 2 000 logins held and 2 000 pings at once;
 *   then in the real API: a sleeping server joined by name until the player spawns, status pings per
 *   second (sleeping and running games), and 1 000 games hosted with 50 awake, with the memory used.
 * - ranked: from "matched" to both players in the match server (real servers on the local driver,
 *   mineflayer clients), and a leaderboard page over 100 000 rated players, both on PostgreSQL
 *   (RANKED_BENCH_DATABASE_URL, default the local `test` database's server);
 * Without a section name, all of them but the soak, staff and ranked, which are asked by name. Figures are written to bench/results/latest.json.
 */
const sections = ['spine', 'catalogue', 'games', 'social', 'web', 'payments', 'live', 'backups', 'console', 'gateway', 'soak', 'staff', 'ranked'] as const;
type Section = (typeof sections)[number];
const asked = process.argv.slice(2).filter((a) => a !== '--');
const unknown = asked.filter((a) => !(sections as readonly string[]).includes(a));
if (unknown.length) {
  console.error(`unknown bench section ${unknown.join(', ')}: expected ${sections.join(', ')}`);
  process.exit(2);
}
const chosen = new Set<Section>(asked.length ? (asked as Section[]) : sections.filter((s) => s !== 'soak' && s !== 'staff' && s !== 'ranked'));

const results: Record<string, unknown> = {};
const rows: Array<[string, string, string, boolean | null]> = [];
const row = (name: string, value: string, target: string, ok: boolean | null) => rows.push([name, value, target, ok]);
const ms = (v: number) => `${v.toFixed(1)} ms`;

async function apiThroughput(server: BenchServer) {
  const token = server.token('bench_user');
  const health = await load(`${server.origin}/healthz`, {});
  const user = await load(`${server.origin}/v1/user`, { authorization: `Bearer ${token}` });
  const ratio = user.rps / health.rps;
  Object.assign(results, { healthzRps: health.rps, healthzP99Ms: health.p99, userRps: user.rps, userP99Ms: user.p99, userToHealthzRatio: ratio });
  row('GET /healthz', `${health.rps.toFixed(0)} req/s, p99 ${ms(health.p99)}`, 'baseline', health.errors === 0);
  row('GET /v1/user (bearer)', `${user.rps.toFixed(0)} req/s, p99 ${ms(user.p99)}`, '', user.errors === 0);
  row('  ratio user / healthz', `${(ratio * 100).toFixed(1)} %`, '≥ 30 %', ratio >= 0.3);
}

async function streamsHeld(server: BenchServer) {
  const tokens = Array.from({ length: 50 }, (_, i) => server.token(`stream_user_${i}`));
  // Each user's row is made by its first call, not counted in the streams' memory.
  await Promise.all(tokens.map((t) => fetch(`${server.origin}/v1/user`, { headers: { authorization: `Bearer ${t}` } })));
  const count = 5000;
  // A first, small batch warms the code paths so the measure is of streams, not of JIT and pools.
  const warm = await openMany(server.origin, tokens, 100, () => {});
  await new Promise((r) => setTimeout(r, 1000));
  await server.collectGarbage();
  const before = server.rssKb();
  const streams = await openMany(server.origin, tokens, count, () => {});
  await new Promise((r) => setTimeout(r, 3000));
  await server.collectGarbage();
  const after = server.rssKb();
  const perStream = (after - before) / count;
  Object.assign(results, { streamsHeld: streams.length, memoryPerStreamKb: perStream, rssBeforeKb: before, rssAfterKb: after });
  row('open notification streams held', `${streams.length}`, '5 000', streams.length >= 5000);
  row('  memory per stream', `${perStream.toFixed(1)} kB (RSS ${(before / 1024).toFixed(0)} → ${(after / 1024).toFixed(0)} MB)`, '≤ 30 kB', perStream <= 30);
  for (const s of [...streams, ...warm]) s.close();
  await new Promise((r) => setTimeout(r, 1000));
}

async function fanOut(server: BenchServer) {
  const token = server.token('fanout_user');
  const arrivals = new Map<string, number[]>();
  const streams = await openMany(server.origin, [token], 1000, (_stream, id) => {
    const list = arrivals.get(id) ?? [];
    list.push(performance.now());
    arrivals.set(id, list);
  });
  await new Promise((r) => setTimeout(r, 500));
  const p50s: number[] = [];
  const p99s: number[] = [];
  for (let round = 0; round < 5; round++) {
    const sent = performance.now();
    const res = await fetch(`${server.origin}/v1/user/notification`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    const { id } = (await res.json()) as { id: string };
    const deadline = Date.now() + 10_000;
    while ((arrivals.get(id)?.length ?? 0) < 1000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    const times = (arrivals.get(id) ?? []).map((t) => t - sent).sort((a, b) => a - b);
    if (times.length < 1000) throw new Error(`only ${times.length} of 1000 streams got notification ${id}`);
    p50s.push(percentile(times, 50));
    p99s.push(percentile(times, 99));
    await new Promise((r) => setTimeout(r, 300));
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  Object.assign(results, { fanOut1000P50Ms: median(p50s), fanOut1000P99Ms: median(p99s) });
  row('one notification to 1 000 streams: p50', ms(median(p50s)), '', null);
  row('  p99', ms(median(p99s)), '≤ 200 ms', median(p99s) <= 200);
  for (const s of streams) s.close();
}

/**
 * `GET /v1/user` through two replicas (tests/replicas/cluster.ts: PostgreSQL, Redis, one bucket),
 * against one of them alone in the same run, with the same 50 clients in all.
 */
async function twoReplicas() {
  const cluster = await startCluster({ RATE_LIMIT_API_PER_MINUTE: '10000000' });
  try {
    const [a, b] = cluster.replicas;
    console.log(`bench spine: two replicas ${a.origin} and ${b.origin} (PostgreSQL, Redis)`);
    const headers = { authorization: `Bearer ${await cluster.token('bench_user')}` };
    const one = await load(`${a.origin}/v1/user`, headers);
    const halves = await Promise.all([a, b].map((r) => load(`${r.origin}/v1/user`, headers, { concurrency: 25 })));
    const both = halves[0]!.rps + halves[1]!.rps;
    const errors = halves[0]!.errors + halves[1]!.errors;
    Object.assign(results, { userOneReplicaRps: one.rps, userTwoReplicasRps: both, twoReplicasRatio: both / one.rps });
    row('GET /v1/user, one replica (PostgreSQL, Redis)', `${one.rps.toFixed(0)} req/s, p99 ${ms(one.p99)}`, 'baseline', one.errors === 0);
    // Two replicas only add throughput where cores are free: the client runs on the same machine.
    row(`  through two replicas (${os.availableParallelism()} cores)`, `${both.toFixed(0)} req/s (${(both / one.rps).toFixed(2)} × one)`, '', errors === 0);
  } finally {
    await cluster.stop();
  }
}

async function spine() {
  const server = await startServer();
  try {
    console.log(`bench spine: server ${server.origin} (database ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`);
    await apiThroughput(server);
    await streamsHeld(server);
    await fanOut(server);
  } finally {
    await server.stop();
  }
  await twoReplicas();
}

async function games() {
  console.log('bench games: local driver, flying-squid servers and a mineflayer client');
  const { figures, rows: table } = await gamesBench();
  Object.assign(results, { games: figures });
  for (const [name, value] of table) row(name, value, '', null);
}

async function social() {
  const server = await startServer(gameServerEnv());
  try {
    console.log(`bench social: server ${server.origin} with the local game driver`);
    const imported = await importBench(server);
    row('import 200 names into a friend group', `p50 ${ms(imported.p50Ms)}, p99 ${ms(imported.p99Ms)}`, '', null);
    row('  same 200 names again', `p50 ${ms(imported.repeatP50Ms)}`, '', null);
    const whitelist = await groupWhitelistBench(server);
    row("200-member group → running server's whitelist", `p50 ${ms(whitelist.addP50Ms)}, max ${ms(whitelist.addMaxMs)} (${whitelist.runs} runs)`, '', null);
    row('  removing it again', `p50 ${ms(whitelist.removeP50Ms)}`, '', null);
    Object.assign(results, { socialImport: imported, groupWhitelist: whitelist });
  } finally {
    await server.stop();
  }
}

async function web() {
  const figures = await webFigures();
  Object.assign(results, { homeJsGzipKb: figures.jsGzipKb, homeLcpMedianMs: figures.lcpMedianMs });
  row('JS downloaded by / (gzip, built files)', `${figures.jsGzipKb.toFixed(1)} kB in ${figures.jsFiles} files`, `≤ ${JS_BUDGET_KB} kB`, figures.jsGzipKb <= JS_BUDGET_KB);
  row(
    'largest contentful paint of / (median of 5)',
    `${ms(figures.lcpMedianMs)} (${figures.lcpRunsMs.map((v) => v.toFixed(0)).join(', ')})`,
    `≤ ${LCP_TARGET_MS} ms`,
    figures.lcpMedianMs <= LCP_TARGET_MS,
  );
}

async function payments() {
  console.log(`bench payments: server with the stripe provider on a local fake Stripe (database ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`);
  const f = await webhookBench();
  Object.assign(results, { webhooks: f });
  row('Stripe webhook events applied', `${f.perSecond.toFixed(0)}/s (${f.events} events, 20 at once)`, '≥ 200/s', f.perSecond >= 200);
  row(`  latency at a steady ${f.rate}/s`, `p50 ${ms(f.p50Ms)}, p99 ${ms(f.p99Ms)} (${f.events} other events)`, '≤ 50 ms', f.p99Ms <= 50);
  row('  server CPU per event', ms(f.serverCpuMsPerEvent), '', null);
  row(
    '  the same events replayed',
    `${f.replayPerSecond.toFixed(0)}/s, server CPU ${ms(f.replayCpuMsPerEvent)} each; credited once: ${f.creditedOnce ? 'yes' : 'NO'}; errors ${f.errors}`,
    '',
    f.creditedOnce && f.errors === 0,
  );
  const r = await renewalsBench();
  Object.assign(results, { renewals: r });
  row(`${r.games} game renewals due at once → PAID or EXPIRED`, `p50 ${ms(r.p50Ms)}, p99 ${ms(r.p99Ms)}, max ${ms(r.maxMs)}`, '≤ 5 s', r.p99Ms <= 5000 && r.unsettled === 0);
  row(
    '  outcomes',
    `${r.paid} PAID, ${r.expired} EXPIRED, ${r.unsettled} unsettled; ${r.problems.length ? `${r.problems.length} wrong (${r.problems[0]})` : 'each as expected'}`,
    '',
    r.problems.length === 0 && r.unsettled === 0,
  );
}

async function live() {
  console.log(`bench live: game status changes to the owner's stream (database ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`);
  const f = await liveBench();
  Object.assign(results, { liveChanges: f });
  row(`game status change → its owner's stream (${f.changes} changes)`, `p50 ${ms(f.p50Ms)}, max ${ms(f.maxMs)}`, '', null);
  row('  p99', ms(f.p99Ms), '≤ 500 ms', f.p99Ms <= 500);
}

async function backups() {
  console.log('bench backups: local driver, world tool and flying-squid launcher, a mineflayer client');
  const { figures, rows: table } = await backupsBench();
  Object.assign(results, { backups: figures });
  for (const [name, value, target, ok] of table) row(name, value, target, ok);
}

async function consoleSection() {
  console.log('bench console: a flying-squid server run by the local driver, its lines on open console streams');
  const f = await consoleBench();
  Object.assign(results, { console: f });
  row(`server line (say over RCON) → an open console (${f.one.lines} lines)`, `p50 ${ms(f.one.p50Ms)}, max ${ms(f.one.maxMs)}`, '', null);
  row('  p99', ms(f.one.p99Ms), '≤ 200 ms', f.one.p99Ms <= 200);
  row(
    `  with ${f.hundred.streams} consoles open on the game (${f.hundred.deliveries} deliveries of ${f.hundred.lines} lines)`,
    `p50 ${ms(f.hundred.p50Ms)}, p99 ${ms(f.hundred.p99Ms)}, max ${ms(f.hundred.maxMs)}`,
    '',
    null,
  );
  row('  API event-loop delay meanwhile, p99', ms(f.hundred.loopDelayP99Ms), '', null);
  const flood = await consoleFloodBench();
  Object.assign(results, { consoleFlood: flood });
  row('API event-loop delay, 10 s with one console open, p99', ms(flood.quietLoopDelayP99Ms), 'baseline', null);
  row(`  while the server prints ${flood.printed} lines in those 10 s`, ms(flood.floodLoopDelayP99Ms), '≤ 50 ms', flood.floodLoopDelayP99Ms <= 50);
  row('  ratio flood / quiet', `${(flood.floodLoopDelayP99Ms / flood.quietLoopDelayP99Ms).toFixed(2)} ×`, '', null);
  row('  lines the console received (markers counted)', `${flood.received} (${flood.counted})`, `< 3 000 (${flood.printed})`, flood.received < 3000 && flood.counted === flood.printed);
}

async function gatewaySection() {
  console.log(
    `bench gateway: a client, a target, a plain Node proxy, the game gateway copying and the game gateway handing connections to its own target child, each in a process of its own, over loopback (load ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores)`,
  );
  const f = await gatewayBench();
  Object.assign(results, { gateway: f });
  const ratio = f.gatewayMBps / f.directMBps;
  const handedRatio = f.handedMBps / f.directMBps;
  const toPlain = f.gatewayMBps / f.plainProxyMBps;
  row('bytes to a client, direct', `${f.directMBps.toFixed(0)} MB/s`, 'baseline', null);
  row(
    '  through a plain Node proxy (pipe)',
    `${f.plainProxyMBps.toFixed(0)} MB/s (${((100 * f.plainProxyMBps) / f.directMBps).toFixed(1)} % of direct), CPU ${f.plainProxyCpuMsPerMB.toFixed(2)} ms/MB`,
    'baseline',
    null,
  );
  // The API's gateway to the local driver's flying-squid servers (`npm start`): the connection is the server's, nothing copied.
  row(
    '  through the gateway, handed to a local server (the API and its children)',
    `${f.handedMBps.toFixed(0)} MB/s (${(handedRatio * 100).toFixed(1)} % of direct), gateway CPU ${f.handedCpuMsPerMB.toFixed(2)} ms/MB`,
    '≥ 90 %',
    handedRatio >= 0.9,
  );
  // A gateway process of its own, Agones, a jar: every byte copied.
  row(
    '  through the gateway, copying (its own process, Agones, jars)',
    `${f.gatewayMBps.toFixed(0)} MB/s (${(ratio * 100).toFixed(1)} % of direct), CPU ${f.gatewayCpuMsPerMB.toFixed(2)} ms/MB`,
    '≥ 90 %',
    ratio >= 0.9,
  );
  // The same copy with a core of its own, as the gateway's Deployment has its own node in production.
  if (f.ownCore) {
    const own = f.ownCore.gatewayMBps / f.ownCore.directMBps;
    row('  with a core of its own: direct (client and target on the other core)', `${f.ownCore.directMBps.toFixed(0)} MB/s`, 'baseline', null);
    row('    through the gateway copying', `${f.ownCore.gatewayMBps.toFixed(0)} MB/s (${(own * 100).toFixed(1)} % of direct)`, '≥ 90 %', own >= 0.9);
  }
  row(
    '  gateway copying against the plain proxy',
    `${(toPlain * 100).toFixed(1)} % of its bytes/s, ${((100 * f.gatewayCpuMsPerMB) / f.plainProxyCpuMsPerMB).toFixed(0)} % of its CPU per MB`,
    '≥ 90 %',
    toPlain >= 0.9,
  );
  // What copying costs where it matters: a server's uplink, not loopback's unbounded rate.
  row('  gateway CPU for a full 1 Gbit/s of players, copying', `${((f.gatewayCpuMsPerMB * 119) / 10).toFixed(0)} % of one core`, '', null);
  const us = (v: number) => `${(v * 1000).toFixed(0)} µs`;
  row('64-byte round trip, direct', `p50 ${us(f.directRttP50Ms)}, p99 ${us(f.directRttP99Ms)}`, 'baseline', null);
  row('  through the plain proxy', `p99 ${us(f.plainProxyRttP99Ms)}`, 'baseline', null);
  row('  through the gateway, copying', `p50 ${us(f.gatewayRttP50Ms)}, p99 ${us(f.gatewayRttP99Ms)}`, '', null);
  row('  through the gateway, handed', `p50 ${us(f.handedRttP50Ms)}, p99 ${us(f.handedRttP99Ms)}`, '', null);
  row(
    '  added per packet by the copy, one way, p99',
    `${us(f.addedPerPacketP99Ms)} (the plain proxy: ${us(Math.max(0, (f.plainProxyRttP99Ms - f.directRttP99Ms) / 2))})`,
    '≤ 1 ms',
    f.addedPerPacketP99Ms <= 1,
  );
  const h = f.held;
  row(
    `logins held at once through one gateway process`,
    `${h.connections}: RSS ${h.idleRssMb.toFixed(0)} → ${h.heldRssMb.toFixed(0)} MB (${h.perConnectionKb.toFixed(1)} kB each), fds ${h.idleFds} → ${h.heldFds}`,
    '2 000',
    h.connections >= HELD_CONNECTIONS,
  );
  const p = f.concurrentPings;
  row('  status pings at once, answered from memory', `${p.answered} of ${p.pings} in ${p.seconds.toFixed(1)} s`, 'all', p.answered === p.pings);

  const s = await sleepBench();
  Object.assign(results, { gatewaySleep: s });
  row(
    `sleeping server joined by name → player spawned (${s.wakeJoins} joins)`,
    `p50 ${ms(s.wakeToSpawnP50Ms)}, p95 ${ms(s.wakeToSpawnP95Ms)}, max ${ms(s.wakeToSpawnMs.at(-1)!)}`,
    'p50 ≤ 2 s',
    s.wakeToSpawnP50Ms <= 2000,
  );
  row(
    '  stages, p50: wake asked (STARTING) / server start (→ RUNNING) / login and world (→ spawn)',
    `${ms(s.toStartingP50Ms)} / ${ms(s.startingToRunningP50Ms)} / ${ms(s.runningToSpawnP50Ms)}`,
    '',
    null,
  );
  row("status pings/s through the API's gateway, sleeping game (from memory)", `${s.pings.sleepingPerSecond.toFixed(0)}/s`, '', s.pings.failed === 0);
  row('  running game, through the gateway (handed to the server)', `${s.pings.runningPerSecond.toFixed(0)}/s`, '', s.pings.failed === 0);
  row('  running game, its own port', `${s.pings.directPerSecond.toFixed(0)}/s (failed pings in all: ${s.pings.failed})`, 'baseline', s.pings.failed === 0);
  const w = s.worldDownload;
  const download = (d: typeof w.direct) => `spawn ${ms(d.spawnP50Ms)}, chunks loaded ${ms(d.chunksP50Ms)} (${(d.bytes / 1024).toFixed(0)} kB read)`;
  row(`a running server's world as a player downloads it (${w.joins} joins each way, in turns), p50: direct`, download(w.direct), 'baseline', null);
  row('  through the gateway (handed to the server)', `${download(w.gateway)}: ${((100 * w.gateway.chunksP50Ms) / w.direct.chunksP50Ms).toFixed(0)} % of the direct time`, '', null);
  const c = s.cost;
  row(`${c.games} games hosted, ${c.sleeping} sleeping: the API's RSS`, `${c.apiRssBeforeMb.toFixed(0)} → ${c.apiRssMb.toFixed(0)} MB, ${c.apiFds} fds`, '', null);
  row(
    `  awake servers (asked ${c.awakeAsked}), each visited once`,
    `${c.awake} started (${c.startTimesMs.filter((_, i) => i % 10 === 0).join(', ')}… ms): RSS ${c.serversRssMb.toFixed(0)} MB, PSS ${c.serversPssMb.toFixed(0)} MB (${c.perServerPssMb.toFixed(0)} MB each)`,
    '',
    null,
  );
  row(`  API + ${c.awakeAsked} awake servers${c.extrapolated ? `, extrapolated from ${c.awake}` : ''}`, `${(c.totalMb / 1024).toFixed(2)} GB (PSS of the servers, RSS of the API)`, '', null);
}

async function soak() {
  const server = await startServer(gameServerEnv());
  try {
    console.log(`bench soak: server ${server.origin} (database ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}), local game driver`);
    const f = await soakBench(server);
    Object.assign(results, { soak: f });
    row(`soak: ${f.minutes} min of mixed player traffic`, `${f.requests} requests, ${f.gameCycles} game start/stop cycles`, '', null);
    row('  errors', `${f.errors}${f.errorSamples.length ? ` (${f.errorSamples[0]})` : ''}`, '0', f.errors === 0);
    const growth = f.rssEndMb - f.rssStartMb;
    row('  server memory (RSS after GC)', `${f.rssStartMb} → ${f.rssEndMb} MB (each minute: ${f.rssSamplesMb.join(', ')})`, '≤ +10 %', growth <= f.rssStartMb * 0.1);
    for (const sample of f.errorSamples.slice(1)) console.log(`  error: ${sample}`);
  } finally {
    await server.stop();
  }
}

async function catalogueSection() {
  const server = await startServer();
  try {
    console.log(`bench catalogue: server ${server.origin} (database ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}), 32 clients`);
    const clients = { concurrency: 32 };
    const staffToken = { authorization: `Bearer ${server.token('bench_staff', ['staff'])}` };
    const health = await load(`${server.origin}/healthz`, {}, clients);
    row('GET /healthz (32 clients)', `${health.rps.toFixed(0)} req/s, p99 ${ms(health.p99)}`, 'baseline', health.errors === 0);
    const figures: Record<string, number> = { healthzRps: health.rps };
    for (const [name, path] of [
      ['definitions', '/v1/definition/game/list'],
      ['pricing', '/v1/pricing'],
    ] as const) {
      const visitor = await load(`${server.origin}${path}`, {}, clients);
      const staffRead = await load(`${server.origin}${path}`, staffToken, clients);
      const ratio = visitor.rps / health.rps;
      Object.assign(figures, { [`${name}Rps`]: visitor.rps, [`${name}P99Ms`]: visitor.p99, [`${name}StaffRps`]: staffRead.rps, [`${name}ToHealthz`]: ratio });
      row(`GET ${path}`, `${visitor.rps.toFixed(0)} req/s, p99 ${ms(visitor.p99)}`, '', visitor.errors === 0);
      row('  ratio to /healthz', `${(ratio * 100).toFixed(1)} %`, '≥ 40 %', ratio >= 0.4);
      row('  same read by staff (from the database)', `${staffRead.rps.toFixed(0)} req/s, p99 ${ms(staffRead.p99)}; visitors ${(visitor.rps / staffRead.rps).toFixed(1)}×`, '', staffRead.errors === 0);
    }
    Object.assign(results, { catalogue: figures });
  } finally {
    await server.stop();
  }
}

async function staff() {
  console.log('bench staff: server on a PostgreSQL database of its own, 100 000 users and 1 000 000 ledger rows');
  const f = await staffListsBench();
  Object.assign(results, { staffLists: f });
  row('fill (generate_series, vacuum analyze)', `${f.fillSeconds.toFixed(1)} s; ledger totalElements shown ${f.ledgerTotalShown}`, '', null);
  const labels: Record<string, string> = {
    transactionsFirstPage: 'GET /v1/staff/transactions, first page',
    transactionsPage5000: '  page 5 000 (offset 100 000)',
    transactionsByUser: '  ?userId= (a random user)',
    transactionsByKind: '  ?kind= (140 000 rows each)',
    transactionsByAmount: '  ?sort=amount,desc',
    userSearchByName: 'GET /v1/staff/users?q= (a name prefix)',
    userSearchByMinecraftName: '  ?q= (a Minecraft name prefix)',
    usersByBalance: '  ?sort=balance,desc',
  };
  for (const [name, label] of Object.entries(labels)) {
    const figure = f.lists[name]!;
    const target = (STAFF_TARGETS_MS as Record<string, number>)[name];
    row(label, `p50 ${ms(figure.p50Ms)}, p95 ${ms(figure.p95Ms)} (${figure.requests} requests)`, target ? `p95 ≤ ${target} ms` : '', target ? figure.p95Ms <= target : null);
  }
}

async function ranked() {
  console.log('bench ranked: servers on PostgreSQL databases of their own; match servers on the local driver, mineflayer players');
  const f = await rankedBench();
  Object.assign(results, { ranked: f });
  if (f.matches > 0)
    row(
      `matched → both players in the match server (${f.matches} matches)`,
      `p50 ${ms(f.joinP50Ms)}, p95 ${ms(f.joinP95Ms)}`,
      `p50 ≤ ${RANKED_TARGETS_MS.joinP50} ms`,
      f.joinP50Ms <= RANKED_TARGETS_MS.joinP50,
    );
  if (f.matches > 0) row('  matched → LIVE (the address given), p50', ms(f.liveP50Ms), '', null);
  const boards = { firstPage: `leaderboard, first page (${f.leaderboardPlayers.toLocaleString('en')} rated players)`, lastPage: '  ranks 81–100', signedIn: '  signed in, with the own rank' } as const;
  for (const [key, label] of Object.entries(boards)) {
    const b = f.boards[key]!;
    row(label, `p50 ${ms(b.p50Ms)}, p95 ${ms(b.p95Ms)}`, `p95 ≤ ${RANKED_TARGETS_MS.leaderboardP95} ms`, b.p95Ms <= RANKED_TARGETS_MS.leaderboardP95);
  }
  const signed = f.boards.signedIn!.p95Ms / f.boards.firstPage!.p95Ms;
  row('  ratio signed in / first page, p95', `${(signed * 100).toFixed(0)} %`, '', null);
  for (const [key, p] of Object.entries(f.plans)) row(`  plan of the board's ${key} read`, `${ms(p.executionMs)}${p.index ? ` (${p.index})` : ' (no index)'}`, '', null);
  const t = f.tournaments;
  if (t && t.finals > 0) {
    const sorted = [...t.killToBracketMs].sort((a, b) => a - b);
    const p99 = percentile(sorted, 99);
    row(
      `final's last kill → the bracket on its open page (${t.finals} finals)`,
      `p50 ${ms(percentile(sorted, 50))}, p99 ${ms(p99)}`,
      `p99 ≤ ${RANKED_TARGETS_MS.finalToBracketP99} ms`,
      p99 <= RANKED_TARGETS_MS.finalToBracketP99,
    );
  }
  if (t?.firstRound) {
    const r = t.firstRound;
    row(`${r.players}-player tournament: start → its ${r.servers} first-round servers LIVE`, ms(r.startToAllLiveMs), '', null);
    row(`  → all ${r.players} players in`, ms(r.startToAllJoinedMs), '', null);
  }
}

const run: Record<Section, () => Promise<void>> = {
  spine,
  catalogue: catalogueSection,
  games,
  social,
  web,
  payments,
  live,
  backups,
  console: consoleSection,
  gateway: gatewaySection,
  soak,
  staff,
  ranked,
};
for (const section of sections) if (chosen.has(section)) await run[section]();
console.log('');

const width = Math.max(...rows.map((r) => r[0].length));
for (const [name, value, target, ok] of rows) {
  console.log(`${name.padEnd(width)}  ${value.padEnd(44)} ${target.padEnd(10)} ${ok === null ? '' : ok ? 'ok' : 'MISSED'}`);
}
fs.mkdirSync('bench/results', { recursive: true });
fs.writeFileSync('bench/results/latest.json', `${JSON.stringify({ at: new Date().toISOString(), sections: [...chosen], ...results }, null, 2)}\n`);
