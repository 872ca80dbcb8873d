import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readList } from '../src/runtime/minecraft/player-lists.ts';
import { randomPortRange } from '../tests/fixtures/minecraft.ts';
import { percentile } from './load.ts';
import { startServer, type BenchServer } from './server.ts';

export interface GroupWhitelistFigures {
  runs: number;
  /** Start → RUNNING of the game through the API, once. */
  startToRunningMs: number;
  addP50Ms: number;
  addMaxMs: number;
  removeP50Ms: number;
}

const STAFF = 'bench_staff';
const OWNER = 'bench_owner';

/** A published definition with a package that costs nothing, made by staff: its ids, for `gameCreate`. */
export async function freeOffer(server: BenchServer): Promise<{ definitionId: string; packageId: string }> {
  const staff = (url: string, body: unknown) => server.call(STAFF, 'POST', url, body, ['staff']);
  const def = await staff('/v1/definition/game', { name: { fr: 'Banc', en: 'Bench' }, description: { fr: 'Banc', en: 'Bench' }, version: '1.21.4', published: true });
  const pack = await staff('/v1/definition/game/package', { definitionId: def.id, name: { fr: 'Gratuit', en: 'Free' }, ramMb: 512, maxPlayers: 10, periodDays: 30, priceCredits: 0 });
  return { definitionId: def.id, packageId: pack.id };
}

/** Polls a game's status every 50 ms until it is RUNNING with an address, and answers the address. */
export async function runningAddress(server: BenchServer, owner: string, gameId: string): Promise<string> {
  for (const until = Date.now() + 180_000; ;) {
    const status = await server.call<{ status: string; address: string | null }>(owner, 'GET', `/v1/game/${gameId}/status`);
    if (status.status === 'RUNNING' && status.address) return status.address;
    if (status.status === 'CRASHED' || Date.now() > until) throw new Error(`game not running: ${JSON.stringify(status)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The env a bench server needs to run real games with the local driver. */
export function gameServerEnv(): Record<string, string> {
  const { from, to } = randomPortRange();
  return { GAME_DRIVER: 'local', GAME_HOST: '127.0.0.1', GAME_PORT_RANGE: `${from}-${to}`, GAME_RECONCILE_INTERVAL_MS: '200' };
}

/**
 * Issue 5's figure: a 200-member friend group added to a running server's whitelist, end to end:
 * one API call, timed from request to response, by which time every name went over RCON to the
 * server and its whitelist.json holds all 200 (checked after each run). A fresh group each run; the
 * group is then removed again (timed too) so each run adds 200 new names.
 */
export async function groupWhitelistBench(server: BenchServer, runs = 5, warmup = 1): Promise<GroupWhitelistFigures> {
  const call = <T = { id: string }>(method: string, url: string, body?: unknown) => server.call<T>(OWNER, method, url, body);

  const offer = await freeOffer(server);
  const game = await call('POST', '/v1/game/create', { ...offer, name: 'Whitelist bench' });
  const t0 = performance.now();
  await call('POST', `/v1/game/${game.id}/start`);
  await runningAddress(server, OWNER, game.id);
  const startToRunningMs = performance.now() - t0;
  const gameDir = path.join(server.dataDir, 'games', game.id);

  const adds: number[] = [];
  const removes: number[] = [];
  for (let run = 0; run < warmup + runs; run++) {
    const group = await call('POST', '/v1/friend/group', { name: `Whitelist ${run}` });
    const mcNames = Array.from({ length: 200 }, (_, i) => `W${run}_${i}`);
    const report = await call<{ added: number }>('POST', `/v1/friend/group/${group.id}/member/import`, { mcNames });
    if (report.added !== 200) throw new Error(`import added ${report.added} of 200`);
    const patch = (action: string) => call<{ players: unknown[] }>('POST', `/v1/game/${game.id}/minecraft/players`, { groupId: group.id, type: 'WHITELIST', action });

    let started = performance.now();
    const list = await patch('ADD');
    const addMs = performance.now() - started;
    const live = new Set(readList(gameDir, 'whitelist').map((e) => e.name));
    if (list.players.length !== 200 || mcNames.some((n) => !live.has(n))) throw new Error(`run ${run}: the server's whitelist lacks names (${live.size} there)`);
    started = performance.now();
    await patch('REMOVE');
    const removeMs = performance.now() - started;
    if (readList(gameDir, 'whitelist').length !== 0) throw new Error(`run ${run}: names left on the server's whitelist`);
    if (run >= warmup) {
      adds.push(addMs);
      removes.push(removeMs);
    }
  }
  await call('POST', `/v1/game/${game.id}/stop`);
  adds.sort((a, b) => a - b);
  removes.sort((a, b) => a - b);
  return { runs, startToRunningMs, addP50Ms: percentile(adds, 50), addMaxMs: adds.at(-1)!, removeP50Ms: percentile(removes, 50) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const server = await startServer(gameServerEnv());
  try {
    const f = await groupWhitelistBench(server);
    console.log(
      `200-member group → running server's whitelist, end to end (${f.runs} runs): p50 ${f.addP50Ms.toFixed(0)} ms, max ${f.addMaxMs.toFixed(0)} ms; removing it: p50 ${f.removeP50Ms.toFixed(0)} ms`,
    );
  } finally {
    await server.stop();
  }
}
