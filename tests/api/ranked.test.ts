import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../fixtures/app.ts';
import { userId } from '../fixtures/games.ts';
import { rankedRatings } from '../../src/server/db/schema/competitions.ts';
import { seasonOf } from '../../src/server/modules/competitions/seasons.ts';

const NOBODY = '00000000-0000-4000-8000-000000000000';

/** The seed's Duel mode, made in the test's database; answers its id. */
async function duel(t: TestApp): Promise<string> {
  await t.app.services.competitions.seedModes(new Map());
  return (await t.app.inject({ url: '/v1/ranked/modes' })).json().data[0].id;
}

/** A player with a linked Minecraft account (their name, capitalised, as it). */
async function linked(t: TestApp, name: string): Promise<string> {
  const res = await t.as(name, { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: `${name[0]!.toUpperCase()}${name.slice(1)}MC` } });
  expect(res.statusCode).toBeLessThan(300);
  return userId(t, name);
}

/** Gives a player a rating in the mode's current season, as if they had played `matches` before. */
async function rated(t: TestApp, name: string, modeId: string, rating: number, rd = 80, matches = 10) {
  const id = await userId(t, name);
  const { db } = t.app.services;
  const season = await seasonOf(db, t.clock.now);
  await db
    .insert(rankedRatings)
    .values({ userId: id, modeId, seasonId: season.id, rating, rd, volatility: 0.06, matches, wins: matches })
    .onConflictDoUpdate({ target: [rankedRatings.userId, rankedRatings.modeId, rankedRatings.seasonId], set: { rating, rd, matches } });
  return id;
}

const join = (t: TestApp, name: string, modeId: string, key?: string) => t.as(name, { method: 'POST', url: '/v1/ranked/queue', payload: { modeId }, headers: key ? { 'idempotency-key': key } : {} });
const me = async (t: TestApp, name: string) => (await t.as(name, { method: 'GET', url: '/v1/ranked/me' })).json();
const notices = async (t: TestApp, name: string) =>
  ((await t.as(name, { method: 'GET', url: '/v1/user/notifications' })).json().data as Array<{ data: { key: string; params: Record<string, unknown> } }>).map((n) => n.data);

/** Queues the players (in this order) and runs one matchmaking round; answers the matches made. */
async function queueAndPair(t: TestApp, modeId: string, names: string[]) {
  for (const name of names) expect((await join(t, name, modeId)).statusCode).toBe(201);
  return t.app.services.matchmaking.tick();
}

describe('ranked ladders', () => {
  const t = useTestApp();

  it('lists the seeded Duel mode and its current season to visitors', async () => {
    await duel(t.current);
    const modes = (await t.current.app.inject({ url: '/v1/ranked/modes' })).json();
    expect(modes.data).toEqual([expect.objectContaining({ slug: 'duel-1-8-8', name: { fr: 'Duel 1.8.8', en: 'Duel 1.8.8' }, killsToWin: 3, timeLimitSeconds: 600, waiting: 0 })]);
    expect(modes.season.key).toBe(t.current.clock.now.toISOString().slice(0, 7));
  });

  it('joins and leaves a queue, one queue at a time, with a replayed join doing nothing more', async () => {
    const modeId = await duel(t.current);
    await linked(t.current, 'alice');
    const joined = await join(t.current, 'alice', modeId, 'join-1');
    expect(joined.statusCode).toBe(201);
    expect(joined.json()).toMatchObject({ modeId, rating: 1500, joinedAt: t.current.clock.now.toISOString() });
    const replay = await join(t.current, 'alice', modeId, 'join-1');
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const again = await join(t.current, 'alice', modeId, 'join-2');
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('ranked.alreadyQueued');
    expect((await me(t.current, 'alice')).queue).toMatchObject({ modeId });
    expect((await t.current.app.inject({ url: '/v1/ranked/modes' })).json().data[0].waiting).toBe(1);

    expect((await t.current.as('alice', { method: 'DELETE', url: '/v1/ranked/queue' })).statusCode).toBe(204);
    expect((await me(t.current, 'alice')).queue).toBeNull();
    const left = await t.current.as('alice', { method: 'DELETE', url: '/v1/ranked/queue' });
    expect(left.statusCode).toBe(404);
    expect(left.json().code).toBe('notFound.rankedQueue');
    expect((await join(t.current, 'alice', NOBODY)).statusCode).toBe(404);
    const bad = await t.current.as('alice', { method: 'POST', url: '/v1/ranked/queue', payload: { modeId: 'duel' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('modeId');
    expect((await t.current.app.inject({ method: 'POST', url: '/v1/ranked/queue', payload: { modeId } })).statusCode).toBe(401);
  });

  it('needs a linked Minecraft account to queue, said in the caller’s language', async () => {
    const modeId = await duel(t.current);
    const fr = await join(t.current, 'alice', modeId);
    expect(fr.statusCode).toBe(409);
    expect(fr.json()).toMatchObject({ code: 'ranked.notLinked', detail: expect.stringContaining('Liez d’abord votre compte Minecraft') });
    const en = await t.current.as('alice', { method: 'POST', url: '/v1/ranked/queue', payload: { modeId }, headers: { cookie: 'locale=en' } });
    expect(en.json().detail).toContain('Link your Minecraft account first');
    expect((await me(t.current, 'alice')).linked).toBe(false);
    expect((await me(t.current, 'alice')).queue).toBeNull();
  });

  it('pairs the two closest ratings, tells both, and keeps a paired player out of queues until the match is over', async () => {
    const modeId = await duel(t.current);
    for (const name of ['alice', 'bob', 'carol']) await linked(t.current, name);
    await rated(t.current, 'alice', modeId, 1500);
    const bob = await rated(t.current, 'bob', modeId, 1560);
    const carol = await rated(t.current, 'carol', modeId, 1590);

    const matched: string[][] = [];
    t.current.app.services.events.on('competitions.matched', ({ players }) => void matched.push(players));
    expect(await queueAndPair(t.current, modeId, ['alice', 'bob', 'carol'])).toBe(1);
    expect(matched).toEqual([[bob, carol]]);
    const bobs = await me(t.current, 'bob');
    expect(bobs.queue).toBeNull();
    expect(bobs.match).toMatchObject({
      status: 'PENDING',
      modeId,
      killsToWin: 3,
      players: [
        { id: bob, mcName: 'BobMC', kills: 0 },
        { id: carol, mcName: 'CarolMC' },
      ],
    });
    expect((await me(t.current, 'carol')).match.id).toBe(bobs.match.id);
    expect((await me(t.current, 'alice')).queue).toMatchObject({ modeId });
    expect((await me(t.current, 'alice')).match).toBeNull();
    expect(await notices(t.current, 'bob')).toEqual([
      expect.objectContaining({ key: 'ranked.matched', params: expect.objectContaining({ opponent: 'CarolMC', mode: { fr: 'Duel 1.8.8', en: 'Duel 1.8.8' } }) }),
    ]);
    expect((await notices(t.current, 'carol'))[0]).toMatchObject({ key: 'ranked.matched', params: { opponent: 'BobMC' } });

    const busy = await join(t.current, 'bob', modeId);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().code).toBe('ranked.inMatch');
    // A lone player is never paired with themselves.
    expect(await t.current.app.services.matchmaking.tick()).toBe(0);
    await t.current.app.services.matchResults.voidMatch(bobs.match.id, 'serverFailed');
    expect((await join(t.current, 'bob', modeId)).statusCode).toBe(201);
  });

  it('widens the rating window the longer players wait', async () => {
    const modeId = await duel(t.current);
    for (const name of ['alice', 'bob']) await linked(t.current, name);
    await rated(t.current, 'alice', modeId, 1500);
    await rated(t.current, 'bob', modeId, 1800);
    expect(await queueAndPair(t.current, modeId, ['alice', 'bob'])).toBe(0);
    // 300 apart: 100 at first, 250 after 30 s, 350 after 50 s of waiting.
    t.current.clock.advance(30_000);
    expect(await t.current.app.services.matchmaking.tick()).toBe(0);
    t.current.clock.advance(20_000);
    expect(await t.current.app.services.matchmaking.tick()).toBe(1);
  });

  it('never pairs two players who blocked each other, whichever blocked', async () => {
    const modeId = await duel(t.current);
    for (const name of ['alice', 'bob', 'carol']) await linked(t.current, name);
    const alice = await userId(t.current, 'alice');
    await t.current.as('bob', { method: 'POST', url: '/v1/blocklist', payload: { userId: alice } });
    expect(await queueAndPair(t.current, modeId, ['alice', 'bob'])).toBe(0);
    t.current.clock.advance(10 * 60_000);
    expect(await t.current.app.services.matchmaking.tick()).toBe(0);
    expect(await queueAndPair(t.current, modeId, ['carol'])).toBe(1);
    expect((await me(t.current, 'carol')).match.status).toBe('PENDING');
    expect([(await me(t.current, 'alice')).queue, (await me(t.current, 'bob')).queue].filter(Boolean)).toHaveLength(1);
  });

  it('records a result once: ratings move once, in the right direction, and both are told', async () => {
    const modeId = await duel(t.current);
    const alice = await linked(t.current, 'alice');
    const bob = await linked(t.current, 'bob');
    await queueAndPair(t.current, modeId, ['alice', 'bob']);
    const matchId = (await me(t.current, 'alice')).match.id;
    const { matchResults, events } = t.current.app.services;
    const ended: string[] = [];
    events.on('competitions.matchEnded', ({ matchId: id, status }) => void ended.push(`${id} ${status}`));

    t.current.clock.advance(5 * 60_000);
    const [first, second] = await Promise.all([
      matchResults.recordResult(matchId, { winner: alice, kills: { [alice]: 3, [bob]: 1 } }),
      matchResults.recordResult(matchId, { winner: alice, kills: { [alice]: 3, [bob]: 1 } }),
    ]);
    expect([first, second].sort()).toEqual([false, true]);
    expect(await matchResults.recordResult(matchId, { draw: true, kills: { [alice]: 2, [bob]: 2 } })).toBe(false);
    expect(await matchResults.voidMatch(matchId, 'serverCrashed')).toBe(false);
    expect(ended).toEqual([`${matchId} FINISHED`]);

    const match = (await t.current.as('bob', { method: 'GET', url: `/v1/ranked/matches/${matchId}` })).json();
    expect(match).toMatchObject({
      status: 'FINISHED',
      result: 'PLAYER_A',
      winnerId: alice,
      players: [
        { id: alice, kills: 3, ratingBefore: 1500 },
        { id: bob, kills: 1, ratingBefore: 1500 },
      ],
    });
    expect(match.players[0].ratingAfter).toBeGreaterThan(1500);
    expect(match.players[1].ratingAfter).toBeLessThan(1500);
    const [aliceRating] = (await me(t.current, 'alice')).ratings;
    expect(aliceRating).toMatchObject({ modeId, rating: match.players[0].ratingAfter, matches: 1, wins: 1, losses: 0, provisional: true });
    expect((await me(t.current, 'bob')).ratings[0]).toMatchObject({ rating: match.players[1].ratingAfter, matches: 1, wins: 0, losses: 1 });
    expect((await me(t.current, 'alice')).match).toBeNull();

    expect((await notices(t.current, 'alice'))[0]).toMatchObject({ key: 'ranked.won', params: { opponent: 'BobMC', kills: 3, opponentKills: 1, before: 1500, after: match.players[0].ratingAfter } });
    expect((await notices(t.current, 'bob'))[0]).toMatchObject({ key: 'ranked.lost', params: { kills: 1, opponentKills: 3 } });
    const english = (await t.current.as('bob', { method: 'GET', url: '/v1/user/notifications', headers: { cookie: 'locale=en' } })).json().data[0].data;
    expect(english.title).toBe('Defeat against AliceMC');

    const history = (await t.current.app.inject({ url: `/v1/ranked/players/${bob}/history` })).json();
    expect(history.points).toEqual([expect.objectContaining({ matchId, ratingBefore: 1500, ratingAfter: match.players[1].ratingAfter })]);
    expect(history.matches).toMatchObject({ totalElements: 1, data: [{ id: matchId }] });
    expect((await t.current.app.inject({ url: `/v1/ranked/players/${NOBODY}/history` })).statusCode).toBe(404);
  });

  it('voids a match without changing a rating, and tells both why', async () => {
    const modeId = await duel(t.current);
    await linked(t.current, 'alice');
    await linked(t.current, 'bob');
    await queueAndPair(t.current, modeId, ['alice', 'bob']);
    const matchId = (await me(t.current, 'alice')).match.id;
    expect(await t.current.app.services.matchResults.voidMatch(matchId, 'serverCrashed')).toBe(true);
    const match = (await t.current.as('alice', { method: 'GET', url: `/v1/ranked/matches/${matchId}` })).json();
    expect(match).toMatchObject({ status: 'VOID', result: null, reason: { fr: 'le serveur du match a planté', en: 'the match server crashed' } });
    expect((await me(t.current, 'alice')).ratings[0]).toMatchObject({ rating: 1500, rd: 350, matches: 0 });
    for (const name of ['alice', 'bob']) expect((await notices(t.current, name))[0]).toMatchObject({ key: 'ranked.voided' });
    expect(await t.current.app.services.matchResults.recordResult(matchId, { draw: true, kills: {} })).toBe(false);
  });

  it('forgets a deleted account: its match voided for both, its queue and its place on the leaderboard gone', async () => {
    const modeId = await duel(t.current);
    const alice = await linked(t.current, 'alice');
    await linked(t.current, 'bob');
    await rated(t.current, 'bob', modeId, 1600);
    await queueAndPair(t.current, modeId, ['alice', 'bob']);
    const matchId = (await me(t.current, 'alice')).match.id;
    await rated(t.current, 'alice', modeId, 1550);

    await t.current.app.services.personalData.erase(alice);
    const match = (await t.current.as('bob', { method: 'GET', url: `/v1/ranked/matches/${matchId}` })).json();
    expect(match).toMatchObject({ status: 'VOID', reason: { fr: 'un des joueurs a supprimé son compte', en: 'a player deleted their account' } });
    expect((await notices(t.current, 'bob'))[0]).toMatchObject({ key: 'ranked.voided' });
    const board = (await t.current.app.inject({ url: `/v1/ranked/modes/${modeId}/leaderboard` })).json();
    expect(board.data.map((entry: { player: { id: string } }) => entry.player.id)).not.toContain(alice);
    expect(board.data).toHaveLength(1);
    // Free again, the opponent queues at once.
    expect((await join(t.current, 'bob', modeId)).statusCode).toBe(201);
  });

  it('shows a match to its players only: a stranger gets 404', async () => {
    const modeId = await duel(t.current);
    await linked(t.current, 'alice');
    await linked(t.current, 'bob');
    await queueAndPair(t.current, modeId, ['alice', 'bob']);
    const matchId = (await me(t.current, 'alice')).match.id;
    expect((await t.current.as('bob', { method: 'GET', url: `/v1/ranked/matches/${matchId}` })).statusCode).toBe(200);
    const stranger = await t.current.as('carol', { method: 'GET', url: `/v1/ranked/matches/${matchId}` });
    const unknown = await t.current.as('carol', { method: 'GET', url: `/v1/ranked/matches/${NOBODY}` });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual(unknown.json());
  });

  it('ranks the season’s players on a public leaderboard, with the caller’s own rank', async () => {
    const modeId = await duel(t.current);
    await rated(t.current, 'alice', modeId, 1700);
    await rated(t.current, 'bob', modeId, 1650, 200);
    const carol = await rated(t.current, 'carol', modeId, 1600);
    // Rated but without a match this season: not on the board.
    await rated(t.current, 'dave', modeId, 1900, 350, 0);

    const board = (await t.current.app.inject({ url: `/v1/ranked/modes/${modeId}/leaderboard?size=2` })).json();
    expect(board).toMatchObject({ totalElements: 3, page: 0, size: 2, mine: null });
    expect(board.data.map((e: { rank: number; player: { name: string }; rating: number }) => [e.rank, e.player.name, e.rating])).toEqual([
      [1, 'alice', 1700],
      [2, 'bob', 1650],
    ]);
    expect(board.data[1].provisional).toBe(true);
    expect(board.data[0].provisional).toBe(false);
    const second = (await t.current.as('carol', { method: 'GET', url: `/v1/ranked/modes/${modeId}/leaderboard?page=1&size=2` })).json();
    expect(second.data).toEqual([expect.objectContaining({ rank: 3, player: expect.objectContaining({ id: carol }) })]);
    const mine = (await t.current.as('carol', { method: 'GET', url: `/v1/ranked/modes/${modeId}/leaderboard?size=1` })).json();
    expect(mine.data).toHaveLength(1);
    expect(mine.mine).toMatchObject({ rank: 3, rating: 1600, player: { id: carol } });
    expect((await t.current.as('dave', { method: 'GET', url: `/v1/ranked/modes/${modeId}/leaderboard` })).json().mine).toBeNull();
    expect((await t.current.app.inject({ url: `/v1/ranked/modes/${NOBODY}/leaderboard` })).statusCode).toBe(404);
    // The top 100 only.
    expect((await t.current.app.inject({ url: `/v1/ranked/modes/${modeId}/leaderboard?offset=100` })).json().data).toEqual([]);
  });

  it('keeps each player’s own rank right as ratings move within a point, across points, tie, join the board and leave it', async () => {
    const modeId = await duel(t.current);
    const rankOf = async (name: string) => (await t.current.as(name, { method: 'GET', url: `/v1/ranked/modes/${modeId}/leaderboard?size=1` })).json().mine?.rank as number | undefined;
    await rated(t.current, 'alice', modeId, 1700.4);
    const bob = await rated(t.current, 'bob', modeId, 1700.2);
    const carol = await rated(t.current, 'carol', modeId, 1700.2);
    await rated(t.current, 'dave', modeId, 1650);
    await rated(t.current, 'erin', modeId, 1600);
    await rated(t.current, 'frank', modeId, 1800, 350, 0);
    // Bob and Carol tie: the smaller id first, as the list shows them.
    const [first, second] = bob < carol ? ['bob', 'carol'] : ['carol', 'bob'];
    expect([await rankOf('alice'), await rankOf(first), await rankOf(second), await rankOf('dave'), await rankOf('erin'), await rankOf('frank')]).toEqual([1, 2, 3, 4, 5, undefined]);
    // Frank's first match puts him on the board, above everyone.
    await rated(t.current, 'frank', modeId, 1800, 300, 1);
    expect([await rankOf('frank'), await rankOf('alice'), await rankOf('erin')]).toEqual([1, 2, 6]);
    // Bob falls below Erin (another point); Alice moves within her point, still above Carol.
    await rated(t.current, 'bob', modeId, 1599.5);
    await rated(t.current, 'alice', modeId, 1700.1);
    expect([await rankOf('carol'), await rankOf('alice'), await rankOf('erin'), await rankOf('bob')]).toEqual([2, 3, 5, 6]);
    // Carol's account is erased: she leaves the board, and those below move up.
    await t.current.app.services.competitions.forget(carol);
    expect([await rankOf('alice'), await rankOf('dave'), await rankOf('bob')]).toEqual([2, 3, 5]);
    const board = (await t.current.app.inject({ url: `/v1/ranked/modes/${modeId}/leaderboard` })).json();
    expect(board.data.map((e: { rank: number; player: { name: string } }) => [e.rank, e.player.name])).toEqual([
      [1, 'frank'],
      [2, 'alice'],
      [3, 'dave'],
      [4, 'erin'],
      [5, 'bob'],
    ]);
  });

  it('starts a new season from a soft reset of the last one', async () => {
    const modeId = await duel(t.current);
    await linked(t.current, 'alice');
    await rated(t.current, 'alice', modeId, 1900, 60);
    const { db } = t.current.app.services;
    const next = new Date(t.current.clock.now);
    next.setUTCMonth(next.getUTCMonth() + 1, 1);
    t.current.clock.advance(next.getTime() - t.current.clock.now.getTime() + 1000);
    expect((await join(t.current, 'alice', modeId)).json().rating).toBe(1700);
    const season = await seasonOf(db, t.current.clock.now);
    const [row] = await db
      .select()
      .from(rankedRatings)
      .where(and(eq(rankedRatings.seasonId, season.id), eq(rankedRatings.modeId, modeId)));
    expect(row).toMatchObject({ rating: 1700, matches: 0 });
    expect(row!.rd).toBeCloseTo(Math.sqrt(60 ** 2 + 150 ** 2), 6);
  });
});
