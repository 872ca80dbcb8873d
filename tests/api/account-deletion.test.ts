import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { accountDeletions } from '../../src/server/db/schema/account-deletion.ts';
import { games } from '../../src/server/db/schema/games.ts';
import { identityAccounts, oidcPayloads } from '../../src/server/db/schema/identity.ts';
import { invoices } from '../../src/server/db/schema/invoices.ts';
import { users } from '../../src/server/db/schema/users.ts';
import { deletedAccountName } from '../../src/contract/account.ts';
import { accountIdFor } from '../../src/server/identity/account-id.ts';
import { startListeningApp, startTestApp, type TestApp } from '../fixtures/app.ts';
import { buyGame, userId } from '../fixtures/games.ts';
import { OidcClient } from '../fixtures/oidc-client.ts';
import { befriend } from '../fixtures/social.ts';

const PASSWORD = 'first-Password-1';
const staff = { roles: ['staff'] };

describe('deleting my account', { timeout: 60_000 }, () => {
  let t: TestApp & { origin: string };
  beforeEach(async () => {
    t = await startListeningApp({ RATE_LIMIT_SIGNIN_PER_MINUTE: '100' });
  });
  afterEach(async () => {
    t.app.services.accountDeletion.beforeErasure = undefined;
    await t.close();
  });

  const bearer = (token: string, url: string, method: 'GET' | 'POST' = 'GET', payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${token}`, ...(method === 'POST' ? { 'idempotency-key': crypto.randomUUID() } : {}) }, ...(payload ? { payload } : {}) });
  const remove = (token: string, body: object) => bearer(token, '/v1/account/delete', 'POST', body);
  const signsIn = async (login: string, password: string) => {
    const client = new OidcClient(t.origin);
    const page = await client.startSignIn();
    return (await client.follow(await client.postForm(`${page}/login`, { login, password }))) instanceof URL;
  };
  const row = async (id: string) => (await t.app.services.db.select().from(users).where(eq(users.id, id)))[0]!;

  /** Alice with a server, a friend with a share, a group, a review, a paid invoice and 250 credits left. */
  async function furnishedAlice() {
    const { access_token: token } = (await new OidcClient(t.origin).signUp('alice', 'alice@example.com', PASSWORD)).body as { access_token: string };
    const { gameId, definitionId } = await buyGame(t, 'alice');
    await befriend(t, 'alice', 'bob');
    const bobId = await userId(t, 'bob');
    expect((await t.as('alice', { method: 'POST', url: `/v1/game/${gameId}/access`, payload: { friendId: bobId, role: 'COADMIN' } })).statusCode).toBe(201);
    expect((await t.as('alice', { method: 'POST', url: '/v1/friend/group', payload: { name: 'Crew' } })).statusCode).toBe(201);
    expect((await t.as('alice', { method: 'POST', url: '/v1/game/review', payload: { definitionId, rating: 5, comment: 'Great' } })).statusCode).toBe(201);
    const pack = await t.as('boss', { ...staff, method: 'POST', url: '/v1/pricing', payload: { credits: 500, priceCents: 499, currency: 'EUR' } });
    const checkout = await t.as('alice', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: pack.json().id } });
    const paid = await t.as('alice', { method: 'POST', url: `/v1/payment/sandbox/${checkout.json().paymentId}/confirm`, payload: { cardNumber: '4242 4242 4242 4242' } });
    expect(paid.json().status).toBe('SUCCEEDED');
    await t.app.services.credits.apply(t.app.services.db, { userId: await userId(t, 'alice'), amount: -250, kind: 'ADMIN_ADJUSTMENT', reason: { key: 'text', params: { text: 'down to 250' } } });
    expect((await t.as('alice', { method: 'GET', url: '/v1/user' })).json().balance).toBe(250);
    return { token, gameId, definitionId, aliceId: await userId(t, 'alice'), bobId };
  }

  it('asks the password, then refuses sign-in and every token at once; the round deletes what goes and keeps the invoices under a replaced name', async () => {
    const { token, gameId, definitionId, aliceId, bobId } = await furnishedAlice();
    // Bob's server, shared with alice as co-admin, where she scheduled a restart.
    const bobs = await buyGame(t, 'bob', 'Bob world');
    expect((await t.as('bob', { method: 'POST', url: `/v1/game/${bobs.gameId}/access`, payload: { friendId: aliceId, role: 'COADMIN' } })).statusCode).toBe(201);
    const scheduled = await t.as('alice', { method: 'POST', url: `/v1/game/${bobs.gameId}/schedules`, payload: { task: 'restart', repeat: 'hours', everyHours: 1, timeZone: 'Europe/Paris' } });
    expect(scheduled.statusCode, scheduled.body).toBe(201);

    // A wrong or missing password changes nothing, and says so under the field, in the caller's language.
    const wrong = await remove(token, { password: 'not-it-1234' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual([expect.objectContaining({ field: 'password', code: 'field.wrongPassword' })]);
    expect((await remove(token, {})).statusCode).toBe(400);
    expect((await row(aliceId)).deletedAt).toBeNull();
    expect((await bearer(token, '/v1/user')).statusCode).toBe(200);

    const deleted = await remove(token, { password: PASSWORD });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ creditsForfeited: 250 });

    // From the answer on: the token is refused, sign-in is refused, the sessions are gone.
    const refused = await bearer(token, '/v1/user');
    expect([refused.statusCode, refused.json().code]).toEqual([401, 'auth.accountDeleted']);
    expect(await signsIn('alice', PASSWORD)).toBe(false);
    expect(await signsIn('alice@example.com', PASSWORD)).toBe(false);
    const { db } = t.app.services;
    expect(
      await db
        .select()
        .from(identityAccounts)
        .where(eq(identityAccounts.id, accountIdFor('alice'))),
    ).toEqual([]);
    expect(
      await db
        .select()
        .from(oidcPayloads)
        .where(sql`${oidcPayloads.payload}->>'accountId' = ${accountIdFor('alice')}`),
    ).toEqual([]);
    // The balance is forfeited with a ledger line saying how many.
    const ledger = await t.as('boss', { ...staff, method: 'GET', url: `/v1/staff/transactions?userId=${aliceId}` });
    expect(ledger.json().data[0]).toMatchObject({ kind: 'FORFEIT', amount: -250, balanceAfter: 0, reason: 'Compte supprimé : 250 crédits perdus' });

    // The round finishes: the server deleted as its owner would, friends, groups and notices gone.
    expect(await t.app.services.accountDeletion.tick()).toBe(1);
    expect((await db.select().from(games).where(eq(games.id, gameId)))[0]!.deletedAt).not.toBeNull();
    expect((await t.as('bob', { method: 'GET', url: '/v1/friend' })).json().totalElements).toBe(0);
    expect((await t.as('bob', { method: 'GET', url: '/v1/game/shared' })).json().data ?? []).toEqual([]);
    // On bob's server: alice's grant and her schedule are gone, his server stays.
    expect((await t.as('bob', { method: 'GET', url: `/v1/game/${bobs.gameId}/access` })).json().data).toEqual([]);
    expect((await t.as('bob', { method: 'GET', url: `/v1/game/${bobs.gameId}/schedules` })).json().data).toEqual([]);
    expect((await t.as('bob', { method: 'GET', url: `/v1/game/${bobs.gameId}` })).statusCode).toBe(200);
    expect((await db.select().from(accountDeletions).where(eq(accountDeletions.userId, aliceId)))[0]).toMatchObject({ attempts: 1, finishedAt: expect.any(Date) });
    expect(await row(aliceId)).toMatchObject({ name: deletedAccountName(aliceId), email: null, mcUuid: null, subject: `deleted|${aliceId}` });
    // The review stays, as a former player's; the invoice stays ten years, under the replaced name.
    const reviews = (await t.app.inject({ url: `/v1/game/review/${definitionId}` })).json();
    expect(reviews.data).toEqual([expect.objectContaining({ rating: 5, comment: 'Great', author: { id: aliceId, name: '', former: true } })]);
    const [invoice] = await db.select().from(invoices).where(eq(invoices.userId, aliceId));
    expect(invoice!.buyer).toEqual({ name: deletedAccountName(aliceId) });
    const listed = await t.as('boss', { ...staff, method: 'GET', url: `/v1/staff/invoices?userId=${aliceId}` });
    expect(listed.json().data).toEqual([expect.objectContaining({ number: invoice!.number, userName: deletedAccountName(aliceId) })]);
    expect(bobId).not.toBe(aliceId);

    // A second round has nothing to do; the old token stays refused.
    expect(await t.app.services.accountDeletion.tick()).toBe(0);
    expect((await bearer(token, '/v1/user')).statusCode).toBe(401);

    // Signing up again with the same name and email starts from nothing: the sign-up is taken, and
    // a token of it (issued after the second of the deletion) is a new user's.
    const again = (await new OidcClient(t.origin).signUp('alice', 'alice@example.com', PASSWORD)).body as { access_token?: string };
    expect(again.access_token).toEqual(expect.any(String));
    const later = new Date(((await row(aliceId)).deletedAt!.getTime() / 1000 + 1) * 1000);
    const laterToken = await t.token('alice', { issuedAt: later });
    const fresh = await bearer(laterToken, '/v1/user');
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json()).toMatchObject({ balance: 0 });
    expect(fresh.json().id).not.toBe(aliceId);
    expect((await bearer(laterToken, '/v1/game')).json().totalElements).toBe(0);
    // The token of before still names the deleted account, not the new one.
    expect((await bearer(token, '/v1/user')).statusCode).toBe(401);
  });

  it('asks a code too when two-factor is on', async () => {
    const { access_token: token } = (await new OidcClient(t.origin).signUp('tess', 'tess@example.com', PASSWORD)).body as { access_token: string };
    const setup = await bearer(token, '/v1/account/two-factor/setup', 'POST');
    const secret = setup.json().secret as string;
    const code = () => {
      t.clock.advance(30_000);
      return generate({ secret, epoch: Math.floor(t.clock.now.getTime() / 1000) });
    };
    expect((await bearer(token, '/v1/account/two-factor', 'POST', { code: await code() })).statusCode).toBe(200);
    const noCode = await remove(token, { password: PASSWORD });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().errors).toEqual([expect.objectContaining({ field: 'code', code: 'field.wrongCode' })]);
    expect((await bearer(token, '/v1/user')).statusCode).toBe(200);
    const done = await remove(token, { password: PASSWORD, code: await code() });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ creditsForfeited: 0 });
    expect((await bearer(token, '/v1/user')).statusCode).toBe(401);
  });

  it('a round that fails half-way (a killed process) leaves an account that cannot sign in, and the next round finishes it once', async () => {
    const { token, gameId, aliceId } = await furnishedAlice();
    const deletion = t.app.services.accountDeletion;
    expect((await remove(token, { password: PASSWORD })).statusCode).toBe(200);

    // The process dies after the games and the friends went, before the invoices are anonymised.
    deletion.beforeErasure = (name) => {
      if (name === 'invoices') throw new Error('killed');
    };
    expect(await deletion.tick()).toBe(0);
    const { db } = t.app.services;
    const buyer = async () => (await db.select().from(invoices).where(eq(invoices.userId, aliceId)))[0]!.buyer.name;
    expect((await db.select().from(games).where(eq(games.id, gameId)))[0]!.deletedAt).not.toBeNull();
    expect((await t.as('bob', { method: 'GET', url: '/v1/friend' })).json().totalElements).toBe(0);
    expect(await buyer()).toBe('alice');
    expect((await db.select().from(accountDeletions).where(eq(accountDeletions.userId, aliceId)))[0]).toMatchObject({ finishedAt: null, lastError: 'killed', attempts: 1 });
    // Half-deleted, it still cannot be used.
    expect((await bearer(token, '/v1/user')).statusCode).toBe(401);
    expect(await signsIn('alice', PASSWORD)).toBe(false);

    // A process killed while it held the lease: no error written, the lease lapses, another round takes it.
    deletion.beforeErasure = undefined;
    await db
      .update(accountDeletions)
      .set({ leasedUntil: new Date(t.clock.now.getTime() + 60_000) })
      .where(eq(accountDeletions.userId, aliceId));
    expect(await deletion.tick()).toBe(0);
    t.clock.advance(61_000);
    expect(await deletion.tick()).toBe(1);
    expect(await buyer()).toBe(deletedAccountName(aliceId));
    // Nothing twice: one forfeit line, the game deleted once, one invoice.
    const ledger = await t.as('boss', { ...staff, method: 'GET', url: `/v1/staff/transactions?userId=${aliceId}` });
    expect((ledger.json().data as Array<{ kind: string }>).filter((e) => e.kind === 'FORFEIT')).toHaveLength(1);
    expect(await db.select().from(invoices).where(eq(invoices.userId, aliceId))).toHaveLength(1);
    expect((await db.select().from(accountDeletions).where(eq(accountDeletions.userId, aliceId)))[0]).toMatchObject({ attempts: 2, lastError: null });
  });

  it('an ask that fails in its transaction changes nothing: the account still signs in, its credits stay', async () => {
    const { token, aliceId } = await furnishedAlice();
    const { credits } = t.app.services;
    const apply = credits.apply.bind(credits);
    credits.apply = () => Promise.reject(new Error('killed'));
    try {
      expect((await remove(token, { password: PASSWORD })).statusCode).toBe(500);
    } finally {
      credits.apply = apply;
    }
    expect((await row(aliceId)).deletedAt).toBeNull();
    expect((await bearer(token, '/v1/user')).json().balance).toBe(250);
    expect(await signsIn('alice', PASSWORD)).toBe(true);
    expect(await t.app.services.db.select().from(accountDeletions)).toEqual([]);
  });

  it('every part of a person’s data says what becomes of it when the account is deleted', () => {
    expect(t.app.services.personalData.unerased()).toEqual([]);
  });
});

describe('deleting my account with an external issuer (Keycloak)', () => {
  it('asks no password (the issuer’s console deletes the account there) and deletes our side: its tokens are refused, a later sign-in starts from nothing', async () => {
    const issuer = await startListeningApp();
    const api = await startTestApp({ OIDC_ISSUER: `${issuer.origin}/oidc`, PUBLIC_URL: 'http://app.example.test' });
    try {
      const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
        api.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
      const token = await issuer.token('remote_user');
      const me = (await call(token, 'GET', '/v1/user')).json() as { id: string };
      // A password is not ours to check: none is asked.
      const deleted = await call(token, 'POST', '/v1/account/delete', {});
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect((await call(token, 'GET', '/v1/user')).json().code).toBe('auth.accountDeleted');
      expect(await api.app.services.accountDeletion.tick()).toBe(1);
      const [row] = await api.app.services.db.select().from(users).where(eq(users.id, me.id));
      const later = await issuer.token('remote_user', { issuedAt: new Date((Math.floor(row!.deletedAt!.getTime() / 1000) + 1) * 1000) });
      const fresh = await call(later, 'GET', '/v1/user');
      expect(fresh.statusCode).toBe(200);
      expect(fresh.json().id).not.toBe(me.id);
    } finally {
      await api.close();
      await issuer.close();
    }
  });
});
