import { describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { useTestApp } from '../fixtures/app.ts';
import { buyGame, catalogue, fund, runGame } from '../fixtures/games.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const NOBODY = '00000000-0000-4000-8000-000000000000';

/** A date as the notices give it. */
/** A date as an English notice gives it. */
const inEnglish = (ms: number) => `${new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(ms)} UTC`;

interface Notice {
  data: { title: string; description: string; link: string };
}

describe('game renewals', () => {
  const t = useTestApp();
  const renewalsTick = () => t.current.app.services.renewals.tick();
  const reconcile = () => t.current.app.services.reconciler.tick();
  /** Moves the games' clock to `ms`. */
  const at = (ms: number) => t.current.clock.advance(ms - t.current.clock.now.getTime());
  const game = async (id: string, user = 'alice') => (await t.current.as(user, { method: 'GET', url: `/v1/game/${id}` })).json();
  const balance = async (user = 'alice') => (await t.current.as(user, { method: 'GET', url: '/v1/user' })).json().balance as number;
  const payments = async (query = '', user = 'alice') => (await t.current.as(user, { method: 'GET', url: `/v1/game/payment${query}` })).json();
  /** The user's notices, read in English (their locale cookie). */
  const notices = async (user = 'alice'): Promise<Notice[]> => (await t.current.as(user, { method: 'GET', url: '/v1/user/notifications?size=100', headers: { cookie: 'locale=en' } })).json().data;
  const act = (paymentId: string, action: string, user = 'alice') => t.current.as(user, { method: 'POST', url: '/v1/game/payment', payload: { paymentId, action } });
  const pending = async () => {
    const list = await payments('?status=PENDING');
    expect(list.totalElements).toBe(1);
    return list.data[0];
  };

  /** alice buys the 100-credit, 30-day package with `credits` in her balance. */
  async function buy(options: { credits?: number; autoRenew?: boolean; promoCode?: string } = {}) {
    const offer = await catalogue(t.current);
    await fund(t.current, 'alice', options.credits ?? 100);
    const res = await t.current.as('alice', {
      method: 'POST',
      url: '/v1/game/create',
      payload: { definitionId: offer.definitionId, packageId: offer.smallId, name: 'My world', autoRenew: options.autoRenew ?? false, ...(options.promoCode ? { promoCode: options.promoCode } : {}) },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { ...offer, gameId: res.json().id as string, periodEnd: Date.parse(res.json().periodEnd) };
  }

  /** To the notice, 3 days before periodEnd, and its round: the renewal is opened. */
  async function toNotice(periodEnd: number) {
    at(periodEnd - 3 * DAY);
    await renewalsTick();
    return pending();
  }

  it('records the first period PAID at creation, honouring autoRenew', async () => {
    const { gameId, periodEnd } = await buy({ autoRenew: true });
    expect(await game(gameId)).toMatchObject({ autoRenew: true, expiredAt: null, renewal: null });
    const list = await payments();
    expect(list).toMatchObject({ totalElements: 1, page: 0, size: 20 });
    expect(list.data[0]).toMatchObject({ gameId, gameName: 'My world', status: 'PAID', amountCredits: 100, promoCode: null, periodEnd: new Date(periodEnd).toISOString(), canceledAt: null });
    expect(list.data[0].paidAt).not.toBeNull();
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/game/payment/invoice' })).json().totalElements).toBe(1);
  });

  it('opens the next period PENDING 3 days before periodEnd, not before, and tells the owner the amount, the date and where to pay', async () => {
    const { gameId, periodEnd } = await buy();
    at(periodEnd - 3 * DAY - MINUTE);
    await renewalsTick();
    expect((await payments('?status=PENDING')).totalElements).toBe(0);
    expect(await notices()).toHaveLength(0);

    const renewal = await toNotice(periodEnd);
    expect(renewal).toMatchObject({
      gameId,
      status: 'PENDING',
      amountCredits: 100,
      periodStart: new Date(periodEnd).toISOString(),
      periodEnd: new Date(periodEnd + 30 * DAY).toISOString(),
      paidAt: null,
    });
    const [notice] = await notices();
    expect(notice!.data).toEqual({
      title: '"My world" renewal',
      description: `100 credits due by ${inEnglish(periodEnd)} for 30 more days. Pay it from your account.`,
      link: '/dashboard/account',
      key: 'renewal.due',
      params: { name: 'My world', amount: 100, due: new Date(periodEnd).toISOString(), days: 30 },
    });
    // The game shows what waits, and nothing is overdue before periodEnd: the game runs on.
    expect(await game(gameId)).toMatchObject({ status: 'CREATED', renewal: { id: renewal.id, status: 'PENDING', amountCredits: 100 } });

    // A round again, or just before periodEnd, opens and tells nothing more.
    at(periodEnd - MINUTE);
    await renewalsTick();
    expect((await payments()).totalElements).toBe(2);
    expect(await notices()).toHaveLength(1);
    expect((await game(gameId)).status).toBe('CREATED');
  });

  it('PAY takes the renewal from the balance once and moves periodEnd on; 402 when short changes nothing', async () => {
    const { gameId, periodEnd } = await buy();
    const renewal = await toNotice(periodEnd);

    const short = await act(renewal.id, 'PAY');
    expect(short.statusCode).toBe(402);
    expect(short.json()).toMatchObject({ code: 'credits.notEnough', detail: expect.stringContaining('100') });
    expect((await pending()).id).toBe(renewal.id);
    expect((await game(gameId)).periodEnd).toBe(new Date(periodEnd).toISOString());

    await fund(t.current, 'alice', 150);
    const paid = await act(renewal.id, 'PAY');
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ payment: { id: renewal.id, status: 'PAID', amountCredits: 100 }, periodEnd: renewal.periodEnd, status: 'CREATED' });
    expect(await game(gameId)).toMatchObject({ periodEnd: renewal.periodEnd, renewal: null });
    expect(await balance()).toBe(50);
    const ledger = (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/transactions` })).json();
    expect(ledger.data.map((e: { kind: string; amount: number }) => [e.kind, e.amount])).toEqual([
      ['GAME_RENEWAL', -100],
      ['GAME_CHARGE', -100],
    ]);

    // Paid is paid: neither paid again nor canceled.
    expect((await act(renewal.id, 'PAY')).statusCode).toBe(409);
    expect((await act(renewal.id, 'CANCEL')).statusCode).toBe(409);
    expect(await balance()).toBe(50);

    // The receipts: what was paid, newest first; the next notice comes 3 days before the new periodEnd.
    const invoices = (await t.current.as('alice', { method: 'GET', url: '/v1/game/payment/invoice' })).json();
    expect(invoices.data.map((p: { id: string; status: string }) => p.status)).toEqual(['PAID', 'PAID']);
    expect(invoices.data[0].id).toBe(renewal.id);
    at(Date.parse(renewal.periodEnd) - 3 * DAY - MINUTE);
    await renewalsTick();
    expect((await payments('?status=PENDING')).totalElements).toBe(0);
  });

  it('debits 50 concurrent PAYs of one payment once', async () => {
    const { gameId, periodEnd } = await buy();
    const renewal = await toNotice(periodEnd);
    await fund(t.current, 'alice', 1000);
    const answers = await Promise.all(Array.from({ length: 50 }, () => act(renewal.id, 'PAY')));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    expect(await balance()).toBe(900);
    expect((await game(gameId)).periodEnd).toBe(renewal.periodEnd);
    const ledger = (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/transactions` })).json();
    expect(ledger.data.filter((e: { kind: string }) => e.kind === 'GAME_RENEWAL')).toHaveLength(1);
  });

  it('CANCEL drops the renewal and auto-renew: the game expires at periodEnd, and paying within the retention revives it', async () => {
    const { gameId, periodEnd } = await buy({ autoRenew: true, credits: 300 });
    const renewal = await toNotice(periodEnd);
    const canceled = await act(renewal.id, 'CANCEL');
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json()).toMatchObject({ payment: { id: renewal.id, status: 'CANCELED' }, periodEnd: new Date(periodEnd).toISOString(), status: 'CREATED' });
    expect(canceled.json().payment.canceledAt).not.toBeNull();
    expect(await game(gameId)).toMatchObject({ autoRenew: false, renewal: null });
    expect((await act(renewal.id, 'CANCEL')).statusCode).toBe(409);
    expect((await act(renewal.id, 'PAY')).statusCode).toBe(409);

    at(periodEnd - MINUTE);
    await renewalsTick();
    expect((await game(gameId)).status).toBe('CREATED');
    at(periodEnd);
    await renewalsTick();
    expect(await game(gameId)).toMatchObject({ status: 'EXPIRED', desiredState: 'stopped', expiredAt: new Date(periodEnd).toISOString() });
    // Credits alone do not pay it: auto-renew went with the cancel.
    expect(await balance()).toBe(200);
    // Expired, the renewal is payable again: the notice's pay link works.
    expect((await game(gameId)).renewal).toMatchObject({ id: renewal.id, status: 'PENDING' });
    expect((await notices())[0]!.data).toMatchObject({ title: 'Server "My world" expired', link: '/dashboard/account', key: 'renewal.expired' });

    at(periodEnd + 10 * DAY);
    const paid = await act(renewal.id, 'PAY');
    expect(paid.statusCode).toBe(200);
    // Revived, STOPPED as it was, with a whole period from now: the days it stood expired are not charged.
    const newEnd = new Date(periodEnd + 40 * DAY).toISOString();
    expect(paid.json()).toMatchObject({ status: 'STOPPED', periodEnd: newEnd, payment: { status: 'PAID', periodStart: new Date(periodEnd + 10 * DAY).toISOString(), periodEnd: newEnd } });
    expect(await game(gameId)).toMatchObject({ status: 'STOPPED', desiredState: 'stopped', expiredAt: null, periodEnd: newEnd });
    expect(await balance()).toBe(100);
    expect((await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/start` })).statusCode).toBe(200);
  });

  it('auto-renew pays the renewal from the balance at periodEnd, not before, and tells the owner', async () => {
    const { gameId, periodEnd } = await buy({ autoRenew: true, credits: 200 });
    const renewal = await toNotice(periodEnd);
    expect((await notices())[0]!.data.description).toContain('Auto-renew: paid from your balance on that date.');
    at(periodEnd - MINUTE);
    await renewalsTick();
    expect((await pending()).id).toBe(renewal.id);
    expect(await balance()).toBe(100);

    at(periodEnd);
    await renewalsTick();
    expect(await game(gameId)).toMatchObject({ status: 'CREATED', periodEnd: renewal.periodEnd, expiredAt: null });
    expect(await balance()).toBe(0);
    expect((await payments('?status=PAID')).totalElements).toBe(2);
    expect((await notices())[0]!.data).toEqual({
      title: '"My world" renewed',
      description: `100 credits taken from your balance (auto-renew): paid until ${inEnglish(Date.parse(renewal.periodEnd))}.`,
      link: `/dashboard/game/${gameId}`,
      key: 'renewal.paid',
      params: { name: 'My world', amount: 100, until: renewal.periodEnd },
    });
  });

  it('expires a running game short of credits through a clean stop, and pays and revives it running as soon as credits arrive', async () => {
    const { gameId, periodEnd } = await buy({ autoRenew: true });
    await runGame(t.current, gameId);
    const renewal = await toNotice(periodEnd);
    at(periodEnd);
    await renewalsTick();
    // Asked to stop; EXPIRED only once the reconciler has stopped it, world saved.
    expect(await game(gameId)).toMatchObject({ status: 'STOPPING', desiredState: 'stopped' });
    await reconcile();
    expect(await game(gameId)).toMatchObject({ status: 'EXPIRED', desiredState: 'stopped', expiredAt: new Date(periodEnd).toISOString() });
    // A clean stop (the world saved, as tests/real prove), not a removal.
    expect(t.current.driver.calls).toContain(`stop ${gameId}`);
    expect(t.current.driver.calls).not.toContain(`remove ${gameId}`);
    const kept = periodEnd + 30 * DAY;
    expect((await notices())[0]!.data).toEqual({
      title: 'Server "My world" expired',
      description: `The renewal of 100 credits was not paid: the server is stopped and its world kept until ${inEnglish(kept)}. Pay it to get the server back.`,
      link: '/dashboard/account',
      key: 'renewal.expired',
      params: { name: 'My world', amount: 100, kept: new Date(kept).toISOString() },
    });
    // A later round changes nothing more and tells nothing more.
    await renewalsTick();
    await reconcile();
    expect((await game(gameId)).status).toBe('EXPIRED');
    const told = (await notices()).length;

    // Credits arrive (any credit: here a staff adjustment): no nightly job, it is paid at once.
    at(periodEnd + 2 * DAY);
    await fund(t.current, 'alice', 100);
    await vi.waitFor(async () => expect((await game(gameId)).status).toBe('STARTING'), { timeout: 10_000, interval: 50 });
    expect(await game(gameId)).toMatchObject({ desiredState: 'running', expiredAt: null, periodEnd: new Date(periodEnd + 32 * DAY).toISOString() });
    expect(await balance()).toBe(0);
    expect((await payments('?status=PAID')).data[0].id).toBe(renewal.id);
    expect((await notices())[0]!.data.description).toContain('The server is back.');
    expect(await notices()).toHaveLength(told + 1);
    await reconcile(); // launched
    await reconcile(); // seen running
    expect((await game(gameId)).status).toBe('RUNNING');
    expect(t.current.driver.servers.get(gameId)?.status).toBe('RUNNING');
  });

  it('pays at the next round what waits when the notice of the credits was lost', async () => {
    const { gameId, periodEnd } = await buy({ autoRenew: true });
    await toNotice(periodEnd);
    at(periodEnd);
    await renewalsTick();
    expect((await game(gameId)).status).toBe('EXPIRED');
    // Deaf to balance notices (as while its LISTEN connection is down): the round makes up for it.
    await t.current.app.services.renewals.stop();
    await fund(t.current, 'alice', 100);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await game(gameId)).status).toBe('EXPIRED');
    await renewalsTick();
    expect(await game(gameId)).toMatchObject({ status: 'STOPPED', expiredAt: null });
    expect(await balance()).toBe(0);
  });

  it('revives a game that ran when it expired running again when its owner pays', async () => {
    const { gameId, periodEnd } = await buy();
    await runGame(t.current, gameId);
    const renewal = await toNotice(periodEnd);
    at(periodEnd);
    await renewalsTick();
    await reconcile();
    expect((await game(gameId)).status).toBe('EXPIRED');
    // Nothing the owner does brings it back but paying.
    expect((await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/start` })).statusCode).toBe(409);

    await fund(t.current, 'alice', 100);
    // Without auto-renew, credits alone pay nothing.
    await t.current.app.services.renewals.tick();
    expect((await game(gameId)).status).toBe('EXPIRED');
    const paid = await act(renewal.id, 'PAY');
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'STARTING' });
    await reconcile();
    await reconcile();
    expect(await game(gameId)).toMatchObject({ status: 'RUNNING', desiredState: 'running', statusReason: null });
  });

  it('tells the owner a week before the retention ends, then deletes the world through the driver: nothing revives it', async () => {
    const { gameId, periodEnd } = await buy();
    const renewal = await toNotice(periodEnd);
    at(periodEnd);
    await renewalsTick();
    expect((await game(gameId)).status).toBe('EXPIRED');
    const expiredAt = periodEnd;
    const deletion = expiredAt + 30 * DAY;

    at(deletion - 7 * DAY - MINUTE);
    await renewalsTick();
    expect((await notices())[0]!.data.title).not.toContain('deleted');
    at(deletion - 7 * DAY);
    await renewalsTick();
    expect((await notices())[0]!.data).toEqual({
      title: '"My world" world to be deleted',
      description: `The world of "My world" will be deleted on ${inEnglish(deletion)}. Pay 100 credits to keep it and get the server back.`,
      link: '/dashboard/account',
      key: 'renewal.deletionWarningPay',
      params: { name: 'My world', date: new Date(deletion).toISOString(), amount: 100 },
    });
    await renewalsTick();
    expect((await notices()).filter((n) => n.data.title.includes('deleted'))).toHaveLength(1);

    at(deletion - MINUTE);
    await renewalsTick();
    expect(t.current.driver.calls).not.toContain(`remove ${gameId}`);
    at(deletion);
    await renewalsTick();
    expect(t.current.driver.calls).toContain(`remove ${gameId}`);
    expect(t.current.driver.provisioned.has(gameId)).toBe(false);
    const deleted = await game(gameId);
    expect(deleted).toMatchObject({ status: 'EXPIRED', worldDeletedAt: new Date(deletion).toISOString(), renewal: null });
    await renewalsTick();
    expect(t.current.driver.calls.filter((c) => c === `remove ${gameId}`)).toHaveLength(1);

    await fund(t.current, 'alice', 100);
    const late = await act(renewal.id, 'PAY');
    expect(late.statusCode).toBe(409);
    expect(await balance()).toBe(100);
    expect((await game(gameId)).status).toBe('EXPIRED');
  });

  it('takes a percentage off the first charge with a promo code, counted once; an unusable code leaves no game and no charge', async () => {
    const staff = { roles: ['staff'] };
    await t.current.as('boss', { ...staff, method: 'POST', url: '/v1/promocode', payload: { code: 'HALF', kind: 'PERCENT_OFF', value: 50 } });
    await t.current.as('boss', { ...staff, method: 'POST', url: '/v1/promocode', payload: { code: 'BONUS', kind: 'BONUS_CREDITS', value: 10 } });
    const { definitionId, smallId, gameId, periodEnd } = await buy({ credits: 300, promoCode: 'half' });
    expect(await balance()).toBe(250);
    const [first] = (await payments()).data;
    expect(first).toMatchObject({ gameId, status: 'PAID', amountCredits: 50, promoCode: 'HALF' });
    const ledger = (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/transactions` })).json();
    expect(ledger.data[0]).toMatchObject({
      amount: -50,
      kind: 'GAME_CHARGE',
      reason: 'Serveur « My world » : Petit, 30 premiers jours (code promo HALF : -50 %)',
      reasonKey: 'gameChargePromo',
      reasonParams: { name: 'My world', package: { fr: 'Petit', en: 'Small' }, days: 30, code: 'HALF', percent: 50 },
    });
    const codes = (await t.current.as('boss', { ...staff, method: 'GET', url: '/v1/promocode' })).json().data;
    expect(codes.find((c: { code: string }) => c.code === 'HALF').uses).toBe(1);

    const create = (promoCode: string) => t.current.as('alice', { method: 'POST', url: '/v1/game/create', payload: { definitionId, packageId: smallId, name: 'Again', promoCode } });
    const again = await create('HALF');
    expect(again.statusCode).toBe(422);
    expect(again.json()).toMatchObject({ code: 'promoCode.alreadyUsed', detail: 'Vous avez déjà utilisé le code promo HALF' });
    expect((await create('NOSUCH')).statusCode).toBe(404);
    expect((await create('BONUS')).statusCode).toBe(422);
    expect((await create('x')).statusCode).toBe(400);
    expect(await balance()).toBe(250);
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/game' })).json().totalElements).toBe(1);
    expect((await t.current.as('boss', { ...staff, method: 'GET', url: '/v1/promocode' })).json().data.find((c: { code: string }) => c.code === 'HALF').uses).toBe(1);

    // Renewals are at the package's price.
    expect((await toNotice(periodEnd)).amountCredits).toBe(100);
  });

  it('PATCH turns auto-renew on and off; turned on, it pays at once a renewal that waits', async () => {
    const { gameId, periodEnd } = await buy({ credits: 200 });
    const renewal = await toNotice(periodEnd);
    at(periodEnd);
    await renewalsTick();
    expect((await game(gameId)).status).toBe('EXPIRED');

    const on = await t.current.as('alice', { method: 'PATCH', url: `/v1/game/${gameId}`, payload: { autoRenew: true } });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ id: gameId, autoRenew: true, status: 'STOPPED', expiredAt: null });
    expect((await payments('?status=PAID')).data[0].id).toBe(renewal.id);
    expect(await balance()).toBe(0);

    const off = await t.current.as('alice', { method: 'PATCH', url: `/v1/game/${gameId}`, payload: { autoRenew: false } });
    expect(off.json()).toMatchObject({ autoRenew: false });
    expect((await game(gameId)).autoRenew).toBe(false);
  });

  it('answers 401 without a token, 404 for another user’s payment or game, 400 for bad input', async () => {
    const { gameId, periodEnd } = await buy();
    const renewal = await toNotice(periodEnd);
    const anonymous = [
      { method: 'GET' as const, url: '/v1/game/payment' },
      { method: 'GET' as const, url: '/v1/game/payment/invoice' },
      { method: 'POST' as const, url: '/v1/game/payment', payload: { paymentId: renewal.id, action: 'PAY' } },
      { method: 'PATCH' as const, url: `/v1/game/${gameId}`, payload: { autoRenew: true } },
    ];
    for (const request of anonymous) expect((await t.current.app.inject(request)).statusCode, request.url).toBe(401);

    await fund(t.current, 'bob', 1000);
    expect((await act(renewal.id, 'PAY', 'bob')).statusCode).toBe(404);
    expect((await act(renewal.id, 'CANCEL', 'bob')).statusCode).toBe(404);
    expect((await act(NOBODY, 'PAY')).statusCode).toBe(404);
    expect((await payments('', 'bob')).totalElements).toBe(0);
    expect((await t.current.as('bob', { method: 'PATCH', url: `/v1/game/${gameId}`, payload: { autoRenew: true } })).statusCode).toBe(404);
    expect(await balance('bob')).toBe(1000);
    expect((await pending()).id).toBe(renewal.id);

    const bad = async (payload: object) => (await t.current.as('alice', { method: 'POST', url: '/v1/game/payment', payload })).statusCode;
    expect(await bad({ paymentId: 'x', action: 'PAY' })).toBe(400);
    expect(await bad({ paymentId: renewal.id, action: 'REFUND' })).toBe(400);
    expect(await bad({ paymentId: renewal.id, action: 'PAY', amount: 1 })).toBe(400);
    expect(await bad({ action: 'PAY' })).toBe(400);
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/game/payment?status=OVERDUE' })).statusCode).toBe(400);
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/game/payment?size=101' })).statusCode).toBe(400);
    expect((await t.current.as('alice', { method: 'PATCH', url: `/v1/game/${gameId}`, payload: { autoRenew: 'yes' } })).statusCode).toBe(400);
    expect((await t.current.as('alice', { method: 'PATCH', url: `/v1/game/${gameId}`, payload: {} })).statusCode).toBe(400);
    expect((await t.current.as('alice', { method: 'PATCH', url: `/v1/game/${gameId}`, payload: { autoRenew: true, name: 'x' } })).statusCode).toBe(400);
    expect((await t.current.as('alice', { method: 'PATCH', url: '/v1/game/not-a-uuid', payload: { autoRenew: true } })).statusCode).toBe(400);
  });

  it('pages and filters the list, newest first', async () => {
    const { periodEnd } = await buy();
    await toNotice(periodEnd);
    const all = await payments('?size=1');
    expect(all).toMatchObject({ totalElements: 2, page: 0, size: 1 });
    expect(all.data[0].status).toBe('PENDING');
    expect((await payments('?size=1&page=1')).data[0].status).toBe('PAID');
    expect((await payments('?offset=1')).data[0].status).toBe('PAID');
    expect((await payments('?status=CANCELED')).totalElements).toBe(0);
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/game/payment/invoice?status=PENDING' })).json().totalElements).toBe(0);
  });

  it('lets two replicas on one database open, pay and expire each renewal once', async () => {
    const auto = await buy({ autoRenew: true, credits: 200 });
    const manual = (await buyGame(t.current, 'bob', 'Manual')).gameId;
    const replica = await buildApp({ config: t.current.config, database: t.current.database, logger: false, runtime: t.current.driver.runtime, clock: () => t.current.clock.now, loops: false });
    const both = () => Promise.all([renewalsTick(), replica.services.renewals.tick()]);
    try {
      at(auto.periodEnd - 3 * DAY);
      await both();
      await both();
      expect((await payments('?status=PENDING')).totalElements).toBe(1);
      expect(await notices()).toHaveLength(1);
      expect((await payments('?status=PENDING', 'bob')).totalElements).toBe(1);

      at(auto.periodEnd + MINUTE);
      await both();
      await both();
      expect(await balance()).toBe(0);
      const ledger = (await t.current.as('alice', { method: 'GET', url: `/v1/game/${auto.gameId}/transactions` })).json();
      expect(ledger.data.filter((e: { kind: string }) => e.kind === 'GAME_RENEWAL')).toHaveLength(1);
      expect((await notices()).filter((n) => n.data.title.includes('renewed'))).toHaveLength(1);
      expect((await game(manual, 'bob')).status).toBe('EXPIRED');
      expect((await notices('bob')).filter((n) => n.data.title.includes('expired'))).toHaveLength(1);
    } finally {
      await replica.close();
    }
  });
});
