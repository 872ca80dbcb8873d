import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { startListeningApp, useTestApp, type TestApp } from '../fixtures/app.ts';
import { catalogue, fund, userId } from '../fixtures/games.ts';
import { openStream } from '../fixtures/sse.ts';
import { rankedMatches, rankedRatings, tournamentPayouts } from '../../src/server/db/schema/competitions.ts';
import { ledgerEntries } from '../../src/server/db/schema/credits.ts';
import { auditLog } from '../../src/server/db/schema/audit.ts';
import { gamePlayers } from '../../src/server/db/schema/games.ts';
import { seasonOf } from '../../src/server/modules/competitions/seasons.ts';

const HOUR = 3600_000;
const staff = { roles: ['staff'] };
const mcName = (name: string) => `${name[0]!.toUpperCase()}${name.slice(1)}MC`;

/** The Duel mode on a definition of the catalogue, and players with linked Minecraft accounts and credits. */
async function ready(t: TestApp, players: string[], credits = 100) {
  const { definitionId } = await catalogue(t);
  await t.app.services.competitions.seedModes(new Map([['1.8.8', definitionId]]));
  const modeId = (await t.app.inject({ url: '/v1/ranked/modes' })).json().data[0].id as string;
  for (const name of players) {
    expect((await t.as(name, { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: mcName(name) } })).statusCode).toBeLessThan(300);
    if (credits > 0) await fund(t, name, credits);
  }
  return modeId;
}

/** A tournament made by staff: registration open now, check-in from +1 h, start at +2 h. */
async function create(t: TestApp, modeId: string, overrides: Record<string, unknown> = {}) {
  const now = t.clock.now.getTime();
  const at = (ms: number) => new Date(now + ms).toISOString();
  const res = await t.as('boss', {
    ...staff,
    method: 'POST',
    url: '/v1/staff/tournaments',
    payload: {
      slug: 'coupe-test',
      name: { fr: 'Coupe test', en: 'Test cup' },
      rules: { fr: 'Premier à 3 éliminations.', en: 'First to 3 kills.' },
      modeId,
      format: 'SINGLE_ELIMINATION',
      maxEntrants: 8,
      registrationOpensAt: at(-HOUR),
      registrationClosesAt: at(HOUR),
      checkInOpensAt: at(HOUR),
      checkInClosesAt: at(2 * HOUR),
      startsAt: at(2 * HOUR),
      entryFee: 10,
      prizeFirst: 100,
      prizeSecond: 0,
      prizeThird: 0,
      ...overrides,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; slug: string };
}

const register = (t: TestApp, name: string, key?: string) => t.as(name, { method: 'POST', url: '/v1/tournaments/coupe-test/registration', headers: key ? { 'idempotency-key': key } : {} });
const checkIn = (t: TestApp, name: string) => t.as(name, { method: 'POST', url: '/v1/tournaments/coupe-test/check-in' });
const balance = async (t: TestApp, name: string) => (await t.as(name, { method: 'GET', url: '/v1/user' })).json().balance as number;
const view = async (t: TestApp) => (await t.app.inject({ url: '/v1/tournaments/coupe-test' })).json();
const openMatches = (t: TestApp, tournamentId: string) =>
  t.app.services.db
    .select()
    .from(rankedMatches)
    .where(and(eq(rankedMatches.tournamentId, tournamentId)));

/** Registers and checks in `players`, then starts the tournament (the clock at its start, one round). */
async function started(t: TestApp, modeId: string, players: string[], overrides: Record<string, unknown> = {}) {
  const tournament = await create(t, modeId, overrides);
  for (const name of players) expect((await register(t, name)).statusCode).toBe(201);
  t.clock.advance(HOUR);
  for (const name of players) expect((await checkIn(t, name)).statusCode).toBe(200);
  t.clock.advance(HOUR);
  expect(await t.app.services.tournamentRounds.tick()).toBe(1);
  return tournament;
}

/** Ends a tournament match as the supervision would: `winner` took 3 kills. */
async function win(t: TestApp, matchId: string, winner: string) {
  const [m] = await t.app.services.db.select().from(rankedMatches).where(eq(rankedMatches.id, matchId));
  const loser = m!.playerA === winner ? m!.playerB : m!.playerA;
  await t.app.services.db.update(rankedMatches).set({ joinedA: true, joinedB: true }).where(eq(rankedMatches.id, matchId));
  return t.app.services.matchResults.recordResult(matchId, { winner, kills: { [winner]: 3, [loser]: 1 } });
}

const live = (rows: Array<typeof rankedMatches.$inferSelect>) => rows.filter((r) => r.status === 'PENDING' || r.status === 'LIVE');

describe('tournaments', () => {
  const t = useTestApp();

  it('lets staff make and change a tournament, audit-logged; support reads; players and support may not write', async () => {
    const modeId = await ready(t.current, []);
    const made = await create(t.current, modeId);
    const [entry] = await t.current.app.services.db.select().from(auditLog).where(eq(auditLog.entityId, made.id));
    expect(entry).toMatchObject({ action: 'tournament.create', entity: 'tournament' });
    expect((await t.current.as('boss', { ...staff, method: 'POST', url: '/v1/staff/tournaments', payload: { ...(await view(t.current)), id: undefined } })).statusCode).toBe(400);
    const again = await t.current.as('boss', { ...staff, method: 'PUT', url: `/v1/staff/tournaments/${made.id}`, payload: { maxEntrants: 4, name: { fr: 'Coupe', en: 'Cup' } } });
    expect(again.json()).toMatchObject({ maxEntrants: 4, name: { fr: 'Coupe', en: 'Cup' } });
    const wrong = await t.current.as('boss', {
      ...staff,
      method: 'PUT',
      url: `/v1/staff/tournaments/${made.id}`,
      payload: { checkInClosesAt: new Date(t.current.clock.now.getTime() + 5 * HOUR).toISOString() },
      headers: { cookie: 'locale=en' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual([expect.objectContaining({ field: 'checkInClosesAt', message: 'must be at the latest when the tournament starts' })]);
    expect((await t.current.as('help', { roles: ['support'], method: 'GET', url: `/v1/staff/tournaments/${made.id}` })).json().slug).toBe('coupe-test');
    expect((await t.current.as('help', { roles: ['support'], method: 'GET', url: '/v1/staff/tournaments' })).json().totalElements).toBe(1);
    expect((await t.current.as('help', { roles: ['support'], method: 'PUT', url: `/v1/staff/tournaments/${made.id}`, payload: { maxEntrants: 2 } })).statusCode).toBe(403);
    expect((await t.current.as('alice', { method: 'POST', url: '/v1/staff/tournaments', payload: {} })).statusCode).toBe(403);
    const taken = await t.current.as('boss', { ...staff, method: 'POST', url: '/v1/staff/tournaments', payload: { ...pickCreate(await view(t.current)) } });
    expect(taken.statusCode).toBe(409);
    expect((await t.current.app.inject({ url: '/v1/tournaments?when=upcoming' })).json().data.map((x: { slug: string }) => x.slug)).toEqual(['coupe-test']);
    expect((await t.current.app.inject({ url: '/v1/tournaments?when=past' })).json().totalElements).toBe(0);
    expect((await t.current.app.inject({ url: '/v1/tournaments/nope-nope' })).statusCode).toBe(404);
  });

  it('charges the fee at registration, once per key, refuses what the rules refuse, and refunds a withdrawal once', async () => {
    const modeId = await ready(t.current, ['alice', 'bob', 'carol']);
    await create(t.current, modeId, { maxEntrants: 2 });
    await t.current.as('dave', { method: 'GET', url: '/v1/user' });
    expect((await register(t.current, 'dave')).json()).toMatchObject({ code: 'ranked.notLinked' });
    const first = await register(t.current, 'alice', 'key-1');
    expect(first.statusCode).toBe(201);
    expect((await register(t.current, 'alice', 'key-1')).json()).toEqual(first.json());
    expect(await balance(t.current, 'alice')).toBe(90);
    expect((await register(t.current, 'alice', 'key-2')).json()).toMatchObject({ code: 'tournaments.alreadyRegistered' });
    expect(await balance(t.current, 'alice')).toBe(90);
    await t.current.app.services.credits.apply(t.current.app.services.db, {
      userId: await userId(t.current, 'bob'),
      amount: -95,
      kind: 'ADMIN_ADJUSTMENT',
      reason: { key: 'text', params: { text: 'x' } },
    });
    expect((await register(t.current, 'bob')).statusCode).toBe(402);
    expect((await register(t.current, 'carol')).statusCode).toBe(201);
    expect((await register(t.current, 'bob')).json()).toMatchObject({ code: 'tournaments.full' });

    expect((await t.current.as('carol', { method: 'DELETE', url: '/v1/tournaments/coupe-test/registration' })).statusCode).toBe(204);
    expect((await t.current.as('carol', { method: 'DELETE', url: '/v1/tournaments/coupe-test/registration' })).statusCode).toBe(404);
    expect(await balance(t.current, 'carol')).toBe(100);
    const carol = await userId(t.current, 'carol');
    const lines = await t.current.app.services.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, carol));
    expect(lines.filter((l) => l.kind === 'TOURNAMENT_REFUND').map((l) => l.amount)).toEqual([10]);
    expect((await checkIn(t.current, 'alice')).json()).toMatchObject({ code: 'tournaments.checkInClosed' });
    t.current.clock.advance(HOUR);
    expect((await register(t.current, 'carol')).json()).toMatchObject({ code: 'tournaments.registrationClosed' });
    const checked = await checkIn(t.current, 'alice');
    expect(checked.json()).toMatchObject({ status: 'CHECKED_IN' });
    expect((await checkIn(t.current, 'alice')).json()).toEqual(checked.json());
    expect((await checkIn(t.current, 'carol')).statusCode).toBe(404);
    const notices = (await t.current.as('alice', { method: 'GET', url: '/v1/user/notifications', headers: { cookie: 'locale=en' } })).json().data;
    expect(notices[0].data).toMatchObject({ key: 'tournament.registered', title: 'Registered: Test cup' });
  });

  it('seeds the checked-in players by rating, gives the best a bye, refunds who did not check in, and starts a match server per ready match', async () => {
    const modeId = await ready(t.current, ['alice', 'bob', 'carol', 'dave']);
    const s = t.current.app.services;
    const season = await seasonOf(s.db, t.current.clock.now);
    const ratings = { alice: 1400, bob: 1700, carol: 1550 };
    for (const [name, rating] of Object.entries(ratings))
      await s.db.insert(rankedRatings).values({ userId: await userId(t.current, name), modeId, seasonId: season.id, rating, rd: 100, volatility: 0.06 });
    const tournament = await create(t.current, modeId);
    for (const name of ['dave', 'alice', 'bob', 'carol']) expect((await register(t.current, name)).statusCode).toBe(201);
    t.current.clock.advance(HOUR);
    expect(await s.tournamentRounds.tick()).toBe(0);
    expect((await t.current.as('dave', { method: 'GET', url: '/v1/user/notifications' })).json().data[0].data.key).toBe('tournament.checkInOpen');
    for (const name of ['alice', 'bob', 'carol']) expect((await checkIn(t.current, name)).statusCode).toBe(200);
    t.current.clock.advance(HOUR);
    expect(await s.tournamentRounds.tick()).toBe(1);
    const page = await view(t.current);
    expect(page.status).toBe('LIVE');
    expect(page.entrantList.map((e: { player: { name: string }; seed: number }) => [e.player.name, e.seed])).toEqual([
      ['bob', 1],
      ['carol', 2],
      ['alice', 3],
      ['dave', null],
    ]);
    expect(page.entrantList.find((e: { player: { name: string } }) => e.player.name === 'dave').status).toBe('MISSED');
    expect(await balance(t.current, 'dave')).toBe(100);
    // Bob (seed 1) meets the bye; Carol and Alice play; the final waits.
    const first = page.bracket.filter((m: { round: number }) => m.round === 1);
    expect(first.map((m: { sides: Array<{ player: { name: string } | null }> }) => m.sides.map((x) => x.player?.name ?? null))).toEqual([
      ['bob', null],
      ['carol', 'alice'],
    ]);
    expect(first[1].status).toBe('RUNNING');
    const [match] = await openMatches(t.current, tournament.id);
    expect(match).toMatchObject({ status: 'PENDING', playerA: await userId(t.current, 'carol'), playerB: await userId(t.current, 'alice'), bracketMatchId: first[1].id });
    const whitelist = await s.db.select().from(gamePlayers).where(eq(gamePlayers.gameId, match!.gameId!));
    expect(whitelist.map((p) => p.name).sort()).toEqual(['AliceMC', 'CarolMC']);
    // A stranger gets 404 on the match; the bracket never shows its address.
    expect((await t.current.as('bob', { method: 'GET', url: `/v1/ranked/matches/${match!.id}` })).statusCode).toBe(404);
    expect((await t.current.as('alice', { method: 'GET', url: `/v1/ranked/matches/${match!.id}` })).statusCode).toBe(200);
    expect(JSON.stringify(page)).not.toContain('address');
    // Another round starts nothing twice.
    await s.tournamentRounds.tick();
    expect(await openMatches(t.current, tournament.id)).toHaveLength(1);
  });
});

/** The fields a creation takes, from a tournament as read. */
function pickCreate(v: Record<string, unknown>) {
  const keys = [
    'slug',
    'name',
    'rules',
    'modeId',
    'format',
    'maxEntrants',
    'registrationOpensAt',
    'registrationClosesAt',
    'checkInOpensAt',
    'checkInClosesAt',
    'startsAt',
    'entryFee',
    'prizeFirst',
    'prizeSecond',
    'prizeThird',
  ];
  return Object.fromEntries(keys.map((k) => [k, v[k]]));
}

describe('tournament brackets', () => {
  const t = useTestApp();

  it('moves the bracket with each result, a forfeit too, and pays the prize once when the final ends', async () => {
    const players = ['alice', 'bob', 'carol', 'dave'];
    const modeId = await ready(t.current, players);
    const s = t.current.app.services;
    const tournament = await started(t.current, modeId, players);
    const semis = live(await openMatches(t.current, tournament.id));
    expect(semis).toHaveLength(2);
    expect(await win(t.current, semis[0]!.id, semis[0]!.playerA)).toBe(true);
    // A no-show: the one who joined wins by forfeit, as the supervision ends it.
    await s.db.update(rankedMatches).set({ joinedA: false, joinedB: true }).where(eq(rankedMatches.id, semis[1]!.id));
    expect(await s.matchResults.recordResult(semis[1]!.id, { winner: semis[1]!.playerB, kills: {} })).toBe(true);
    const page = await view(t.current);
    const forfeited = page.bracket.find((m: { id: number }) => m.id === semis[1]!.bracketMatchId);
    expect(forfeited.sides[0]).toMatchObject({ forfeit: true });
    const [final] = live(await openMatches(t.current, tournament.id));
    expect([final!.playerA, final!.playerB].sort()).toEqual([semis[0]!.playerA, semis[1]!.playerB].sort());
    expect(page.bracket.find((m: { id: number }) => m.id === final!.bracketMatchId).status).toBe('RUNNING');

    const winner = final!.playerB;
    const before = await s.credits.balance(winner);
    expect(await win(t.current, final!.id, winner)).toBe(true);
    expect(await win(t.current, final!.id, winner)).toBe(false);
    await s.tournamentRounds.tick();
    expect(await s.credits.balance(winner)).toBe(before + 100);
    const prizes = await s.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, winner), eq(ledgerEntries.kind, 'TOURNAMENT_PRIZE')));
    expect(prizes).toHaveLength(1);
    const over = await view(t.current);
    expect(over).toMatchObject({
      status: 'FINISHED',
      winner: { id: winner },
      results: [
        { place: 1, player: { id: winner }, prize: 100, prizePaid: true },
        { place: 2, prize: 0, prizePaid: false },
        { place: 3, prize: 0, prizePaid: false },
      ],
    });
    expect((await t.current.app.inject({ url: '/v1/tournaments?when=past' })).json().data[0]).toMatchObject({ slug: 'coupe-test', winner: { id: winner } });
    const notices = (await t.current.app.services.notifications.list(winner, 'en', { limit: 5, offset: 0, page: 0, size: 5 })).data;
    expect(notices.map((n) => n.data.key)).toContain('tournament.prizePaid');
  });

  it('pays a prize once when its transaction is cut off half-way and the ending is read again', async () => {
    const players = ['alice', 'bob'];
    const modeId = await ready(t.current, players);
    const s = t.current.app.services;
    const tournament = await started(t.current, modeId, players);
    const [final] = live(await openMatches(t.current, tournament.id));
    const notify = s.notifications.notify.bind(s.notifications);
    let cut = true;
    // The process dies after the prize's ledger line, before the commit: nothing of the ending stays.
    s.notifications.notify = async (...args) => {
      if (cut && args[1].key === 'tournament.prizePaid') {
        cut = false;
        throw new Error('killed');
      }
      return notify(...args);
    };
    await expect(win(t.current, final!.id, final!.playerA)).rejects.toThrow('killed');
    expect(await s.db.select().from(tournamentPayouts)).toEqual([]);
    expect((await view(t.current)).status).toBe('LIVE');
    expect(await win(t.current, final!.id, final!.playerA)).toBe(true);
    expect(await win(t.current, final!.id, final!.playerA)).toBe(false);
    await s.tournamentRounds.tick();
    const lines = await s.db.select().from(ledgerEntries).where(eq(ledgerEntries.kind, 'TOURNAMENT_PRIZE'));
    expect(lines.map((l) => [l.userId, l.amount])).toEqual([[final!.playerA, 100]]);
    expect(await s.db.select().from(tournamentPayouts)).toHaveLength(1);
  });

  it('plays a match again on a new server when its server crashes, and lets staff decide a match with a reason, audit-logged', async () => {
    const players = ['alice', 'bob', 'carol', 'dave'];
    const modeId = await ready(t.current, players);
    const s = t.current.app.services;
    const tournament = await started(t.current, modeId, players);
    const [semi] = live(await openMatches(t.current, tournament.id));
    expect(await s.matchResults.voidMatch(semi!.id, 'serverCrashed')).toBe(true);
    const again = live(await openMatches(t.current, tournament.id)).filter((m) => m.bracketMatchId === semi!.bracketMatchId);
    expect(again).toHaveLength(1);
    expect(again[0]!.id).not.toBe(semi!.id);
    expect(again[0]!.gameId).not.toBe(semi!.gameId);

    const decide = (roles: string[], winnerId: string, matchId = semi!.bracketMatchId) =>
      t.current.as(roles.includes('staff') ? 'boss' : 'help', {
        roles,
        method: 'POST',
        url: `/v1/staff/tournaments/${tournament.id}/matches/${matchId}/result`,
        payload: { winnerId, reason: 'Le serveur a planté deux fois' },
      });
    expect((await decide(['support'], again[0]!.playerA)).statusCode).toBe(403);
    expect((await decide(['staff'], await userId(t.current, 'boss'))).statusCode).toBe(400);
    const decided = await decide(['staff'], again[0]!.playerA);
    expect(decided.statusCode, decided.body).toBe(200);
    const match = decided.json().bracket.find((m: { id: number }) => m.id === semi!.bracketMatchId);
    expect(match).toMatchObject({ status: 'COMPLETED', winnerId: again[0]!.playerA, overrideReason: 'Le serveur a planté deux fois' });
    const [voided] = await s.db.select().from(rankedMatches).where(eq(rankedMatches.id, again[0]!.id));
    expect(voided).toMatchObject({ status: 'VOID', reason: 'overridden' });
    expect((await decide(['staff'], again[0]!.playerA)).json()).toMatchObject({ code: 'tournaments.matchDecided' });
    const audit = await s.db.select().from(auditLog).where(eq(auditLog.action, 'tournament.override'));
    expect(audit).toEqual([expect.objectContaining({ entityId: tournament.id, reason: 'Le serveur a planté deux fois' })]);
  });

  it('cancels a tournament with every fee given back once', async () => {
    const modeId = await ready(t.current, ['alice', 'bob']);
    const tournament = await create(t.current, modeId);
    for (const name of ['alice', 'bob']) await register(t.current, name);
    const cancel = () => t.current.as('boss', { ...staff, method: 'POST', url: `/v1/staff/tournaments/${tournament.id}/cancel`, payload: { reason: 'Serveurs en maintenance' } });
    expect((await cancel()).json()).toMatchObject({ status: 'CANCELLED', cancelReason: 'Serveurs en maintenance' });
    expect((await cancel()).json()).toMatchObject({ code: 'tournaments.over' });
    expect(await balance(t.current, 'alice')).toBe(100);
    expect(await balance(t.current, 'bob')).toBe(100);
  });
});

describe('a deleted account’s tournaments', () => {
  const t = useTestApp();
  /** The test tokens' users have no password of the built-in provider: its side (tested in account-deletion.test.ts) confirms and forgets nothing here. */
  const deleteAccount = async (name: string) => {
    const { accountDeletion } = t.current.app.services;
    accountDeletion.useIdentity({ confirm: async () => {}, forget: async () => {} });
    const deleted = await accountDeletion.request(await userId(t.current, name), {});
    expect(await accountDeletion.tick()).toBe(1);
    return deleted;
  };

  it('withdraws a registration before the start with its fee forfeited with the credits, not refunded', async () => {
    const modeId = await ready(t.current, ['alice', 'bob']);
    const s = t.current.app.services;
    await create(t.current, modeId);
    for (const name of ['alice', 'bob']) expect((await register(t.current, name)).statusCode).toBe(201);
    const aliceId = await userId(t.current, 'alice');
    const exported = (await s.personalData.collect({ id: aliceId, locale: 'en' })).tournaments;
    expect(exported).toEqual([expect.objectContaining({ tournament: expect.objectContaining({ slug: 'coupe-test' }), status: 'REGISTERED', feePaid: 10, mcName: 'AliceMC' })]);

    expect(await deleteAccount('alice')).toEqual({ creditsForfeited: 90 });
    const page = await view(t.current);
    expect(page.entrants).toBe(1);
    expect(page.entrantList.map((e: { player: { id: string } }) => e.player.id)).not.toContain(aliceId);
    const refunds = await s.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, aliceId), eq(ledgerEntries.kind, 'TOURNAMENT_REFUND')));
    expect(refunds).toEqual([]);
    expect(await s.credits.balance(aliceId)).toBe(0);
    expect((await s.personalData.collect({ id: aliceId, locale: 'en' })).tournaments).toEqual([expect.objectContaining({ status: 'WITHDRAWN', mcName: '' })]);
    // Staff cancelling later gives back bob's fee alone.
    const cancel = await t.current.as('boss', { ...staff, method: 'POST', url: `/v1/staff/tournaments/${page.id}/cancel`, payload: { reason: 'Plus assez de joueurs' } });
    expect(cancel.statusCode).toBe(200);
    expect(await s.credits.balance(aliceId)).toBe(0);
    expect(await balance(t.current, 'bob')).toBe(100);
  });

  it('forfeits the current and next bracket matches after the start, once: the opponent goes on, nothing is played again with the deleted player', async () => {
    const players = ['alice', 'bob', 'carol', 'dave'];
    const modeId = await ready(t.current, players);
    const s = t.current.app.services;
    const tournament = await started(t.current, modeId, players);
    const aliceId = await userId(t.current, 'alice');
    const semis = live(await openMatches(t.current, tournament.id));
    const hers = semis.find((m) => m.playerA === aliceId || m.playerB === aliceId)!;
    const other = semis.find((m) => m !== hers)!;
    const opponent = hers.playerA === aliceId ? hers.playerB : hers.playerA;
    expect((await s.personalData.collect({ id: aliceId, locale: 'en' })).tournaments).toEqual([expect.objectContaining({ status: 'CHECKED_IN', seed: expect.any(Number) })]);

    await deleteAccount('alice');
    const [voided] = await s.db.select().from(rankedMatches).where(eq(rankedMatches.id, hers.id));
    expect(voided).toMatchObject({ status: 'VOID', reason: 'accountDeleted' });
    const page = await view(t.current);
    const decided = page.bracket.find((m: { id: number }) => m.id === hers.bracketMatchId);
    expect(decided).toMatchObject({ status: 'COMPLETED', winnerId: opponent });
    expect(decided.sides.find((side: { player: { id: string } }) => side.player.id === aliceId)).toMatchObject({ forfeit: true });
    // Nothing played again with her, even when the erasure runs twice and the rounds pass.
    await s.personalData.erase(aliceId);
    await s.tournamentRounds.tick();
    const open = live(await openMatches(t.current, tournament.id));
    expect(open.map((m) => m.id)).toEqual([other.id]);
    expect((await s.db.select().from(rankedMatches).where(eq(rankedMatches.tournamentId, tournament.id))).filter((m) => m.playerA === aliceId || m.playerB === aliceId)).toHaveLength(1);

    // The other semi ends: the final is between its winner and her opponent.
    expect(await win(t.current, other.id, other.playerA)).toBe(true);
    const [final] = live(await openMatches(t.current, tournament.id));
    expect([final!.playerA, final!.playerB].sort()).toEqual([other.playerA, opponent].sort());
  });

  it('forfeits each of a round robin’s matches left to play, as they come', async () => {
    const players = ['alice', 'bob', 'carol'];
    const modeId = await ready(t.current, players);
    const s = t.current.app.services;
    const tournament = await started(t.current, modeId, players, { format: 'ROUND_ROBIN' });
    const aliceId = await userId(t.current, 'alice');
    await deleteAccount('alice');
    for (let m = live(await openMatches(t.current, tournament.id))[0]; m; m = live(await openMatches(t.current, tournament.id))[0]) {
      expect([m.playerA, m.playerB]).not.toContain(aliceId);
      expect(await win(t.current, m.id, m.playerA)).toBe(true);
      await s.tournamentRounds.tick();
    }
    const page = await view(t.current);
    expect(page.status).toBe('FINISHED');
    const hers = page.bracket.filter((m: { sides: Array<{ player: { id: string } | null }> }) => m.sides.some((side) => side.player?.id === aliceId));
    expect(hers).toHaveLength(2);
    for (const m of hers) expect(m.winnerId).not.toBe(aliceId);
  });
});

describe('an account deleted less than a round before a payment', () => {
  const t = useTestApp();
  /** The deletion committed (the account refused, its credits forfeited); its erasure, the next round's, not run yet. */
  const deleteNow = async (name: string) => {
    const { accountDeletion } = t.current.app.services;
    accountDeletion.useIdentity({ confirm: async () => {}, forget: async () => {} });
    const id = await userId(t.current, name);
    await accountDeletion.request(id, {});
    return id;
  };
  const paid = async (id: string, kind: 'TOURNAMENT_REFUND' | 'TOURNAMENT_PRIZE') =>
    (
      await t.current.app.services.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.userId, id), eq(ledgerEntries.kind, kind)))
    ).map((l) => l.amount);

  it('refunds it nothing at the start, leaves its check-in out of the bracket, and the tournament starts with the others', async () => {
    const players = ['alice', 'bob', 'carol', 'dave'];
    const modeId = await ready(t.current, players);
    const s = t.current.app.services;
    const tournament = await create(t.current, modeId);
    for (const name of players) expect((await register(t.current, name)).statusCode).toBe(201);
    t.current.clock.advance(HOUR);
    for (const name of ['bob', 'carol', 'dave']) expect((await checkIn(t.current, name)).statusCode).toBe(200);
    const alice = await deleteNow('alice');
    const dave = await deleteNow('dave');
    t.current.clock.advance(HOUR);
    expect(await s.tournamentRounds.tick()).toBe(1);

    expect(await paid(alice, 'TOURNAMENT_REFUND')).toEqual([]);
    expect(await s.credits.balance(alice)).toBe(0);
    expect(await s.credits.balance(dave)).toBe(0);
    const page = await view(t.current);
    expect(page.status).toBe('LIVE');
    const seeds = Object.fromEntries(page.entrantList.map((e: { player: { id: string }; seed: number | null; status: string }) => [e.player.id, [e.status, e.seed]]));
    expect(seeds[alice]).toEqual(['MISSED', null]);
    // Withdrawn, as its erasure would: off the list and the bracket.
    expect(seeds[dave]).toBeUndefined();
    expect(Object.values(seeds).filter(([, seed]) => seed !== null)).toHaveLength(2);
    const [match] = live(await openMatches(t.current, tournament.id));
    expect([match!.playerA, match!.playerB].sort()).toEqual([await userId(t.current, 'bob'), await userId(t.current, 'carol')].sort());
    // Their erasures then find nothing left to do in the tournament.
    expect(await s.accountDeletion.tick()).toBe(2);
    expect(await paid(alice, 'TOURNAMENT_REFUND')).toEqual([]);
    expect(live(await openMatches(t.current, tournament.id)).map((m) => m.id)).toEqual([match!.id]);
  });

  it('refunds it nothing for a withdrawal already under way nor for a cancellation; the others are refunded', async () => {
    const modeId = await ready(t.current, ['alice', 'bob', 'carol']);
    const s = t.current.app.services;
    const tournament = await create(t.current, modeId);
    for (const name of ['alice', 'bob', 'carol']) expect((await register(t.current, name)).statusCode).toBe(201);
    const alice = await deleteNow('alice');
    const carol = await deleteNow('carol');
    // A withdrawal whose request was let in just before the deletion committed.
    await s.registration.withdraw(alice, 'coupe-test');
    const cancel = await t.current.as('boss', { ...staff, method: 'POST', url: `/v1/staff/tournaments/${tournament.id}/cancel`, payload: { reason: 'Serveurs en maintenance' } });
    expect(cancel.json()).toMatchObject({ status: 'CANCELLED' });
    for (const id of [alice, carol]) {
      expect(await paid(id, 'TOURNAMENT_REFUND')).toEqual([]);
      expect(await s.credits.balance(id)).toBe(0);
    }
    expect(await balance(t.current, 'bob')).toBe(100);
  });

  it('pays it no prize for a final it won: the tournament finishes with its places', async () => {
    const modeId = await ready(t.current, ['alice', 'bob']);
    const s = t.current.app.services;
    const tournament = await started(t.current, modeId, ['alice', 'bob']);
    const [final] = live(await openMatches(t.current, tournament.id));
    const winner = final!.playerA;
    s.accountDeletion.useIdentity({ confirm: async () => {}, forget: async () => {} });
    await s.accountDeletion.request(winner, {});
    expect(await win(t.current, final!.id, winner)).toBe(true);
    await s.tournamentRounds.tick();
    expect(await paid(winner, 'TOURNAMENT_PRIZE')).toEqual([]);
    expect(await s.credits.balance(winner)).toBe(0);
    expect(await s.db.select().from(tournamentPayouts)).toEqual([]);
    // The page says so: the place's prize shown as not paid, not as paid to it.
    expect(await view(t.current)).toMatchObject({ status: 'FINISHED', results: [{ place: 1, player: { id: winner }, prize: 100, prizePaid: false }, { place: 2 }] });
  });
});

describe('a tournament’s page stream', () => {
  let t: (TestApp & { origin: string }) | undefined;
  afterEach(async () => {
    await t?.close();
  });

  it('tells an open page, without a token, of each change', async () => {
    t = await startListeningApp();
    const modeId = await ready(t, ['alice']);
    await create(t, modeId);
    expect((await fetch(`${t.origin}/v1/tournaments/none-such/stream`)).status).toBe(404);
    const stream = await openStream(`${t.origin}/v1/tournaments/coupe-test/stream`, '');
    expect(stream.status).toBe(200);
    await register(t, 'alice');
    const [change] = await stream.waitFor('tournament-change');
    expect(JSON.parse(change!.data)).toEqual({ id: (await view(t)).id });
  });
});
