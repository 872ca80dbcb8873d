import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestApp, useTestApp, type TestApp } from '../fixtures/app.ts';
import { buyGame } from '../fixtures/games.ts';
import { startFakeStripe, type FakeStripe, type StripeEvent } from '../fixtures/stripe.ts';

const GOOD = '4242424242424242';
const DECLINED = '4000000000000002';
type Json = Record<string, unknown>;

/** Calls as staff, support or a player, and the setup the back office's tests share. */
function actors(get: () => TestApp) {
  const call =
    (user: string, roles: string[]) =>
    (method: string, url: string, payload?: object, headers: Record<string, string> = {}) =>
      get().as(user, { method: method as 'GET', url, roles, headers, ...(payload ? { payload } : {}) });
  const staff = call('boss', ['staff']);
  const support = call('helper', ['support']);
  // With the email signIn gives by default: a token without one would clear the user's email.
  const player = (user: string) => (method: string, url: string, payload?: object) =>
    get()
      .token(user, { email: `${user.toLowerCase()}@example.com` })
      .then((token) => get().app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) }));
  const ok = async (res: Promise<{ statusCode: number; body: string; json(): unknown }>, status = 200) => {
    const done = await res;
    if (done.statusCode !== status) throw new Error(`expected ${status}, got ${done.statusCode}: ${done.body}`);
    return done.json() as Json & { data: Json[]; totalElements: number };
  };
  /** The user's id, their row made (with an email) by a first call. */
  const signIn = async (name: string, email = `${name.toLowerCase()}@example.com`) => {
    const token = await get().token(name, { email });
    return (await get().app.inject({ url: '/v1/user', headers: { authorization: `Bearer ${token}` } })).json().id as string;
  };
  const pack = async (priceCents = 499) => (await ok(staff('POST', '/v1/pricing', { credits: 500, bonusCredits: 50, priceCents, currency: 'EUR' }), 201)).id as string;
  /** A pack bought by `user` through the sandbox: SUCCEEDED with GOOD, FAILED with DECLINED, PENDING without a card. */
  const buy = async (user: string, pricingId: string, card: string | null = GOOD, promoCode?: string) => {
    const { paymentId } = await ok(player(user)('POST', '/v1/payment/stripe', { pricingId, ...(promoCode ? { promoCode } : {}) }), 201);
    if (card) await player(user)('POST', `/v1/payment/sandbox/${paymentId}/confirm`, { cardNumber: card });
    return paymentId as string;
  };
  const balance = async (user: string) => (await ok(player(user)('GET', '/v1/user'))).balance as number;
  const audit = async (query = '') => (await ok(staff('GET', `/v1/staff/audit${query}`))).data;
  return { staff, support, player, ok, signIn, pack, buy, balance, audit };
}

describe('back office: roles', () => {
  const t = useTestApp();
  const { staff, support, player, ok, signIn, pack, buy, balance, audit } = actors(() => t.current);

  it('lets staff use every call, support read the lists only, a player none, and a refused write changes nothing', async () => {
    const alice = await signIn('alice');
    const packId = await pack();
    const paymentId = await buy('alice', packId);
    const invoiceId = (await ok(staff('GET', '/v1/staff/invoices'))).data[0]!.id as string;
    await ok(staff('POST', '/v1/promocode', { code: 'ROLES', kind: 'BONUS_CREDITS', value: 5 }), 201);
    const planId = (await ok(staff('POST', '/v1/subscription', { name: { fr: 'Mois', en: 'Month' }, priceCents: 999, currency: 'EUR', interval: 'MONTH', credits: 100 }), 201)).id as string;

    const reads = [
      '/v1/staff/users',
      `/v1/staff/users/${alice}`,
      '/v1/staff/transactions',
      '/v1/staff/payments',
      `/v1/staff/payments/${paymentId}`,
      '/v1/staff/invoices',
      `/v1/staff/invoices/${invoiceId}`,
      '/v1/staff/audit',
      '/v1/promocode',
      '/v1/promocode/ROLES/uses',
    ];
    for (const url of reads) {
      expect((await t.current.app.inject({ url })).statusCode, url).toBe(401);
      expect((await player('alice')('GET', url)).statusCode, url).toBe(403);
      expect((await support('GET', url)).statusCode, url).toBe(200);
      expect((await staff('GET', url)).statusCode, url).toBe(200);
    }

    const auditBefore = (await ok(staff('GET', '/v1/staff/audit'))).totalElements;
    const writes: Array<[string, string, object?]> = [
      ['POST', '/v1/user/credit', { userId: alice, amount: 5, reason: 'Gift' }],
      ['POST', `/v1/staff/payments/${paymentId}/refund`, { reason: 'Asked for it' }],
      ['POST', '/v1/promocode', { code: 'MORE', kind: 'BONUS_CREDITS', value: 5 }],
      ['PUT', '/v1/promocode/ROLES', { kind: 'BONUS_CREDITS', value: 50 }],
      ['DELETE', '/v1/promocode/ROLES'],
      ['POST', '/v1/pricing', { credits: 10, priceCents: 100, currency: 'EUR' }],
      ['PUT', `/v1/pricing/${packId}`, { credits: 10, priceCents: 100, currency: 'EUR' }],
      ['DELETE', `/v1/pricing/${packId}`],
      ['POST', '/v1/subscription', { name: { fr: 'An', en: 'Year' }, priceCents: 9900, currency: 'EUR', interval: 'YEAR', credits: 1000 }],
      ['PUT', `/v1/subscription/${planId}`, { name: { fr: 'An', en: 'Year' }, priceCents: 9900, currency: 'EUR', interval: 'YEAR', credits: 1000 }],
      ['DELETE', `/v1/subscription/${planId}`],
    ];
    for (const [method, url, body] of writes) {
      expect((await player('alice')(method, url, body)).statusCode, `${method} ${url}`).toBe(403);
      expect((await support(method, url, body)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await balance('alice')).toBe(550);
    expect((await ok(staff('GET', `/v1/staff/payments/${paymentId}`))).status).toBe('SUCCEEDED');
    expect((await ok(staff('GET', '/v1/promocode'))).data[0]).toMatchObject({ code: 'ROLES', value: 5, archived: false });
    expect((await ok(staff('GET', '/v1/staff/audit'))).totalElements).toBe(auditBefore);

    // Staff may: each write answers and leaves its audit row.
    expect((await staff('POST', '/v1/user/credit', { userId: alice, amount: 5, reason: 'Gift' })).statusCode).toBe(200);
    expect((await staff('POST', `/v1/staff/payments/${paymentId}/refund`, { reason: 'Asked for it' })).statusCode).toBe(200);
    expect((await staff('PUT', '/v1/promocode/ROLES', { kind: 'BONUS_CREDITS', value: 50 })).statusCode).toBe(200);
    expect((await staff('PUT', `/v1/subscription/${planId}`, { name: { fr: 'An', en: 'Year' }, priceCents: 9900, currency: 'EUR', interval: 'YEAR', credits: 1000 })).statusCode).toBe(200);
    expect((await audit()).slice(0, 4).map((e) => e.action)).toEqual(['plan.update', 'promoCode.update', 'payment.refund', 'user.credit']);
  });
});

describe('back office: users', () => {
  const t = useTestApp();
  const { staff, support, player, ok, signIn, pack, buy } = actors(() => t.current);
  const names = (page: { data: Json[] }) => page.data.map((u) => u.name);

  it('finds users by a prefix of their name, email or Minecraft name, in any case, with wildcards taken literally', async () => {
    const alice = await signIn('alice', 'alice@example.com');
    await signIn('Alicia_B', 'ab@example.org');
    await signIn('bob', 'zed@example.io');
    const carol = await signIn('carol', 'carol@example.io');
    expect((await player('carol')('POST', '/v1/user/mcuuid', { mcName: 'Notch_Fan' })).statusCode).toBe(200);
    await ok(staff('POST', '/v1/user/credit', { userId: alice, amount: 30, reason: 'Gift' }));

    expect(names(await ok(staff('GET', '/v1/staff/users?q=ALI&sort=name,asc')))).toEqual(['alice', 'Alicia_B']);
    expect(names(await ok(support('GET', '/v1/staff/users?q=zed')))).toEqual(['bob']);
    expect(names(await ok(staff('GET', '/v1/staff/users?q=notch')))).toEqual(['carol']);
    expect(names(await ok(staff('GET', '/v1/staff/users?q=Alicia_')))).toEqual(['Alicia_B']);
    // `_` and `%` are characters, not wildcards: "ali_" would otherwise find alice and Alicia_B.
    expect((await ok(staff('GET', '/v1/staff/users?q=ali_'))).totalElements).toBe(0);
    expect((await ok(staff('GET', `/v1/staff/users?q=${encodeURIComponent('%')}`))).totalElements).toBe(0);
    expect((await ok(staff('GET', '/v1/staff/users?q=lice'))).totalElements).toBe(0);

    const found = await ok(staff('GET', '/v1/staff/users?q=a&sort=name,asc'));
    expect(found.data).toEqual([
      { id: alice, name: 'alice', email: 'alice@example.com', mcName: null, roles: [], balance: 30, createdAt: expect.any(String) },
      expect.objectContaining({ name: 'Alicia_B', email: 'ab@example.org', balance: 0 }),
    ]);
    expect((await ok(staff('GET', '/v1/staff/users?q=carol'))).data[0]).toMatchObject({ id: carol, mcName: 'Notch_Fan' });
    // A user with no email is found by their Minecraft name; one matching twice is listed once.
    expect((await t.current.as('dan', { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: 'Dragon_Dan' } })).statusCode).toBe(200);
    expect((await ok(staff('GET', '/v1/staff/users?q=drag'))).data).toMatchObject([{ name: 'dan', email: null, mcName: 'Dragon_Dan' }]);
    expect((await ok(player('carol')('POST', '/v1/user/mcuuid', { mcName: 'carol_mc' }))).mcName).toBe('carol_mc');
    expect(await ok(staff('GET', '/v1/staff/users?q=carol'))).toMatchObject({ totalElements: 1, data: [{ id: carol, mcName: 'carol_mc' }] });
    expect(await ok(staff('GET', '/v1/staff/users?q=a&sort=name,desc&size=1&page=1'))).toMatchObject({ totalElements: 2, data: [{ name: 'alice' }] });
    expect(await ok(staff('GET', '/v1/staff/users?q=a&page=3'))).toMatchObject({ totalElements: 2, data: [] });
  });

  it('sorts and pages users, and refuses an unknown sort', async () => {
    for (const name of ['dave', 'erin', 'frank']) await signIn(name);
    const erin = await signIn('erin');
    await ok(staff('POST', '/v1/user/credit', { userId: erin, amount: 7, reason: 'Gift' }));
    // boss (staff) exists too, made by its first call.
    const all = await ok(staff('GET', '/v1/staff/users?sort=name,asc'));
    expect(names(all)).toEqual(['boss', 'dave', 'erin', 'frank']);
    expect(names(await ok(staff('GET', '/v1/staff/users?sort=name,desc')))).toEqual(['frank', 'erin', 'dave', 'boss']);
    expect(names(await ok(staff('GET', '/v1/staff/users?sort=balance,desc'))).at(0)).toBe('erin');
    expect(names(await ok(staff('GET', '/v1/staff/users?sort=createdAt,asc')))).toEqual(['dave', 'erin', 'frank', 'boss']);
    expect(names(await ok(staff('GET', '/v1/staff/users')))).toEqual(['boss', 'frank', 'erin', 'dave']);
    const second = await ok(staff('GET', '/v1/staff/users?sort=name,asc&size=2&page=1'));
    expect(second).toMatchObject({ totalElements: 4, page: 1, size: 2 });
    expect(names(second)).toEqual(['erin', 'frank']);
    expect(names(await ok(staff('GET', '/v1/staff/users?sort=name,asc&size=2&offset=3')))).toEqual(['frank']);
    for (const bad of ['sort=email,asc', 'sort=name', 'sort=name,up', 'size=101', 'q=', 'role=staff']) {
      const res = await staff('GET', `/v1/staff/users?${bad}`);
      expect(res.statusCode, bad).toBe(400);
    }
  });

  it("shows a user's subscription, games and latest payments; 404 for an unknown user", async () => {
    const alice = await signIn('alice');
    const planId = (await ok(staff('POST', '/v1/subscription', { name: { fr: 'Mensuel', en: 'Monthly' }, priceCents: 999, currency: 'EUR', interval: 'MONTH', credits: 1000 }), 201)).id;
    const started = await ok(player('alice')('POST', '/v1/payment/stripe/subscription', { subscriptionId: planId }), 201);
    await ok(player('alice')('POST', `/v1/payment/sandbox/${started.paymentId}/confirm`, { cardNumber: GOOD }));
    const packId = await pack();
    const paid = await buy('alice', packId);
    const { gameId } = await buyGame(t.current, 'alice', 'Castle');

    const detail = await ok(support('GET', `/v1/staff/users/${alice}`));
    expect(detail).toMatchObject({
      id: alice,
      name: 'alice',
      balance: 1000 + 550,
      subscription: { planId, planName: { fr: 'Mensuel', en: 'Monthly' }, status: 'ACTIVE', currentPeriodEnd: expect.any(String), cancelAtPeriodEnd: false },
      games: [{ id: gameId, name: 'Castle', status: expect.any(String), periodEnd: expect.any(String) }],
    });
    expect((detail.payments as Json[]).map((p) => [p.id, p.kind, p.status])).toEqual([
      [paid, 'PACK', 'SUCCEEDED'],
      [started.paymentId, 'SUBSCRIPTION', 'SUCCEEDED'],
    ]);
    expect((await staff('GET', '/v1/staff/users/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await staff('GET', '/v1/staff/users/not-a-uuid')).statusCode).toBe(400);
  });
});

describe('back office: credits and the ledger', () => {
  const t = useTestApp();
  const { staff, player, ok, signIn, balance, audit } = actors(() => t.current);
  const ledgerSize = async (userId: string) => (await ok(staff('GET', `/v1/staff/transactions?userId=${userId}`))).totalElements;

  it('adds and takes back credits with a reason, each with its audit row; never below zero (409, nothing written)', async () => {
    const alice = await signIn('alice');
    const boss = await signIn('boss');
    const added = await ok(staff('POST', '/v1/user/credit', { userId: alice, amount: 150, reason: 'Contest prize' }));
    expect(added).toMatchObject({ userId: alice, balance: 150, entryId: expect.any(String) });
    const removed = await ok(staff('POST', '/v1/user/credit', { userId: alice, amount: -50, reason: 'Correction: double grant' }));
    expect(removed.balance).toBe(100);

    const beyond = await staff('POST', '/v1/user/credit', { userId: alice, amount: -101, reason: 'Too much' });
    expect(beyond.statusCode).toBe(409);
    expect(beyond.json().code).toBe('credits.belowZero');
    expect(await balance('alice')).toBe(100);
    expect(await ledgerSize(alice)).toBe(2);

    const entries = await audit(`?entity=user&entityId=${alice}`);
    expect(entries).toEqual([
      {
        id: expect.any(String),
        actorId: boss,
        actorName: 'boss',
        action: 'user.credit',
        entity: 'user',
        entityId: alice,
        entityName: 'alice',
        reason: 'Correction: double grant',
        before: { balance: 150 },
        after: { balance: 100, amount: -50, entryId: removed.entryId },
        createdAt: expect.any(String),
      },
      expect.objectContaining({ reason: 'Contest prize', before: { balance: 0 }, after: { balance: 150, amount: 150, entryId: added.entryId } }),
    ]);
    // The ledger row says who made it; the player sees the reason in their history.
    const rows = (await ok(staff('GET', `/v1/staff/transactions?userId=${alice}`))).data;
    expect(rows[0]).toMatchObject({
      id: removed.entryId,
      userId: alice,
      userName: 'alice',
      amount: -50,
      balanceAfter: 100,
      kind: 'ADMIN_ADJUSTMENT',
      reason: 'Correction: double grant',
      reasonKey: 'adjustment',
      reasonParams: { reason: 'Correction: double grant' },
      createdBy: boss,
    });
    expect((await ok(player('alice')('GET', '/v1/purchase/transactions'))).data[0]).toMatchObject({ amount: -50, reason: 'Correction: double grant' });
  });

  it('refuses bad input and unknown users with nothing written, and a failing audit write undoes the credit', async () => {
    const alice = await signIn('alice');
    for (const body of [
      { userId: alice, amount: 5, reason: '   ' },
      { userId: alice, amount: 5, reason: 'x'.repeat(501) },
      { userId: alice, amount: 0, reason: 'Nothing' },
      { userId: alice, amount: 5 },
      { userId: alice, amount: 5, reason: 'Gift', note: 'extra' },
    ]) {
      expect((await staff('POST', '/v1/user/credit', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await staff('POST', '/v1/user/credit', { userId: '00000000-0000-4000-8000-000000000000', amount: 5, reason: 'Gift' })).statusCode).toBe(404);
    expect(await audit()).toEqual([]);
    expect(await ledgerSize(alice)).toBe(0);

    const record = vi.spyOn(t.current.app.services.audit, 'record').mockRejectedValueOnce(new Error('audit log unavailable'));
    expect((await staff('POST', '/v1/user/credit', { userId: alice, amount: 5, reason: 'Gift' })).statusCode).toBe(500);
    record.mockRestore();
    expect(await balance('alice')).toBe(0);
    expect(await ledgerSize(alice)).toBe(0);
    expect(await audit()).toEqual([]);
  });

  it("lists every user's ledger newest first, filtered by user, kind and dates, sorted by amount, paged", async () => {
    const alice = await signIn('alice');
    const bob = await signIn('bob');
    const { credits, db } = t.current.app.services;
    await ok(staff('POST', '/v1/user/credit', { userId: alice, amount: 100, reason: 'First' }));
    await ok(staff('POST', '/v1/user/credit', { userId: bob, amount: 300, reason: 'Second' }));
    await ok(staff('POST', '/v1/user/credit', { userId: alice, amount: -30, reason: 'Third' }));
    await credits.apply(db, { userId: bob, amount: -20, kind: 'GAME_CHARGE', reason: { key: 'text', params: { text: 'Fourth' } } });

    const all = await ok(staff('GET', '/v1/staff/transactions'));
    expect(all).toMatchObject({ totalElements: 4, page: 0, size: 20 });
    expect(all.data.map((e) => [e.reason, e.userName])).toEqual([
      ['Fourth', 'bob'],
      ['Third', 'alice'],
      ['Second', 'bob'],
      ['First', 'alice'],
    ]);
    const reasons = async (query: string) => (await ok(staff('GET', `/v1/staff/transactions?${query}`))).data.map((e) => e.reason);
    expect(await reasons(`userId=${alice}`)).toEqual(['Third', 'First']);
    expect(await reasons('kind=GAME_CHARGE')).toEqual(['Fourth']);
    expect(await reasons(`kind=ADMIN_ADJUSTMENT&userId=${bob}`)).toEqual(['Second']);
    expect(await reasons('sort=amount,desc')).toEqual(['Second', 'First', 'Fourth', 'Third']);
    expect(await reasons('sort=amount,asc')).toEqual(['Third', 'Fourth', 'First', 'Second']);
    expect(await reasons('sort=createdAt,asc&size=1&page=2')).toEqual(['Third']);
    expect(await reasons('size=2&offset=3')).toEqual(['First']);
    const later = new Date(Date.now() + 60_000).toISOString();
    const earlier = new Date(Date.now() - 3600_000).toISOString();
    expect(await reasons(`from=${encodeURIComponent(later)}`)).toEqual([]);
    expect(await reasons(`from=${encodeURIComponent(earlier)}&to=${encodeURIComponent(later)}`)).toHaveLength(4);
    expect(await reasons(`to=${encodeURIComponent(earlier)}`)).toEqual([]);
    for (const bad of ['kind=NOPE', 'sort=userName,asc', 'sort=amount', 'userId=alice', 'from=yesterday', 'page=-1']) {
      expect((await staff('GET', `/v1/staff/transactions?${bad}`)).statusCode, bad).toBe(400);
    }
  });
  it("answers PostgreSQL's estimate as the total past 10 000 matches, and exact counts below it", async () => {
    const alice = await signIn('alice');
    const bob = await signIn('bob');
    const { db } = t.current.app.services;
    await db.execute(sql`
      insert into ledger_entries (user_id, amount, balance_after, account_seq, kind, reason_key, reason_params, created_at)
      select ${alice}, 1, i, i, case when i % 100 = 0 then 'REFUND' else 'PURCHASE' end, 'text', jsonb_build_object('text', 'Bulk ' || i), now() - make_interval(secs => 20000 - i)
      from generate_series(1, 12000) i`);
    await ok(staff('POST', '/v1/user/credit', { userId: bob, amount: 5, reason: 'Newest' }));
    await db.execute(sql`analyze ledger_entries`);

    const all = await ok(staff('GET', '/v1/staff/transactions?size=3'));
    expect(all.totalElements).toBeGreaterThan(10_000);
    expect(all.totalElements).toBeLessThan(24_000);
    expect(all.data.map((e) => e.reason)).toEqual(['Newest', 'Bulk 12000', 'Bulk 11999']);
    const deep = await ok(staff('GET', '/v1/staff/transactions?size=2&page=5000'));
    expect(deep.data.map((e) => e.reason)).toEqual(['Bulk 2001', 'Bulk 2000']);
    expect((await ok(staff('GET', '/v1/staff/transactions?kind=REFUND'))).totalElements).toBe(120);
    expect((await ok(staff('GET', `/v1/staff/transactions?userId=${bob}`))).totalElements).toBe(1);
  });
});

describe('back office: payments, invoices and sandbox refunds', () => {
  const t = useTestApp();
  const { staff, support, ok, signIn, pack, buy, balance, audit } = actors(() => t.current);

  it('lists payments with their buyer and invoice, filtered by user and status, sorted by amount', async () => {
    const alice = await signIn('alice');
    const bob = await signIn('bob');
    const cheap = await pack(499);
    const dear = await pack(999);
    const paid = await buy('alice', cheap);
    const failed = await buy('bob', dear, DECLINED);
    const pending = await buy('alice', dear, null);

    const all = await ok(support('GET', '/v1/staff/payments'));
    expect(all.totalElements).toBe(3);
    expect(all.data.map((p) => p.id)).toEqual([pending, failed, paid]);
    const invoiceId = (await ok(staff('GET', '/v1/staff/invoices'))).data[0]!.id;
    expect(all.data[2]).toEqual({
      id: paid,
      userId: alice,
      userName: 'alice',
      kind: 'PACK',
      status: 'SUCCEEDED',
      amountCents: 499,
      currency: 'EUR',
      credits: 550,
      bonusCredits: 0,
      provider: 'sandbox',
      providerId: expect.stringMatching(/^sbx_pi_/),
      promoCode: null,
      invoiceId,
      refundable: true,
      refundedCents: 0,
      refundRequestedAt: null,
      failureReason: null,
      flag: null,
      flaggedAt: null,
      reportedAmountCents: null,
      reportedCurrency: null,
      createdAt: expect.any(String),
      settledAt: expect.any(String),
    });
    expect(all.data[1]).toMatchObject({ id: failed, userId: bob, userName: 'bob', status: 'FAILED', failureReason: 'declined', invoiceId: null, refundable: false });
    expect(all.data[0]).toMatchObject({ id: pending, status: 'PENDING', refundable: false });

    const ids = async (query: string) => (await ok(staff('GET', `/v1/staff/payments?${query}`))).data.map((p) => p.id);
    expect(await ids('status=SUCCEEDED')).toEqual([paid]);
    expect(await ids(`userId=${alice}`)).toEqual([pending, paid]);
    expect(await ids(`userId=${bob}&status=SUCCEEDED`)).toEqual([]);
    expect(await ids('sort=amountCents,asc')).toEqual([paid, ...[failed, pending].sort()]);
    expect(await ids('sort=createdAt,asc&size=1&page=1')).toEqual([failed]);
    expect(await ok(staff('GET', `/v1/staff/payments/${paid}`))).toEqual(all.data[2]);
    expect((await staff('GET', '/v1/staff/payments/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    for (const bad of ['status=PAID', 'sort=amount,asc', 'userId=bob']) expect((await staff('GET', `/v1/staff/payments?${bad}`)).statusCode, bad).toBe(400);
  });

  it("lists invoices with their user, and shows one as JSON or PDF in the reader's language", async () => {
    const alice = await signIn('alice');
    const bob = await signIn('bob');
    const packId = await pack();
    await buy('alice', packId);
    await buy('bob', packId);
    const all = await ok(staff('GET', '/v1/staff/invoices', undefined, { 'accept-language': 'en' }));
    expect(all.totalElements).toBe(2);
    const year = new Date().getUTCFullYear();
    expect(all.data.map((i) => [i.number, i.userName])).toEqual([
      [`BH-${year}-000002`, 'bob'],
      [`BH-${year}-000001`, 'alice'],
    ]);
    expect((await ok(staff('GET', '/v1/staff/invoices?sort=number,asc'))).data.map((i) => i.userId)).toEqual([alice, bob]);
    expect((await ok(staff('GET', `/v1/staff/invoices?userId=${bob}`))).data.map((i) => i.userId)).toEqual([bob]);
    const invoice = all.data[1]!;
    expect(invoice).toMatchObject({ kind: 'INVOICE', userId: alice, userName: 'alice', totalCents: 499, lines: [{ description: 'Pack of 550 credits' }] });

    const shown = await support('GET', `/v1/staff/invoices/${invoice.id}`, undefined, { 'accept-language': 'fr' });
    expect(shown.json()).toMatchObject({ id: invoice.id, userName: 'alice', lines: [{ description: 'Pack de 550 crédits' }] });
    const pdf = await staff('GET', `/v1/staff/invoices/${invoice.id}`, undefined, { accept: 'application/pdf' });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await staff('GET', '/v1/staff/invoices/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await staff('GET', '/v1/staff/invoices?sort=totalCents,desc')).statusCode).toBe(400);
  });

  it('refunds a pack through the sandbox: the credits taken back once and never below zero, a credit note, an audit row', async () => {
    const alice = await signIn('alice');
    const packId = await pack();
    const paymentId = await buy('alice', packId);
    const failed = await buy('alice', packId, DECLINED);
    const { credits, db } = t.current.app.services;
    await credits.apply(db, { userId: alice, amount: -500, kind: 'GAME_CHARGE', reason: { key: 'text', params: { text: 'Spent' } } });

    expect((await staff('POST', `/v1/staff/payments/${paymentId}/refund`, {})).statusCode).toBe(400);
    const refunded = await ok(staff('POST', `/v1/staff/payments/${paymentId}/refund`, { reason: 'Charged twice' }));
    expect(refunded).toMatchObject({ id: paymentId, status: 'REFUNDED', refundedCents: 499, refundable: false });
    expect(await balance('alice')).toBe(0);
    const again = await staff('POST', `/v1/staff/payments/${paymentId}/refund`, { reason: 'Charged twice' });
    expect(again.statusCode).toBe(409);
    expect((await staff('POST', `/v1/staff/payments/${failed}/refund`, { reason: 'Nope' })).statusCode).toBe(409);
    expect((await staff('POST', '/v1/staff/payments/00000000-0000-4000-8000-000000000000/refund', { reason: 'Nope' })).statusCode).toBe(404);

    const refunds = (await ok(staff('GET', `/v1/staff/transactions?userId=${alice}&kind=REFUND`))).data;
    expect(refunds.map((e) => e.amount)).toEqual([-50]);
    const notes = (await ok(staff('GET', `/v1/staff/invoices?userId=${alice}`))).data;
    expect(notes.map((n) => [n.kind, n.totalCents])).toEqual([
      ['CREDIT_NOTE', -499],
      ['INVOICE', 499],
    ]);
    const [entry, ...others] = await audit('?entity=payment');
    expect(others).toEqual([]);
    expect(entry).toMatchObject({ action: 'payment.refund', entityId: paymentId, reason: 'Charged twice', before: { status: 'SUCCEEDED', refundedCents: 0 }, after: { refundRequestedCents: 499 } });
  });
});

describe('back office: refunds through Stripe', () => {
  let stripe: FakeStripe;
  let t: TestApp;
  const webhookSecret = 'whsec_test_staff_refunds';
  const signer = new Stripe('sk_test_signer');
  const { staff, ok, pack, balance, audit } = actors(() => t);

  beforeEach(async () => {
    stripe = await startFakeStripe();
    t = await startTestApp({ STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_URL: stripe.url });
  });
  afterEach(async () => {
    await t.close();
    await stripe.close();
  });

  const deliver = (event: StripeEvent) => {
    const payload = JSON.stringify(event);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    return t.app.inject({ method: 'POST', url: '/v1/payment/stripe/webhook', payload, headers: { 'content-type': 'application/json', 'stripe-signature': header } });
  };

  it('asks Stripe once for the refund, and takes the credits back once when charge.refunded arrives', async () => {
    const packId = await pack();
    const paymentId = (await ok(t.as('alice', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId } }), 201)).paymentId as string;
    const intent = [...stripe.paymentIntents.values()][0]!;
    await deliver(stripe.succeedPaymentIntent(intent.id));
    expect(await balance('alice')).toBe(550);

    const asked = await ok(staff('POST', `/v1/staff/payments/${paymentId}/refund`, { reason: 'Fraud' }));
    // Nothing changes here until Stripe's event.
    expect(asked).toMatchObject({ status: 'SUCCEEDED', refundedCents: 0 });
    const refundCalls = () => stripe.calls.filter((c) => c.method === 'POST' && c.path === '/v1/refunds');
    expect(refundCalls()).toEqual([expect.objectContaining({ status: 200, replayed: false, params: { payment_intent: intent.id, amount: '499' }, idempotencyKey: `refund-${paymentId}-0` })]);
    // Asked again before the event: 409, Stripe is not asked again and nothing is audited.
    expect((await staff('POST', `/v1/staff/payments/${paymentId}/refund`, { reason: 'Fraud' })).statusCode).toBe(409);
    expect(refundCalls().map((c) => c.replayed)).toEqual([false]);
    expect(stripe.charges.get(intent.latest_charge!)!.amount_refunded).toBe(499);

    const refunded = stripe.lastEvent('charge.refunded');
    expect((await deliver(refunded)).statusCode).toBe(200);
    expect((await deliver(refunded)).statusCode).toBe(200);
    expect(await balance('alice')).toBe(0);
    expect((await ok(staff('GET', `/v1/staff/payments/${paymentId}`))).status).toBe('REFUNDED');
    expect((await ok(staff('GET', '/v1/staff/transactions?kind=REFUND'))).data.map((e) => e.amount)).toEqual([-550]);
    expect((await staff('POST', `/v1/staff/payments/${paymentId}/refund`, { reason: 'Fraud' })).statusCode).toBe(409);
    expect((await audit('?entity=payment')).map((e) => e.action)).toEqual(['payment.refund']);
  });

  it('answers the provider’s refusal and records nothing', async () => {
    const packId = await pack();
    const paymentId = (await ok(t.as('alice', { method: 'POST', url: '/v1/payment/stripe', payload: { pricingId: packId } }), 201)).paymentId as string;
    await deliver(stripe.succeedPaymentIntent([...stripe.paymentIntents.values()][0]!.id));
    stripe.failNext(400, { type: 'invalid_request_error', code: 'charge_already_refunded', message: 'Charge ch_1 has already been refunded.' });
    expect((await staff('POST', `/v1/staff/payments/${paymentId}/refund`, { reason: 'Fraud' })).statusCode).toBe(409);
    expect(await audit('?entity=payment')).toEqual([]);
    expect(await balance('alice')).toBe(550);
  });
});

describe('back office: promo codes, plans and pricing', () => {
  const t = useTestApp();
  const { staff, support, player, ok, signIn, pack, buy, audit } = actors(() => t.current);

  it('edits a promo code, lists who used it and on which payment, and audits each write', async () => {
    const alice = await signIn('alice');
    const bob = await signIn('bob');
    const boss = await signIn('boss');
    await ok(staff('POST', '/v1/promocode', { code: 'bonus50', kind: 'BONUS_CREDITS', value: 50, maxUses: 10 }), 201);
    const packId = await pack();
    const alicePaid = await buy('alice', packId, GOOD, 'BONUS50');
    const bobPending = await buy('bob', packId, null, 'bonus50');

    const uses = await ok(support('GET', '/v1/promocode/bonus50/uses'));
    expect(uses).toMatchObject({ totalElements: 2, page: 0, size: 20 });
    expect(uses.data).toEqual([
      { userId: bob, userName: 'bob', usedAt: expect.any(String), paymentId: bobPending, gameId: null },
      { userId: alice, userName: 'alice', usedAt: expect.any(String), paymentId: alicePaid, gameId: null },
    ]);
    expect((await ok(staff('GET', '/v1/promocode/BONUS50/uses?size=1&page=1'))).data.map((u) => u.userId)).toEqual([alice]);
    expect((await staff('GET', '/v1/promocode/NOSUCH/uses')).statusCode).toBe(404);
    expect((await ok(support('GET', '/v1/promocode'))).data[0]).toMatchObject({ code: 'BONUS50', uses: 2 });

    const edited = await ok(staff('PUT', '/v1/promocode/bonus50', { kind: 'PERCENT_OFF', value: 20, maxUses: 5 }));
    expect(edited).toMatchObject({ code: 'BONUS50', kind: 'PERCENT_OFF', value: 20, maxUses: 5, uses: 2, validUntil: null });
    const until = new Date(Date.now() + 86_400_000).toISOString();
    for (const [body, status] of [
      [{ kind: 'PERCENT_OFF', value: 20, maxUses: 1 }, 409],
      [{ kind: 'PERCENT_OFF', value: 150 }, 400],
      [{ kind: 'PERCENT_OFF', value: 20, validFrom: until, validUntil: new Date().toISOString() }, 400],
      [{ code: 'OTHER', kind: 'PERCENT_OFF', value: 20 }, 400],
      [{ kind: 'FREE', value: 20 }, 400],
    ] as const) {
      expect((await staff('PUT', '/v1/promocode/BONUS50', body)).statusCode, JSON.stringify(body)).toBe(status);
    }
    expect((await staff('PUT', '/v1/promocode/NOSUCH', { kind: 'PERCENT_OFF', value: 20 })).statusCode).toBe(404);
    expect((await ok(staff('GET', '/v1/promocode'))).data[0]).toMatchObject({ kind: 'PERCENT_OFF', value: 20, maxUses: 5 });
    expect((await staff('DELETE', '/v1/promocode/BONUS50')).statusCode).toBe(204);

    const entries = await audit('?entity=promoCode&entityId=BONUS50');
    expect(entries.map((e) => [e.action, e.actorId])).toEqual([
      ['promoCode.archive', boss],
      ['promoCode.update', boss],
      ['promoCode.create', boss],
    ]);
    expect(entries[1]).toMatchObject({ before: { kind: 'BONUS_CREDITS', value: 50, maxUses: 10 }, after: { kind: 'PERCENT_OFF', value: 20, maxUses: 5 } });
    expect(entries[0]).toMatchObject({ before: { archived: false }, after: { archived: true } });
    expect(entries[2]).toMatchObject({ before: null, after: { code: 'BONUS50', uses: 0 } });
  });

  it("counts a plan's subscribers for staff and support only, edits and archives plans with audit rows", async () => {
    const planId = (await ok(staff('POST', '/v1/subscription', { name: { fr: 'Mensuel', en: 'Monthly' }, priceCents: 999, currency: 'EUR', interval: 'MONTH', credits: 1000 }), 201)).id as string;
    for (const user of ['alice', 'bob', 'carol']) {
      const started = await ok(player(user)('POST', '/v1/payment/stripe/subscription', { subscriptionId: planId }), 201);
      // carol never pays her first period: she is not a subscriber.
      if (user !== 'carol') await ok(player(user)('POST', `/v1/payment/sandbox/${started.paymentId}/confirm`, { cardNumber: GOOD }));
    }
    await ok(player('bob')('POST', '/v1/payment/stripe/subscription/cancel'));
    expect((await ok(staff('GET', '/v1/subscription'))).data[0]).toMatchObject({ id: planId, subscriberCount: 2 });
    expect((await ok(support('GET', '/v1/subscription'))).data[0]).toMatchObject({ subscriberCount: 2 });
    expect((await ok(player('alice')('GET', '/v1/subscription'))).data[0]).not.toHaveProperty('subscriberCount');
    expect((await t.current.app.inject({ url: '/v1/subscription' })).json().data[0]).not.toHaveProperty('subscriberCount');

    const body = { name: { fr: 'Mensuel+', en: 'Monthly+' }, priceCents: 1299, currency: 'EUR', interval: 'MONTH', credits: 1500 };
    expect(await ok(staff('PUT', `/v1/subscription/${planId}`, body))).toMatchObject({ id: planId, ...body, archived: false });
    expect((await staff('PUT', '/v1/subscription/00000000-0000-4000-8000-000000000000', body)).statusCode).toBe(404);
    expect((await staff('PUT', `/v1/subscription/${planId}`, { ...body, interval: 'WEEK' })).statusCode).toBe(400);
    expect((await staff('DELETE', `/v1/subscription/${planId}`)).statusCode).toBe(204);
    const entries = await audit(`?entity=plan&entityId=${planId}`);
    expect(entries.map((e) => e.action)).toEqual(['plan.archive', 'plan.update', 'plan.create']);
    expect(entries[1]).toMatchObject({ before: { priceCents: 999, credits: 1000 }, after: { priceCents: 1299, credits: 1500 } });
  });

  it('audits every pricing write, none for a refused one, and filters the audit log', async () => {
    const boss = await signIn('boss');
    const packId = await pack();
    await ok(staff('PUT', `/v1/pricing/${packId}`, { credits: 600, priceCents: 599, currency: 'EUR', label: { fr: 'Plus grand', en: 'Bigger' } }));
    expect((await staff('PUT', '/v1/pricing/00000000-0000-4000-8000-000000000000', { credits: 600, priceCents: 599, currency: 'EUR' })).statusCode).toBe(404);
    expect((await staff('PUT', `/v1/pricing/${packId}`, { credits: -1, priceCents: 599, currency: 'EUR' })).statusCode).toBe(400);
    expect((await staff('DELETE', `/v1/pricing/${packId}`)).statusCode).toBe(204);
    const paidPack = await pack();
    await buy('alice', paidPack);
    expect((await staff('DELETE', `/v1/pricing/${paidPack}`)).statusCode).toBe(204);

    const entries = await audit(`?entity=pricing&entityId=${packId}`);
    expect(entries.map((e) => e.action)).toEqual(['pricing.delete', 'pricing.update', 'pricing.create']);
    expect(entries[0]).toMatchObject({ before: { id: packId, credits: 600, label: { en: 'Bigger' } }, after: null });
    expect(entries[1]).toMatchObject({ before: { credits: 500, priceCents: 499 }, after: { credits: 600, priceCents: 599, label: { en: 'Bigger' } } });
    expect((await audit(`?entity=pricing&entityId=${paidPack}`)).map((e) => e.action)).toEqual(['pricing.archive', 'pricing.create']);
    expect((await ok(staff('GET', `/v1/staff/audit?actorId=${boss}`))).totalElements).toBe(5);
    expect((await ok(staff('GET', '/v1/staff/audit?entity=pricing&size=2'))).data).toHaveLength(2);
    expect((await audit('?entity=pricing&sort=createdAt,asc')).map((e) => e.action)).toEqual(['pricing.create', 'pricing.update', 'pricing.delete', 'pricing.create', 'pricing.archive']);
    expect((await staff('GET', '/v1/staff/audit?sort=action,asc')).statusCode).toBe(400);
    expect((await ok(staff('GET', `/v1/staff/audit?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`))).totalElements).toBe(0);
    expect((await staff('GET', '/v1/staff/audit?actorId=boss')).statusCode).toBe(400);
  });
});
