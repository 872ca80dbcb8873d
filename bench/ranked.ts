import pg from 'pg';
import type { Bot } from 'mineflayer';
import { percentile } from './load.ts';
import { startServer, type BenchServer } from './server.ts';
import { createDatabase } from '../tests/fixtures/pg-database.ts';
import { quit } from '../tests/fixtures/minecraft.ts';
import { playerJoins, until } from './ranked-players.ts';
import { tournamentsBench, TOURNAMENT_RUNS, type TournamentFigures } from './tournaments.ts';

/**
 * The ranked ladders (issue 35):
 * - from "matched" to both players able to join: the real server with its loops (matchmaking,
 *   reconciler, supervision) on the local driver; for each of MATCHES matches two new players
 *   link a Minecraft name and queue, and two mineflayer clients poll their `/v1/ranked/me` as the
 *   page does and join the match server at the address it gives as soon as it gives one. Timed
 *   from the match's `createdAt` (the pairing's commit) to both clients spawned in the world;
 * - a leaderboard page with LEADERBOARD_PLAYERS rated players in the current season, on
 *   PostgreSQL: the ratings written with generate_series, then the board's first page, a later
 *   page and a signed-in player's (their own rank counted) timed through the HTTP API, with the
 *   query plans' execution times of the board's reads (a rank: the counts' table above the
 *   player's whole point, and the board's index within it);
 * - then, in the matches' server, the tournaments' figures (bench/tournaments.ts): a final's last
 *   kill to the bracket on its open page, and a 16-player tournament's first round of 8 servers.
 * Both run on PostgreSQL databases made for the run and dropped after it (RANKED_BENCH_DATABASE_URL,
 * default the local `test` database's server).
 */
export interface RankedFigures {
  matches: number;
  /** Each match: from its commit to its match server LIVE (the address given), and to both players in. */
  matchedToLiveMs: number[];
  matchedToJoinedMs: number[];
  joinP50Ms: number;
  joinP95Ms: number;
  liveP50Ms: number;
  leaderboardPlayers: number;
  fillSeconds: number;
  boards: Record<string, { p50Ms: number; p95Ms: number; requests: number }>;
  /** EXPLAIN ANALYZE's execution time of each of the board's reads, and whether it used the board's index. */
  plans: Record<string, { executionMs: number; index: string | null }>;
  tournaments: TournamentFigures | null;
}

export const RANKED_TARGETS_MS = { joinP50: 3000, leaderboardP95: 50, finalToBracketP99: 1000 } as const;

const MATCHES = Number(process.env.RANKED_BENCH_MATCHES ?? 10);
const LEADERBOARD_PLAYERS = 100_000;
const REQUESTS = 200;
const WARMUP = 20;

const adminUrl = () => process.env.RANKED_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function matchesBench(): Promise<Pick<RankedFigures, 'matches' | 'matchedToLiveMs' | 'matchedToJoinedMs' | 'tournaments'>> {
  const database = await createDatabase(adminUrl(), 'bench_ranked');
  let server: BenchServer | undefined;
  const db = new pg.Client({ connectionString: database.url });
  const bots: Bot[] = [];
  try {
    server = await startServer({ DATABASE_URL: database.url, GAME_HOST: '127.0.0.1' });
    await db.connect();
    // A match ends at 30 s, a draw, so its server is gone before the next ones pile up.
    await db.query(`update ranked_modes set time_limit_seconds = 30 where slug = 'duel-1-8-8'`);
    const { data } = await server.call<{ data: Array<{ id: string; slug: string; definitionId: string | null }> }>('bench_ranked_0a', 'GET', '/v1/ranked/modes');
    const mode = data.find((m) => m.slug === 'duel-1-8-8');
    if (!mode?.definitionId) throw new Error('the seeded Duel 1.8.8 mode has no game definition');
    const toLive: number[] = [];
    const toJoined: number[] = [];
    for (let i = 0; i < MATCHES; i++) {
      const players = [`bench_ranked_${i}a`, `bench_ranked_${i}b`].map((user, k) => ({ user, mcName: `Ranked${i}${k ? 'B' : 'A'}` }));
      for (const { user, mcName } of players) await server.call(user, 'POST', '/v1/user/mcuuid', { mcName });
      for (const { user } of players) await server.call(user, 'POST', '/v1/ranked/queue', { modeId: mode.id });
      const [a, b] = await Promise.all(players.map(({ user, mcName }) => playerJoins(server!, user, mcName, bots)));
      if (a!.matchId !== b!.matchId) throw new Error('the two players were not paired together');
      const { rows } = await db.query<{ created_at: Date }>('select created_at from ranked_matches where id = $1', [a!.matchId]);
      const matched = rows[0]!.created_at.getTime();
      toLive.push(Math.min(a!.live, b!.live) - matched);
      toJoined.push(Math.max(a!.joined, b!.joined) - matched);
      console.log(`  match ${i + 1}: LIVE after ${toLive.at(-1)} ms, both in after ${toJoined.at(-1)} ms`);
      await Promise.all(bots.splice(0).map((bot) => quit(bot).catch(() => {})));
    }
    // The ladder's matches over (their 30 s) before the tournaments change the mode's rules.
    await until(
      () => db.query<{ n: string }>(`select count(*) as n from ranked_matches where status in ('PENDING', 'LIVE')`).then((r) => Number(r.rows[0]!.n)),
      (n) => n === 0,
      180_000,
      'the ladder matches over',
      1000,
    );
    const tournaments = TOURNAMENT_RUNS ? await tournamentsBench(server, db, mode.id) : null;
    // Every match over (its time limit) and its server removed before the API stops.
    await until(
      () => db.query<{ n: string }>('select count(*) as n from ranked_matches where server_removed_at is null').then((r) => Number(r.rows[0]!.n)),
      (n) => n === 0,
      300_000,
      'the match servers removed',
      1000,
    );
    return { matches: MATCHES, matchedToLiveMs: toLive, matchedToJoinedMs: toJoined, tournaments };
  } finally {
    await Promise.all(bots.map((bot) => quit(bot).catch(() => {})));
    await db.end().catch(() => {});
    await server?.stop();
    await database.drop();
  }
}

/** The id of bench player `i` (1-based), so rating rows can name their user without a lookup. */
const userIdSql = (i: string) => `('00000000-0000-4000-8000-' || lpad(to_hex(${i}), 12, '0'))::uuid`;
const userId = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;

async function fillRatings(url: string, modeId: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('set session_replication_role = replica');
    await client.query(`
      insert into users (id, subject, name, email, roles, created_at)
      select ${userIdSql('i')}, 'bench|' || i, 'ranked_' || i, 'ranked' || i || '@example.com', '{}', now()
      from generate_series(1, ${LEADERBOARD_PLAYERS}) i`);
    // Ratings spread around 1500 (a few hundred ties), deviations from settled to provisional.
    await client.query(
      `
      insert into ranked_ratings (user_id, mode_id, season_id, rating, rd, volatility, matches, wins, losses, draws)
      select ${userIdSql('i')}, $1, s.id, 1500 + ((i::bigint * 7919) % 1200) - 600 + (i % 7) / 10.0, 40 + (i % 300), 0.06, 1 + i % 50, (1 + i % 50) / 2, (1 + i % 50) / 3, 0
      from generate_series(1, ${LEADERBOARD_PLAYERS}) i, ranked_seasons s where s.key = to_char(now() at time zone 'UTC', 'YYYY-MM')`,
      [modeId],
    );
    await client.query('vacuum analyze users, ranked_ratings');
  } finally {
    await client.end();
  }
}

async function timed(server: BenchServer, token: string | null, url: string): Promise<{ p50Ms: number; p95Ms: number; requests: number }> {
  const once = async () => {
    const started = performance.now();
    const res = await fetch(`${server.origin}${url}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${body}`);
    return performance.now() - started;
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) times.push(await once());
  times.sort((a, b) => a - b);
  return { p50Ms: percentile(times, 50), p95Ms: percentile(times, 95), requests: REQUESTS };
}

/** EXPLAIN ANALYZE of a read (the service's, in SQL): its execution time and the index it read, if any. */
async function plan(client: pg.Client, sql: string, params: unknown[]): Promise<{ executionMs: number; index: string | null }> {
  const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, format text) ${sql}`, params);
  const text = rows.map((r) => r['QUERY PLAN']).join('\n');
  return { executionMs: Number(/Execution Time: ([\d.]+) ms/.exec(text)?.[1] ?? NaN), index: /Index (?:Only )?Scan (?:Backward )?using (\w+)/.exec(text)?.[1] ?? null };
}

async function leaderboardBench(): Promise<Pick<RankedFigures, 'leaderboardPlayers' | 'fillSeconds' | 'boards' | 'plans'>> {
  const database = await createDatabase(adminUrl(), 'bench_board');
  let server: BenchServer | undefined;
  const client = new pg.Client({ connectionString: database.url });
  try {
    server = await startServer({ DATABASE_URL: database.url });
    // The modes' list makes the current season.
    const { data } = await server.call<{ data: Array<{ id: string }> }>('bench_visitor', 'GET', '/v1/ranked/modes');
    const modeId = data[0]!.id;
    const filled = performance.now();
    await fillRatings(database.url, modeId);
    const fillSeconds = (performance.now() - filled) / 1000;
    // A player far down the board (its middle): their own line, and their rank counted.
    const me = await server.call<{ id: string }>('bench_ranked_me', 'GET', '/v1/user');
    await client.connect();
    const { rows } = await client.query<{ id: string }>(`select id from ranked_seasons where key = to_char(now() at time zone 'UTC', 'YYYY-MM')`);
    const seasonId = rows[0]!.id;
    const [middle] = (await client.query<{ rating: number }>('select rating from ranked_ratings where user_id = $1', [userId(LEADERBOARD_PLAYERS / 2)])).rows;
    await client.query(`insert into ranked_ratings (user_id, mode_id, season_id, rating, rd, volatility, matches, wins) values ($1, $2, $3, $4, 60, 0.06, 20, 10)`, [
      me.id,
      modeId,
      seasonId,
      middle!.rating,
    ]);
    const boards = {
      firstPage: await timed(server, null, `/v1/ranked/modes/${modeId}/leaderboard`),
      lastPage: await timed(server, null, `/v1/ranked/modes/${modeId}/leaderboard?page=4&size=20`),
      signedIn: await timed(server, server.token('bench_ranked_me'), `/v1/ranked/modes/${modeId}/leaderboard`),
    };
    const board = 'mode_id = $1 and season_id = $2 and matches > 0';
    const plans = {
      page: await plan(client, `select * from ranked_ratings where ${board} order by rating desc, user_id asc limit 20`, [modeId, seasonId]),
      total: await plan(client, `select count(*) from (select 1 from ranked_ratings where ${board} limit 100) b`, [modeId, seasonId]),
      rankAbove: await plan(client, `select sum(players) from ranked_rating_counts where mode_id = $1 and season_id = $2 and bucket > $3`, [modeId, seasonId, Math.floor(middle!.rating)]),
      rankInPoint: await plan(client, `select count(*) from ranked_ratings where ${board} and rating > $3 and rating < $4`, [modeId, seasonId, middle!.rating, Math.floor(middle!.rating) + 1]),
      rankTied: await plan(client, `select count(*) from ranked_ratings where ${board} and rating = $3 and user_id < $4`, [modeId, seasonId, middle!.rating, me.id]),
    };
    return { leaderboardPlayers: LEADERBOARD_PLAYERS, fillSeconds, boards, plans };
  } finally {
    await client.end().catch(() => {});
    await server?.stop();
    await database.drop();
  }
}

export async function rankedBench(): Promise<RankedFigures> {
  const board = await leaderboardBench();
  // RANKED_BENCH_MATCHES=0 RANKED_BENCH_FINALS=0 RANKED_BENCH_CUP_PLAYERS=0: the leaderboard alone.
  const matches = MATCHES > 0 || TOURNAMENT_RUNS ? await matchesBench() : { matches: 0, matchedToLiveMs: [], matchedToJoinedMs: [], tournaments: null };
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  return {
    ...matches,
    joinP50Ms: percentile(sorted(matches.matchedToJoinedMs), 50),
    joinP95Ms: percentile(sorted(matches.matchedToJoinedMs), 95),
    liveP50Ms: percentile(sorted(matches.matchedToLiveMs), 50),
    ...board,
  };
}
