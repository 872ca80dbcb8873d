import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LocalDriver } from '../src/runtime/local-driver.ts';
import { gameSpec, join, quit, waitFor } from '../tests/fixtures/minecraft.ts';
import { treeHash, writeBigWorld } from '../tests/fixtures/big-worlds.ts';

/**
 * `node bench/backups.ts`: world backups with the local driver, real processes throughout.
 * - a 200 MB world (random region payloads a zip cannot shrink) of a stopped server: backup time
 *   through the world tool, restore time, against a plain copy of the same files;
 * - this process's RSS during that backup: world bytes never pass through the API side;
 * - a running flying-squid server with a player (mineflayer) and 100 MB of far regions: the
 *   longest pause the player sees during a snapshot, from the server's once-a-second time
 *   packets, against the same window with no snapshot;
 * - 10 stopped games of 20 MB backing up at once.
 * `backupsBench()` answers the figures and table rows (with targets); run alone, it prints them.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => bytes / 1024 ** 2;
const s = (v: number) => `${(v / 1000).toFixed(2)} s`;

const BACKUP_RSS_TARGET_MB = 30;
const SNAPSHOT_PAUSE_TARGET_MS = 1000;
/** flying-squid sends the time once a second: a gap beyond that is a pause. */
const timePeriodMs = 1000;

export interface BackupsFigures {
  worldMb: number;
  backupMs: number;
  restoreMs: number;
  copyMs: number;
  restoredIdentical: boolean;
  apiRssGrowthMb: number;
  runningWorldMb: number;
  snapshotMs: number;
  snapshotMaxGapMs: number;
  idleMaxGapMs: number;
  parallelGames: number;
  parallelWorldMb: number;
  parallelMs: number;
  parallelSucceeded: number;
}

type Row = [string, string, string, boolean | null];

/** Runs `task` while sampling this process's RSS every 10 ms; answers its growth in MB. */
async function rssGrowth<T>(task: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
  try {
    const result = await task();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, growthMb: mb(peak - before) };
  } finally {
    clearInterval(timer);
  }
}

/** The largest gap between the time packets of `times` that fall in [from, to], and the one spanning each end. */
function maxGap(times: number[], from: number, to: number): number {
  const first = Math.max(0, times.findIndex((t) => t >= from) - 1);
  let last = times.findIndex((t) => t > to);
  if (last < 0) last = times.length - 1;
  let gap = 0;
  for (let i = first + 1; i <= last; i++) gap = Math.max(gap, times[i]! - times[i - 1]!);
  return gap;
}

export async function backupsBench(): Promise<{ figures: BackupsFigures; rows: Row[] }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-bench-backups-'));
  const from = 45_000 + Math.floor(Math.random() * 900) * 10;
  const driver = new LocalDriver({ dataDir, host: '127.0.0.1', portRange: { from, to: from + 9 } });
  const at = (name: string) => ({ kind: 'file' as const, path: path.join(dataDir, 'store', name) });
  try {
    // A stopped server's 200 MB world: backup, a plain copy as the disk's baseline, restore.
    const big = gameSpec('big');
    await driver.provision(big);
    const world = path.join(driver.dir(big), 'world');
    const t0 = performance.now();
    const worldBytes = writeBigWorld(world, 200);
    console.log(`  ${mb(worldBytes).toFixed(0)} MB world written in ${s(performance.now() - t0)}`);
    const hash = treeHash(world);
    const t1 = performance.now();
    const { growthMb } = await rssGrowth(() => driver.backup(big, at('big.zip')));
    const backupMs = performance.now() - t1;
    const t2 = performance.now();
    fs.cpSync(world, path.join(dataDir, 'copy'), { recursive: true });
    const copyMs = performance.now() - t2;
    fs.rmSync(path.join(dataDir, 'copy'), { recursive: true });
    fs.rmSync(path.join(world, 'region', 'r.1000.1000.mca'));
    const t3 = performance.now();
    await driver.restore(big, at('big.zip'), 1e11);
    const restoreMs = performance.now() - t3;
    const restoredIdentical = treeHash(world) === hash;
    await driver.remove(big);

    // 10 stopped games of 20 MB at once.
    const parallel = Array.from({ length: 10 }, (_, i) => gameSpec(`small-${i}`));
    let parallelBytes = 0;
    for (const game of parallel) {
      await driver.provision(game);
      parallelBytes += writeBigWorld(path.join(driver.dir(game), 'world'), 20);
    }
    const t4 = performance.now();
    const settled = await Promise.allSettled(parallel.map((game) => driver.backup(game, at(`${game.id}.zip`))));
    const parallelMs = performance.now() - t4;
    // Succeeded: answered, and the zip is at its location with the size answered.
    const parallelSucceeded = settled.filter((r, i) => r.status === 'fulfilled' && fs.statSync(at(`${parallel[i]!.id}.zip`).path, { throwIfNoEntry: false })?.size === r.value.sizeBytes).length;
    for (const game of parallel) await driver.remove(game);

    // A running server with a player: the longest gap between its time packets.
    const live = gameSpec('live');
    await driver.start(live);
    await waitFor(driver, live, 'RUNNING');
    const liveWorld = path.join(driver.dir(live), 'world');
    const runningBytes = writeBigWorld(liveWorld, 100);
    const { port } = JSON.parse(fs.readFileSync(path.join(driver.dir(live), 'blockhost-server.json'), 'utf8')) as { port: number };
    const joined = await join(port, 'Backup_Watcher', live.version);
    if (!joined.joined) throw new Error(`bot refused: ${joined.reason}`);
    const { bot } = joined;
    let figuresLive: { snapshotMs: number; snapshotMaxGapMs: number; idleMaxGapMs: number };
    try {
      await bot.waitForChunksToLoad();
      const times: number[] = [];
      bot.on('time', () => {
        times.push(performance.now());
      });
      await sleep(3000);
      const t5 = performance.now();
      await driver.backup(live, at('live.zip'));
      const t6 = performance.now();
      // The same length of time with no snapshot, a second after it, as the baseline.
      await sleep(t6 - t5 + 3 * timePeriodMs);
      const idleFrom = t6 + timePeriodMs;
      figuresLive = { snapshotMs: t6 - t5, snapshotMaxGapMs: maxGap(times, t5, t6), idleMaxGapMs: maxGap(times, idleFrom, idleFrom + (t6 - t5)) };
    } finally {
      await quit(bot);
    }
    await driver.stop(live);

    const figures: BackupsFigures = {
      worldMb: mb(worldBytes),
      backupMs,
      restoreMs,
      copyMs,
      restoredIdentical,
      apiRssGrowthMb: growthMb,
      runningWorldMb: mb(runningBytes),
      ...figuresLive,
      parallelGames: parallel.length,
      parallelWorldMb: mb(parallelBytes),
      parallelMs,
      parallelSucceeded,
    };
    const rate = (bytes: number, ms: number) => `${(mb(bytes) / (ms / 1000)).toFixed(0)} MB/s`;
    const pause = figures.snapshotMaxGapMs - timePeriodMs;
    const rows: Row[] = [
      [`backup of a stopped ${figures.worldMb.toFixed(0)} MB world (world tool)`, `${s(backupMs)}, ${rate(worldBytes, backupMs)}`, '', null],
      ['  baseline: a plain copy of its files', `${s(copyMs)}, ${rate(worldBytes, copyMs)}`, 'baseline', null],
      ['  restore of that zip', `${s(restoreMs)}, ${rate(worldBytes, restoreMs)}; identical: ${restoredIdentical ? 'yes' : 'NO'}`, '', restoredIdentical],
      ['  RSS growth of the API-side process', `${growthMb.toFixed(1)} MB`, `≤ ${BACKUP_RSS_TARGET_MB} MB`, growthMb <= BACKUP_RSS_TARGET_MB],
      [
        `snapshot of a running server (world ${figures.runningWorldMb.toFixed(0)} MB, 1 player)`,
        `${s(figures.snapshotMs)}; longest time-packet gap ${figures.snapshotMaxGapMs.toFixed(0)} ms`,
        '',
        null,
      ],
      ['  baseline: the same window with no snapshot', `longest gap ${figures.idleMaxGapMs.toFixed(0)} ms`, 'baseline', null],
      ['  longest pause a player sees (gap beyond 1 s)', `${Math.max(0, pause).toFixed(0)} ms`, `≤ ${SNAPSHOT_PAUSE_TARGET_MS} ms`, pause <= SNAPSHOT_PAUSE_TARGET_MS],
      [
        `${parallel.length} stopped games of ${(figures.parallelWorldMb / parallel.length).toFixed(0)} MB backing up at once`,
        `${s(parallelMs)}, ${rate(parallelBytes, parallelMs)}; ${parallelSucceeded}/${parallel.length} succeeded`,
        'all',
        parallelSucceeded === parallel.length,
      ],
    ];
    return { figures, rows };
  } finally {
    await driver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { figures, rows } = await backupsBench();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(figures));
  } else {
    const width = Math.max(...rows.map(([k]) => k.length));
    for (const [k, v, target, ok] of rows) console.log(`${k.padEnd(width)}  ${v.padEnd(44)} ${target.padEnd(10)} ${ok === null ? '' : ok ? 'ok' : 'MISSED'}`);
  }
}
