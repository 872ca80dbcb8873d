import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { Bot } from 'mineflayer';
import type { BenchServer } from './server.ts';
import { killTimes, quit } from '../tests/fixtures/minecraft.ts';
import { playerJoins, until } from './ranked-players.ts';

/**
 * The tournaments' figures (issue 35), in the ranked bench's server (its loops on, the local
 * driver, mineflayer players):
 * - FINALS tournament finals of two players, the mode first to one kill: once both are in, one
 *   kills the other for real; timed from the death line's time on the match server's console (as
 *   the API read it, `console.jsonl`'s `at`) to the bracket's change on the public tournament
 *   stream (`/v1/tournaments/{slug}/stream`, the one /ranked/{slug} listens to), the tournament
 *   then read FINISHED;
 * - a 16-player single elimination: from the tournament's start (its `started_at`, the commit of
 *   the bracket) to its 8 first-round match servers LIVE, and to all 16 players in them.
 */
export interface TournamentFigures {
  finals: number;
  killToBracketMs: number[];
  firstRound: { players: number; servers: number; startToLiveMs: number[]; startToAllLiveMs: number; startToAllJoinedMs: number } | null;
}

const FINALS = Number(process.env.RANKED_BENCH_FINALS ?? 5);
const CUP_PLAYERS = Number(process.env.RANKED_BENCH_CUP_PLAYERS ?? 16);
/** Whether the ranked bench's server has tournaments to play. */
export const TOURNAMENT_RUNS = FINALS > 0 || CUP_PLAYERS >= 2;
const STAFF = ['staff'];

interface Player {
  user: string;
  mcName: string;
}

/** A tournament of `players`, registered and checked in, then started by the next tournament round. */
async function startTournament(server: BenchServer, db: pg.Client, slug: string, modeId: string, players: Player[]): Promise<{ id: string; startedAt: number }> {
  const at = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
  const { id } = await server.call<{ id: string }>(
    'bench_staff',
    'POST',
    '/v1/staff/tournaments',
    {
      slug,
      name: { fr: slug, en: slug },
      rules: { fr: 'Banc d’essai.', en: 'A bench.' },
      modeId,
      format: 'SINGLE_ELIMINATION',
      maxEntrants: players.length,
      registrationOpensAt: at(-60),
      registrationClosesAt: at(30),
      checkInOpensAt: at(-1),
      checkInClosesAt: at(30),
      startsAt: at(30),
      entryFee: 0,
      prizeFirst: 0,
      prizeSecond: 0,
      prizeThird: 0,
    },
    STAFF,
  );
  for (const { user, mcName } of players) {
    await server.call(user, 'POST', '/v1/user/mcuuid', { mcName });
    await server.call(user, 'POST', `/v1/tournaments/${slug}/registration`);
    await server.call(user, 'POST', `/v1/tournaments/${slug}/check-in`);
  }
  // Its start now: the tournament round (every 2 s) starts it, as it would at its time.
  await db.query('update tournaments set starts_at = now() where id = $1', [id]);
  const started = await until(
    () => db.query<{ started_at: Date | null }>(`select started_at from tournaments where id = $1 and status = 'LIVE'`, [id]).then((r) => r.rows[0]?.started_at ?? null),
    (s) => s !== null,
    60_000,
    `${slug} started`,
  );
  return { id, startedAt: started!.getTime() };
}

/** The public stream of a tournament's page: the arrival time of each change event. */
async function openBracket(server: BenchServer, slug: string): Promise<{ arrivals: number[]; close(): void }> {
  const controller = new AbortController();
  const res = await fetch(`${server.origin}/v1/tournaments/${slug}/stream`, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
  if (res.status !== 200) throw new Error(`the stream of ${slug} answered ${res.status}`);
  const arrivals: number[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    try {
      const reader = res.body!.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        const at = Date.now();
        for (const _ of decoder.decode(value, { stream: true }).matchAll(/^event: tournament-change$/gm)) arrivals.push(at);
      }
    } catch {
      // closed by the bench
    }
  })();
  return { arrivals, close: () => controller.abort() };
}

/** The time (the API's clock) of the first line of the game's console that says `pattern`. */
function lineTime(server: BenchServer, gameId: string, pattern: RegExp): number | null {
  const file = path.join(server.dataDir, 'games', gameId, 'console.jsonl');
  if (!fs.existsSync(file)) return null;
  for (const text of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!text) continue;
    const line = JSON.parse(text) as { at: string; text: string };
    if (pattern.test(line.text)) return Date.parse(line.at);
  }
  return null;
}

async function final(server: BenchServer, db: pg.Client, modeId: string, i: number): Promise<number> {
  const slug = `bench-final-${i}`;
  const players = [`bench_final_${i}a`, `bench_final_${i}b`].map((user, k) => ({ user, mcName: `Final${i}${k ? 'B' : 'A'}` }));
  const bots: Bot[] = [];
  let bracket: Awaited<ReturnType<typeof openBracket>> | undefined;
  try {
    await startTournament(server, db, slug, modeId, players);
    // The page is open before the final is played.
    bracket = await openBracket(server, slug);
    const [a, b] = await Promise.all(players.map(({ user, mcName }) => playerJoins(server, user, mcName, bots)));
    const { rows } = await db.query<{ game_id: string }>('select game_id from ranked_matches where id = $1', [a!.matchId]);
    const gameId = rows[0]!.game_id;
    await killTimes(a!.bot, b!.bot, 1);
    const slain = new RegExp(`${players[1]!.mcName} was slain by ${players[0]!.mcName}`);
    const died = (await until(
      async () => lineTime(server, gameId, slain),
      (t) => t !== null,
      30_000,
      'the death line',
    ))!;
    // The first change after the death that shows the tournament over.
    for (let seen = 0; ; seen++) {
      const arrivals = bracket.arrivals;
      const arrival = (await until(
        async () => arrivals.filter((t) => t >= died)[seen] ?? null,
        (t) => t !== null,
        60_000,
        `the bracket's change after the final kill of ${slug}`,
        5,
      ))!;
      const view = await server.call<{ status: string }>(players[0]!.user, 'GET', `/v1/tournaments/${slug}`);
      if (view.status === 'FINISHED') return arrival - died;
    }
  } finally {
    bracket?.close();
    await Promise.all(bots.map((bot) => quit(bot).catch(() => {})));
  }
}

async function firstRound(server: BenchServer, db: pg.Client, modeId: string): Promise<NonNullable<TournamentFigures['firstRound']>> {
  const players = Array.from({ length: CUP_PLAYERS }, (_, k) => ({ user: `bench_cup_${k}`, mcName: `Cup${k}` }));
  const bots: Bot[] = [];
  try {
    const { id, startedAt } = await startTournament(server, db, 'bench-cup', modeId, players);
    // Each player's page asks every 200 ms (16 of them on a loaded machine), then joins.
    const joins = await Promise.all(players.map(({ user, mcName }) => playerJoins(server, user, mcName, bots, 200)));
    const { rows } = await db.query<{ started_at: Date }>(`select started_at from ranked_matches where tournament_id = $1 and status = 'LIVE'`, [id]);
    await server.call('bench_staff', 'POST', `/v1/staff/tournaments/${id}/cancel`, { reason: 'The bench is over.' }, STAFF);
    return {
      players: players.length,
      servers: rows.length,
      startToLiveMs: rows.map((r) => r.started_at.getTime() - startedAt).sort((x, y) => x - y),
      startToAllLiveMs: Math.max(...joins.map((j) => j.live)) - startedAt,
      startToAllJoinedMs: Math.max(...joins.map((j) => j.joined)) - startedAt,
    };
  } finally {
    await Promise.all(bots.map((bot) => quit(bot).catch(() => {})));
  }
}

/** The tournaments' figures in `server` (the ranked bench's), on the mode `modeId`. */
export async function tournamentsBench(server: BenchServer, db: pg.Client, modeId: string): Promise<TournamentFigures> {
  // A final is first to one kill, and never ends at the time limit before it.
  await db.query('update ranked_modes set kills_to_win = 1, time_limit_seconds = 600 where id = $1', [modeId]);
  const killToBracketMs: number[] = [];
  for (let i = 0; i < FINALS; i++) {
    killToBracketMs.push(await final(server, db, modeId, i));
    console.log(`  final ${i + 1}: the kill on the bracket's stream after ${killToBracketMs.at(-1)} ms`);
  }
  const round = CUP_PLAYERS >= 2 ? await firstRound(server, db, modeId) : null;
  if (round) console.log(`  ${round.players}-player tournament: ${round.servers} servers LIVE after ${round.startToAllLiveMs} ms, all players in after ${round.startToAllJoinedMs} ms`);
  return { finals: FINALS, killToBracketMs, firstRound: round };
}
