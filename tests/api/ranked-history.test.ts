import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../fixtures/app.ts';
import { userId } from '../fixtures/games.ts';
import { ratingHistory } from '../../src/server/db/schema/competitions.ts';

/** The seed's Duel mode with Alice and Bob (AliceMC, BobMC) linked: the mode's id and theirs. */
async function ladder(t: TestApp) {
  await t.app.services.competitions.seedModes(new Map());
  const modeId = (await t.app.inject({ url: '/v1/ranked/modes' })).json().data[0].id as string;
  for (const name of ['alice', 'bob']) {
    const res = await t.as(name, { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: `${name[0]!.toUpperCase()}${name.slice(1)}MC` } });
    expect(res.statusCode).toBeLessThan(300);
  }
  return { modeId, alice: await userId(t, 'alice'), bob: await userId(t, 'bob') };
}

/** Alice and Bob queue, are paired and their match ends with `kills` (Alice's, Bob's); answers the match's id. */
async function play(t: TestApp, modeId: string, ids: { alice: string; bob: string }, kills: [number, number]) {
  for (const name of ['alice', 'bob']) expect((await t.as(name, { method: 'POST', url: '/v1/ranked/queue', payload: { modeId } })).statusCode).toBe(201);
  // Long enough a wait for the matchmaking's window to take in any two ratings.
  t.clock.advance(10 * 60_000);
  expect(await t.app.services.matchmaking.tick()).toBe(1);
  const matchId = (await t.as('alice', { method: 'GET', url: '/v1/ranked/me' })).json().match.id as string;
  t.clock.advance(60_000);
  const [a, b] = kills;
  const outcome = a === b ? { draw: true as const } : { winner: a > b ? ids.alice : ids.bob };
  expect(await t.app.services.matchResults.recordResult(matchId, { ...outcome, kills: { [ids.alice]: a, [ids.bob]: b } })).toBe(true);
  // Read again (a second supervision round, a restarted API): nothing more.
  expect(await t.app.services.matchResults.recordResult(matchId, { ...outcome, kills: { [ids.alice]: a, [ids.bob]: b } })).toBe(false);
  t.clock.advance(60_000);
  return matchId;
}

const history = async (t: TestApp, id: string, query = '') => {
  const res = await t.app.inject({ url: `/v1/ranked/players/${id}/history${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('a ranked player’s history', () => {
  const t = useTestApp();

  it('gives the rating after each match of a mode and season, once per match, with the matches, kills and totals', async () => {
    // The last days of a month, so the third match falls in the next season.
    t.current.clock.now = new Date(Date.UTC(2026, 10, 30, 20));
    const { modeId, ...ids } = await ladder(t.current);
    const first = await play(t.current, modeId, ids, [3, 1]);
    const second = await play(t.current, modeId, ids, [2, 3]);
    t.current.clock.now = new Date(Date.UTC(2026, 11, 1, 10));
    const third = await play(t.current, modeId, ids, [1, 1]);

    // One row per player and match, however many times a result was read.
    const rows = await t.current.app.services.db.select().from(ratingHistory).where(eq(ratingHistory.userId, ids.alice));
    expect(rows.map((r) => r.matchId).sort()).toEqual([first, second, third].sort());

    const november = await history(t.current, ids.alice, `?modeId=${modeId}&season=2026-11`);
    expect(november.points.map((p: { matchId: string }) => p.matchId)).toEqual([first, second]);
    const [p1, p2] = november.points;
    expect(p1).toMatchObject({ season: '2026-11', modeId, ratingBefore: 1500 });
    expect(p1.ratingAfter).toBeGreaterThan(1500);
    // Each change starts where the last one ended, and a loss takes rating away.
    expect(p2.ratingBefore).toBe(p1.ratingAfter);
    expect(p2.ratingAfter).toBeLessThan(p2.ratingBefore);
    expect(november.ratings).toEqual([expect.objectContaining({ modeId, season: '2026-11', rating: p2.ratingAfter, matches: 2, wins: 1, losses: 1, provisional: true })]);
    expect(november.matches).toMatchObject({ totalElements: 2, data: [{ id: second }, { id: first }] });
    // The match as Alice sees it: Bob's name, both kills and her rating change.
    expect(november.matches.data[0].players).toEqual([
      expect.objectContaining({ id: ids.alice, kills: 2, ratingBefore: p2.ratingBefore, ratingAfter: p2.ratingAfter }),
      expect.objectContaining({ id: ids.bob, mcName: 'BobMC', kills: 3 }),
    ]);
    expect(november.totals).toEqual({ matches: 2, wins: 1, losses: 1, draws: 0, kills: 5, deaths: 4 });

    // December's season started from November's by the soft reset; its draw is its own.
    const december = await history(t.current, ids.alice, `?modeId=${modeId}&season=2026-12`);
    expect(december.points).toEqual([expect.objectContaining({ matchId: third, season: '2026-12' })]);
    expect(december.totals).toEqual({ matches: 1, wins: 0, losses: 0, draws: 1, kills: 1, deaths: 1 });
    // Bob's view of the same seasons mirrors Alice's.
    expect((await history(t.current, ids.bob, `?season=2026-11`)).totals).toEqual({ matches: 2, wins: 1, losses: 1, draws: 0, kills: 4, deaths: 5 });

    // Without a season: every season's changes and matches, the current season's ratings.
    const all = await history(t.current, ids.alice);
    expect(all.points.map((p: { matchId: string }) => p.matchId)).toEqual([first, second, third]);
    expect(all.totals).toMatchObject({ matches: 3, kills: 6, deaths: 5 });
    expect(all.ratings).toEqual([expect.objectContaining({ season: '2026-12', matches: 1, draws: 1 })]);

    // A season nobody played: nothing; a season that is not a month: 400 in the caller's language.
    expect(await history(t.current, ids.alice, '?season=2025-01')).toMatchObject({ ratings: [], points: [], matches: { totalElements: 0 }, totals: { matches: 0, kills: 0 } });
    const bad = await t.current.app.inject({ url: `/v1/ranked/players/${ids.alice}/history?season=2026-13`, headers: { cookie: 'locale=en' } });
    expect(bad.statusCode).toBe(400);
  });
});
