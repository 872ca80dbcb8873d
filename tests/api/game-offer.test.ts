import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { games } from '../../src/server/db/schema/games.ts';
import { ledgerEntries } from '../../src/server/db/schema/credits.ts';
import { useTestApp, type TestApp } from '../fixtures/app.ts';
import { catalogue, finishBackups, fund, runGame, userId } from '../fixtures/games.ts';
import { befriend } from '../fixtures/social.ts';

const DAY = 24 * 3600_000;

/** A package of `definitionId`, made by staff. */
async function pack(t: TestApp, definitionId: string, name: string, fields: { priceCredits: number; ramMb: number; maxPlayers: number; backupsKept: number; periodDays?: number }) {
  const res = await t.as('boss', {
    roles: ['staff'],
    method: 'POST',
    url: '/v1/definition/game/package',
    payload: { definitionId, name: { fr: `${name} FR`, en: name }, periodDays: 30, ...fields },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

describe('changing a game’s offer', { timeout: 60_000 }, () => {
  const t = useTestApp();
  const balance = async (user = 'alice') => (await t.current.as(user, { method: 'GET', url: '/v1/user' })).json().balance as number;
  const game = async (id: string) => (await t.current.as('alice', { method: 'GET', url: `/v1/game/${id}` })).json();
  const quote = async (id: string, user = 'alice') => t.current.as(user, { method: 'GET', url: `/v1/game/${id}/offer` });
  const change = (id: string, payload: object, options: { user?: string; key?: string; locale?: string } = {}) =>
    t.current.as(options.user ?? 'alice', {
      method: 'POST',
      url: `/v1/game/${id}/offer`,
      payload,
      headers: { ...(options.key ? { 'idempotency-key': options.key } : {}), cookie: `locale=${options.locale ?? 'en'}` },
    });
  const ledger = async (locale = 'en') => (await t.current.as('alice', { method: 'GET', url: '/v1/purchase/transactions', headers: { cookie: `locale=${locale}` } })).json().data;
  const gameRow = async (id: string) => (await t.current.app.services.db.select().from(games).where(eq(games.id, id)))[0]!;

  /**
   * alice's game on Medium (100 credits for 30 days, 1 GB, 10 players, 3 backups) with Large (400,
   * 2 GB, 20 players, 7 backups) and Tiny (40, 512 MB, 4 players, 1 backup) beside it; 10 days on.
   */
  async function setup(credits = 100) {
    const { definitionId } = await catalogue(t.current);
    const medium = await pack(t.current, definitionId, 'Medium', { priceCredits: 100, ramMb: 1024, maxPlayers: 10, backupsKept: 3 });
    const large = await pack(t.current, definitionId, 'Large', { priceCredits: 400, ramMb: 2048, maxPlayers: 20, backupsKept: 7 });
    const tiny = await pack(t.current, definitionId, 'Tiny', { priceCredits: 40, ramMb: 512, maxPlayers: 4, backupsKept: 1 });
    await fund(t.current, 'alice', 100 + credits);
    const res = await t.current.as('alice', { method: 'POST', url: '/v1/game/create', payload: { definitionId, packageId: medium, name: 'My world' } });
    expect(res.statusCode, res.body).toBe(201);
    t.current.clock.advance(10 * DAY);
    return { definitionId, medium, large, tiny, gameId: res.json().id as string, periodEnd: Date.parse(res.json().periodEnd) };
  }

  it('up: charges the difference for the 20 days left, to the day; the server takes the new memory at its next start; the next renewal is at the new price', async () => {
    const { gameId, large, medium } = await setup(500);
    await runGame(t.current, gameId);
    // Half a day later: the day begun counts whole, still 20.
    t.current.clock.advance(DAY / 2);

    const offers = await quote(gameId);
    expect(offers.statusCode, offers.body).toBe(200);
    expect(offers.json()).toMatchObject({ daysLeft: 20, balance: 500 });
    const byId = new Map(offers.json().options.map((o: { package: { id: string } }) => [o.package.id, o]));
    // (400 − 100) credits for 30 days, over 20 days: 200.
    expect(byId.get(large)).toMatchObject({ current: false, amount: 200, missing: 0, backupsToDelete: [], maxPlayersLowered: null, restartNeeded: true });
    expect(byId.get(medium)).toMatchObject({ current: true, amount: 0 });

    const res = await change(gameId, { packageId: large });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ amount: 200, balance: 300, deletedBackups: 0, restartNeeded: true });
    expect(res.json().game).toMatchObject({ packageId: large, ramMb: 2048, maxPlayers: 20, restartNeeded: true });
    expect(await balance()).toBe(300);
    const [line] = await ledger();
    expect(line).toMatchObject({
      amount: -200,
      balanceAfter: 300,
      kind: 'GAME_OFFER_CHANGE',
      reason: 'Game "My world": plan changed from Medium to Large, difference for the 20 days left of the period',
    });
    expect((await ledger('fr'))[0].reason).toBe('Serveur « My world » : offre changée de Medium FR à Large FR, différence pour les 20 jours restants de la période');

    // The page says a restart is needed until the server runs on the new memory.
    expect((await game(gameId)).restartNeeded).toBe(true);
    expect((await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/restart` })).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) await t.current.app.services.reconciler.tick();
    expect(await game(gameId)).toMatchObject({ status: 'RUNNING', restartNeeded: false, ramMb: 2048 });

    // The next renewal is opened at Large's price.
    t.current.clock.now = new Date(Date.parse((await game(gameId)).periodEnd) - 3 * DAY);
    await t.current.app.services.renewals.tick();
    const waiting = (await t.current.as('alice', { method: 'GET', url: '/v1/game/payment?status=PENDING' })).json().data;
    expect(waiting).toEqual([expect.objectContaining({ amountCredits: 400 })]);
  });

  it('down: credits the prorated difference back once, a retry with the same key answering the same; a renewal already opened takes the new price', async () => {
    const { gameId, tiny, periodEnd } = await setup(0);
    // Within the notice, 3 days before the end: the renewal is opened at Medium's price.
    t.current.clock.now = new Date(periodEnd - 3 * DAY);
    await t.current.app.services.renewals.tick();
    const before = await balance();

    const first = await change(gameId, { packageId: tiny }, { key: 'down-1' });
    expect(first.statusCode, first.body).toBe(200);
    // (100 − 40) credits for 30 days, over 3 days: 6 back.
    expect(first.json()).toMatchObject({ amount: -6, balance: before + 6, restartNeeded: false });
    const again = await change(gameId, { packageId: tiny }, { key: 'down-1' });
    expect([again.statusCode, again.headers['idempotent-replayed'], again.json().amount]).toEqual([200, 'true', -6]);
    expect(await balance()).toBe(before + 6);
    const lines = (await ledger()).filter((l: { kind: string }) => l.kind === 'GAME_OFFER_CHANGE');
    expect(lines).toEqual([expect.objectContaining({ amount: 6, reason: 'Game "My world": plan changed from Medium to Tiny, difference for the 3 days left of the period given back' })]);
    // Asked again with another key: the game has that package already.
    const same = await change(gameId, { packageId: tiny }, { key: 'down-2' });
    expect([same.statusCode, same.json().code]).toEqual([409, 'renewals.offerSamePackage']);
    expect(await balance()).toBe(before + 6);

    const waiting = (await t.current.as('alice', { method: 'GET', url: '/v1/game/payment?status=PENDING' })).json().data;
    expect(waiting).toEqual([expect.objectContaining({ amountCredits: 40 })]);
  });

  it('a balance short of the difference: 402 saying what is missing, in the caller’s language, and nothing changes', async () => {
    const { gameId, large, medium } = await setup(50);
    const offers = (await quote(gameId)).json();
    expect(offers.options.find((o: { package: { id: string } }) => o.package.id === large)).toMatchObject({ amount: 200, missing: 150 });

    const res = await change(gameId, { packageId: large });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({
      code: 'renewals.offerNotEnough',
      detail: 'Changing to this plan costs 200 credits for the days left of the period and the balance is 50: 150 more credits are needed',
    });
    const fr = await change(gameId, { packageId: large }, { locale: 'fr' });
    expect(fr.json().detail).toBe('Passer à cette offre coûte 200 crédits pour les jours restants de la période et le solde est de 50 : il manque 150 crédits');
    expect(await balance()).toBe(50);
    expect(await gameRow(gameId)).toMatchObject({ packageId: medium, ramMb: 1024 });
    expect((await ledger()).some((l: { kind: string }) => l.kind === 'GAME_OFFER_CHANGE')).toBe(false);
  });

  it('a smaller backup quota: the backups it would take are named, and go only once the owner confirmed each', async () => {
    const { gameId, tiny, medium } = await setup();
    await runGame(t.current, gameId);
    const taken: string[] = [];
    for (let i = 0; i < 3; i++) {
      t.current.clock.advance(1000);
      const res = await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: {} });
      expect(res.statusCode, res.body).toBe(202);
      await finishBackups(t.current);
      taken.push(res.json().id as string);
    }
    // Tiny keeps one: the two oldest would go.
    const option = (await quote(gameId)).json().options.find((o: { package: { id: string } }) => o.package.id === tiny);
    expect(option.backupsToDelete.map((b: { id: string }) => b.id)).toEqual(taken.slice(0, 2));

    const unconfirmed = await change(gameId, { packageId: tiny });
    expect([unconfirmed.statusCode, unconfirmed.json().code]).toEqual([409, 'renewals.offerConfirmBackups']);
    expect(unconfirmed.json().detail).toContain('2 of this game');
    const half = await change(gameId, { packageId: tiny, confirmDeleteBackupIds: [taken[0]] });
    expect(half.statusCode).toBe(409);
    expect(await gameRow(gameId)).toMatchObject({ packageId: medium });
    const listed = async () => (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/backups` })).json().data.map((b: { id: string }) => b.id);
    expect((await listed()).sort()).toEqual([...taken].sort());

    const done = await change(gameId, { packageId: tiny, confirmDeleteBackupIds: taken.slice(0, 2) });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ deletedBackups: 2, restartNeeded: true });
    expect(await listed()).toEqual([taken[2]]);
  });

  it('max players above the new package’s limit are lowered', async () => {
    const { gameId, tiny } = await setup();
    const put = await t.current.as('alice', { method: 'PUT', url: `/v1/game/${gameId}/settings`, payload: { maxPlayers: 8 } });
    expect(put.statusCode, put.body).toBe(200);
    const option = (await quote(gameId)).json().options.find((o: { package: { id: string } }) => o.package.id === tiny);
    expect(option.maxPlayersLowered).toEqual({ from: 8, to: 4 });
    expect((await change(gameId, { packageId: tiny })).statusCode).toBe(200);
    const settings = (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/settings` })).json();
    expect([settings.values.maxPlayers, settings.packageMaxPlayers]).toEqual([4, 4]);
    expect(await game(gameId)).toMatchObject({ maxPlayers: 4, ramMb: 512 });
    // On the game's activity, as its other acts.
    const activity = (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/activity` })).json().data;
    expect(activity[0]).toMatchObject({ action: 'game.offer', by: 'OWNER' });
  });

  it('is the owner’s alone, within the game’s definition, while its period is paid', async () => {
    const { gameId, large } = await setup(500);
    await befriend(t.current, 'alice', 'bob');
    const share = await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/access`, payload: { friendId: await userId(t.current, 'bob'), role: 'COADMIN' } });
    expect(share.statusCode, share.body).toBe(201);
    const coadmin = await change(gameId, { packageId: large }, { user: 'bob' });
    expect([coadmin.statusCode, coadmin.json().code]).toEqual([403, 'sharing.roleTooLow']);
    expect((await quote(gameId, 'bob')).statusCode).toBe(403);
    expect((await change(gameId, { packageId: large }, { user: 'carol' })).statusCode).toBe(404);
    expect((await quote(gameId, 'carol')).statusCode).toBe(404);

    // Another definition's package.
    const other = await catalogue(t.current);
    const foreign = await change(gameId, { packageId: other.bigId });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors).toEqual([expect.objectContaining({ field: 'packageId', code: 'renewals.offerOtherDefinition' })]);

    // The period is over and unpaid: renew first.
    t.current.clock.advance(25 * DAY);
    const unpaid = await change(gameId, { packageId: large });
    expect([unpaid.statusCode, unpaid.json().code]).toEqual([409, 'renewals.offerUnpaid']);
    await t.current.app.services.renewals.tick();
    await t.current.app.services.renewals.tick();
    expect((await gameRow(gameId)).expiredAt).not.toBeNull();
    const expired = await change(gameId, { packageId: large });
    expect([expired.statusCode, expired.json().code]).toEqual([409, 'renewals.offerExpired']);
    expect(await balance()).toBe(500);
  });

  it('one transaction: a failure after the ledger write leaves the old offer and the old balance', async () => {
    const { gameId, large, medium } = await setup(500);
    const ledgerBefore = await t.current.app.services.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userId, await userId(t.current, 'alice')));
    // What the process does last inside the transaction, after the ledger line and the game's
    // new package are written: it fails there, as a process killed at that point would.
    const spy = vi.spyOn(t.current.app.services.notifications, 'changed').mockRejectedValueOnce(new Error('killed half-way'));
    const res = await change(gameId, { packageId: large });
    expect(spy).toHaveBeenCalled();
    spy.mockRestore();
    expect(res.statusCode).toBe(500);
    expect(await balance()).toBe(500);
    expect(await gameRow(gameId)).toMatchObject({ packageId: medium, ramMb: 1024, maxPlayers: 10 });
    const ledgerAfter = await t.current.app.services.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userId, await userId(t.current, 'alice')));
    expect(ledgerAfter).toEqual(ledgerBefore);
    // Asked again, it goes through once.
    expect((await change(gameId, { packageId: large })).statusCode).toBe(200);
    expect(await balance()).toBe(300);
  });
});
