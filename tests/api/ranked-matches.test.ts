import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { startListeningApp, useTestApp, type TestApp } from '../fixtures/app.ts';
import { openStream } from '../fixtures/sse.ts';
import { catalogue, userId } from '../fixtures/games.ts';
import { rankedMatches, ratingHistory } from '../../src/server/db/schema/competitions.ts';
import { gamePayments } from '../../src/server/db/schema/renewals.ts';
import { gamePlayers, games } from '../../src/server/db/schema/games.ts';
import { MATCH_JOIN_SECONDS } from '../../src/contract/competitions.ts';

const JOIN_MS = MATCH_JOIN_SECONDS * 1000;

const log = (line: string) => `[12:00:00] [Server thread/INFO]: ${line}`;
const notices = async (t: TestApp, name: string) =>
  ((await t.as(name, { method: 'GET', url: '/v1/user/notifications' })).json().data as Array<{ data: { title: string; description: string; key: string; params: Record<string, unknown> } }>).map(
    (n) => n.data,
  );

/** Alice and Bob (AliceMC, BobMC) queued in the Duel on a definition of the catalogue and paired: the match and its server's id. */
async function matched(t: TestApp) {
  const { definitionId } = await catalogue(t);
  await t.app.services.competitions.seedModes(new Map([['1.8.8', definitionId]]));
  const modeId = (await t.app.inject({ url: '/v1/ranked/modes' })).json().data[0].id;
  for (const name of ['alice', 'bob']) {
    expect((await t.as(name, { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: `${name[0]!.toUpperCase()}${name.slice(1)}MC` } })).statusCode).toBeLessThan(300);
    expect((await t.as(name, { method: 'POST', url: '/v1/ranked/queue', payload: { modeId } })).statusCode).toBe(201);
  }
  expect(await t.app.services.matchmaking.tick()).toBe(1);
  const [match] = await t.app.services.db.select().from(rankedMatches);
  return { match: match!, gameId: match!.gameId!, definitionId, alice: await userId(t, 'alice'), bob: await userId(t, 'bob') };
}

/** The match server started by the reconciler and seen running by a supervision round: the match is LIVE. */
async function live(t: TestApp) {
  const m = await matched(t);
  await t.app.services.reconciler.tick();
  await t.app.services.reconciler.tick();
  expect(await t.app.services.matchSupervision.tick()).toBe(0);
  return m;
}

const matchOf = async (t: TestApp, id: string) => (await t.app.services.db.select().from(rankedMatches).where(eq(rankedMatches.id, id)))[0]!;
const gameOf = async (t: TestApp, id: string) => (await t.app.services.db.select().from(games).where(eq(games.id, id)))[0]!;

/** Supervision and reconciler rounds until the ended match's server is removed. */
async function removed(t: TestApp, matchId: string) {
  for (let i = 0; i < 5 && !(await matchOf(t, matchId)).serverRemovedAt; i++) {
    await t.app.services.matchSupervision.tick();
    await t.app.services.reconciler.tick();
  }
  return (await matchOf(t, matchId)).serverRemovedAt !== null;
}

describe('ranked match servers', () => {
  const t = useTestApp();

  it('starts a whitelisted PvP server owned by the platform when a match is made, in nobody’s list and billed to nobody', async () => {
    const { match, gameId, alice, bob } = await matched(t.current);
    const game = await gameOf(t.current, gameId);
    expect(game).toMatchObject({ desiredState: 'running', whitelistEnabled: true, settings: expect.objectContaining({ pvp: true, sleepAfterMinutes: 0 }) });
    expect([alice, bob]).not.toContain(game.ownerId);
    const whitelist = await t.current.app.services.db.select().from(gamePlayers).where(eq(gamePlayers.gameId, gameId));
    expect(whitelist.map((p) => [p.type, p.name]).sort()).toEqual([
      ['WHITELIST', 'AliceMC'],
      ['WHITELIST', 'BobMC'],
    ]);
    for (const name of ['alice', 'bob']) {
      expect((await t.current.as(name, { method: 'GET', url: '/v1/game' })).json().totalElements).toBe(0);
      expect((await t.current.as(name, { method: 'GET', url: `/v1/game/${gameId}` })).statusCode).toBe(404);
    }
    expect(await t.current.app.services.db.select().from(gamePayments).where(eq(gamePayments.gameId, gameId))).toEqual([]);

    await t.current.app.services.reconciler.tick();
    await t.current.app.services.reconciler.tick();
    expect(t.current.driver.servers.get(gameId)?.spec).toMatchObject({ pvp: true, whitelistEnabled: true, whitelist: ['AliceMC', 'BobMC'] });
    await t.current.app.services.matchSupervision.tick();
    const now = await matchOf(t.current, match.id);
    expect(now).toMatchObject({ status: 'LIVE', address: expect.stringMatching(/^127\.0\.0\.1:\d+$/) });
    for (const name of ['alice', 'bob']) {
      expect(await notices(t.current, name)).toContainEqual(
        expect.objectContaining({ key: 'ranked.ready', title: 'Votre match est prêt : Duel 1.8.8', params: expect.objectContaining({ address: now.address, seconds: JOIN_MS / 1000 }) }),
      );
    }
    const card = (await t.current.as('alice', { method: 'GET', url: '/v1/ranked/me' })).json().match;
    expect(card).toMatchObject({ status: 'LIVE', address: now.address, joinBy: new Date(now.startedAt!.getTime() + JOIN_MS).toISOString() });
    const en = (await t.current.as('bob', { method: 'GET', url: '/v1/user/notifications', headers: { cookie: 'locale=en' } })).json().data[0];
    expect(en.data.description).toContain(`Join ${now.address} within 120 seconds`);
  });

  it('gives the players the match server’s address by name when the game gateway runs', async () => {
    const { match, gameId } = await matched(t.current);
    // The gateway's answer for this game, as it gives it once its names are loaded.
    const deps = (t.current.app.services.matchSupervision as unknown as { deps: { namedAddress: (id: string) => string | null } }).deps;
    const named = deps.namedAddress;
    deps.namedAddress = (id) => (id === gameId ? 'match-duel.localhost' : null);
    try {
      await t.current.app.services.reconciler.tick();
      await t.current.app.services.reconciler.tick();
      await t.current.app.services.matchSupervision.tick();
    } finally {
      deps.namedAddress = named;
    }
    expect(await matchOf(t.current, match.id)).toMatchObject({ status: 'LIVE', address: 'match-duel.localhost' });
    expect(await notices(t.current, 'alice')).toContainEqual(expect.objectContaining({ key: 'ranked.ready', params: expect.objectContaining({ address: 'match-duel.localhost' }) }));
  });

  it('counts the kills between the two players once, whatever is read twice, and ends at the first to 3', async () => {
    const { match, gameId, alice, bob } = await live(t.current);
    const s = t.current.app.services;
    t.current.driver.print(gameId, log('AliceMC joined the game'));
    t.current.driver.print(gameId, log('BobMC joined the game'));
    t.current.driver.print(gameId, log('BobMC was slain by AliceMC'));
    t.current.driver.print(gameId, log('AliceMC was slain by Zombie'));
    t.current.driver.print(gameId, log('<BobMC> AliceMC was slain by BobMC'));
    await s.matchSupervision.tick();
    await s.matchSupervision.tick();
    expect(await matchOf(t.current, match.id)).toMatchObject({ status: 'LIVE', killsA: 1, killsB: 0, joinedA: true, joinedB: true });
    t.current.driver.print(gameId, log('BobMC was slain by AliceMC'));
    t.current.driver.print(gameId, log('Eve was slain by AliceMC'));
    await s.matchSupervision.tick();
    expect((await matchOf(t.current, match.id)).killsA).toBe(2);
    t.current.driver.print(gameId, log('AliceMC was slain by BobMC'));
    t.current.driver.print(gameId, log('BobMC was slain by AliceMC'));
    // Two rounds at once (two replicas): one ends it, the other finds nothing to do.
    const ended = await Promise.all([s.matchSupervision.tick(), s.matchSupervision.tick()]);
    expect(ended[0]! + ended[1]!).toBe(1);
    expect(await s.matchSupervision.tick()).toBe(0);
    expect(await matchOf(t.current, match.id)).toMatchObject({ status: 'FINISHED', result: 'PLAYER_A', killsA: 3, killsB: 1 });
    const history = await s.db.select().from(ratingHistory).where(eq(ratingHistory.matchId, match.id));
    expect(history).toHaveLength(2);
    const of = (id: string) => history.find((h) => h.userId === id)!;
    expect(of(alice).ratingAfter).toBeGreaterThan(of(alice).ratingBefore);
    expect(of(bob).ratingAfter).toBeLessThan(of(bob).ratingBefore);
    expect((await notices(t.current, 'alice')).filter((n) => n.key === 'ranked.won')).toHaveLength(1);
    expect((await notices(t.current, 'bob')).filter((n) => n.key === 'ranked.lost')).toHaveLength(1);

    expect(await removed(t.current, match.id)).toBe(true);
    expect(t.current.driver.calls).toContain(`remove ${gameId}`);
    expect(t.current.driver.servers.has(gameId)).toBe(false);
    expect(await gameOf(t.current, gameId)).toMatchObject({ desiredState: 'stopped', worldDeletedAt: expect.any(Date), deletedAt: expect.any(Date) });
  });

  it('at the time limit gives the match to the most kills, or a draw when equal', async () => {
    const first = await live(t.current);
    const s = t.current.app.services;
    t.current.driver.print(first.gameId, log('BobMC was slain by AliceMC'));
    t.current.driver.print(first.gameId, log('AliceMC was slain by BobMC'));
    await s.matchSupervision.tick();
    t.current.clock.advance(600_000);
    expect(await s.matchSupervision.tick()).toBe(1);
    expect(await matchOf(t.current, first.match.id)).toMatchObject({ status: 'FINISHED', result: 'DRAW', killsA: 1, killsB: 1 });
    expect(await notices(t.current, 'alice')).toContainEqual(expect.objectContaining({ key: 'ranked.drew' }));
  });

  it('at the time limit gives the match to the player with more kills', async () => {
    const { match, gameId } = await live(t.current);
    const s = t.current.app.services;
    t.current.driver.print(gameId, log('AliceMC was slain by BobMC'));
    t.current.driver.print(gameId, log('AliceMC was slain by BobMC'));
    t.current.driver.print(gameId, log('BobMC was slain by AliceMC'));
    t.current.clock.advance(599_000);
    expect(await s.matchSupervision.tick()).toBe(0);
    t.current.clock.advance(1_000);
    expect(await s.matchSupervision.tick()).toBe(1);
    expect(await matchOf(t.current, match.id)).toMatchObject({ status: 'FINISHED', result: 'PLAYER_B', killsA: 1, killsB: 2 });
  });

  it('gives the match to the player who joined when the other did not within 2 minutes', async () => {
    const { match, gameId } = await live(t.current);
    const s = t.current.app.services;
    t.current.driver.join(gameId, 'BobMC');
    t.current.clock.advance(JOIN_MS - 1000);
    expect(await s.matchSupervision.tick()).toBe(0);
    t.current.clock.advance(1000);
    expect(await s.matchSupervision.tick()).toBe(1);
    expect(await matchOf(t.current, match.id)).toMatchObject({ status: 'FINISHED', result: 'PLAYER_B' });
    expect(await notices(t.current, 'alice')).toContainEqual(expect.objectContaining({ key: 'ranked.lost' }));
  });

  it('asks a LIVE match’s server who is online only while a player is unseen, so a busy server holds up no other match', async () => {
    const { match, gameId } = await live(t.current);
    const s = t.current.app.services;
    const driver = t.current.driver;
    const asked: string[] = [];
    const observe = driver.observe.bind(driver);
    driver.observe = (game) => {
      asked.push(game.id);
      return observe(game);
    };
    // Alice on the server with no line of it (the API was down): the server's own list counts her.
    driver.join(gameId, 'AliceMC');
    await s.matchSupervision.tick();
    expect(await matchOf(t.current, match.id)).toMatchObject({ joinedA: true, joinedB: false });
    expect(asked).toContain(gameId);
    // Both seen: the rounds read the console alone (a server busy with logins and chunks answers late).
    driver.print(gameId, log('BobMC joined the game'));
    asked.length = 0;
    await s.matchSupervision.tick();
    await s.matchSupervision.tick();
    expect(await matchOf(t.current, match.id)).toMatchObject({ status: 'LIVE', joinedA: true, joinedB: true });
    expect(asked).not.toContain(gameId);
  });

  it('cancels the match when neither joined, with no rating change, both told', async () => {
    const { match } = await live(t.current);
    const s = t.current.app.services;
    t.current.clock.advance(JOIN_MS);
    expect(await s.matchSupervision.tick()).toBe(1);
    expect(await matchOf(t.current, match.id)).toMatchObject({ status: 'CANCELLED', reason: 'noShow' });
    expect(await s.db.select().from(ratingHistory).where(eq(ratingHistory.matchId, match.id))).toEqual([]);
    for (const name of ['alice', 'bob']) expect(await notices(t.current, name)).toContainEqual(expect.objectContaining({ key: 'ranked.cancelled' }));
    expect(await removed(t.current, match.id)).toBe(true);
  });

  it('voids the match when its server crashes', async () => {
    const { match, gameId } = await live(t.current);
    const s = t.current.app.services;
    t.current.driver.crash(gameId);
    await s.reconciler.tick();
    expect(await s.matchSupervision.tick()).toBe(1);
    expect(await matchOf(t.current, match.id)).toMatchObject({ status: 'VOID', reason: 'serverCrashed' });
    expect(await s.db.select().from(ratingHistory).where(eq(ratingHistory.matchId, match.id))).toEqual([]);
    expect(await notices(t.current, 'bob')).toContainEqual(expect.objectContaining({ key: 'ranked.voided' }));
    expect(await removed(t.current, match.id)).toBe(true);
  });

  it('voids the match when its server fails to start', async () => {
    const { match, gameId } = await matched(t.current);
    const s = t.current.app.services;
    t.current.driver.failNextStart = 'no image';
    await s.reconciler.tick();
    expect((await gameOf(t.current, gameId)).status).toBe('CRASHED');
    expect(await s.matchSupervision.tick()).toBe(1);
    expect(await matchOf(t.current, match.id)).toMatchObject({ status: 'VOID', reason: 'serverFailed' });
    expect(await notices(t.current, 'alice')).toContainEqual(expect.objectContaining({ key: 'ranked.voided', description: expect.stringContaining('n’a pas pu démarrer') }));
    expect(await removed(t.current, match.id)).toBe(true);
  });
});

describe('ranked match servers, with the loops running', () => {
  let t: (TestApp & { origin: string }) | undefined;
  afterEach(async () => {
    await t?.close();
  });

  it('starts the match server when the match is made, makes it LIVE once running and ends it at the last kill, none of them waiting for a round', async () => {
    // Rounds ten minutes apart: only what the commits and the console tell can act within the test.
    t = await startListeningApp({ GAME_RECONCILE_INTERVAL_MS: '600000' });
    const s = t.app.services;
    s.reconciler.start();
    s.matchSupervision.start(600_000);
    const stream = await openStream(`${t.origin}/v1/user/notifications/stream`, await t.token('alice'));
    const { match, gameId } = await matched(t);
    const notices = () => stream.events.filter((e) => e.event === 'basic-link-event').map((e) => JSON.parse(e.data) as { title: string });
    // The match's notice, then the server's address.
    await stream.waitFor('basic-link-event', 2, 10_000);
    expect(notices()[1]!.title).toBe('Votre match est prêt : Duel 1.8.8');
    expect(t.driver.calls).toContain(`start ${gameId}`);
    expect(await matchOf(t, match.id)).toMatchObject({ status: 'LIVE', address: expect.stringMatching(/^127\.0\.0\.1:\d+$/) });

    for (let kill = 0; kill < 3; kill++) t.driver.print(gameId, log('BobMC was slain by AliceMC'));
    await stream.waitFor('basic-link-event', 3, 10_000);
    // The ending's round commits before the notice is heard: stopping waits for it.
    await s.matchSupervision.stop();
    expect(await matchOf(t, match.id)).toMatchObject({ status: 'FINISHED', result: 'PLAYER_A', killsA: 3 });
    stream.close();
  });
});
