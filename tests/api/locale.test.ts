import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startListeningApp, useTestApp, type TestApp } from '../fixtures/app.ts';
import { openStream } from '../fixtures/sse.ts';
import { buyGame, userId } from '../fixtures/games.ts';
import { ledgerEntries } from '../../src/server/db/schema/credits.ts';
import { eq } from 'drizzle-orm';

/** A request as the web app sends it: the bearer token and the locale cookie of the language on screen. */
const inLocale = (locale: 'fr' | 'en') => ({ headers: { cookie: `theme=dark; locale=${locale}` } });

describe('notifications and ledger lines in the reader’s language', () => {
  const t = useTestApp();

  it('remembers the language of the locale cookie, and renders lists in it even without the cookie', async () => {
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/user' })).json().locale).toBe('fr');
    await t.current.as('alice', { method: 'GET', url: '/v1/user', ...inLocale('en') });
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/user' })).json().locale).toBe('en');

    await t.current.as('alice', { method: 'POST', url: '/v1/friend', payload: { userId: await userId(t.current, 'bob') } });
    await t.current.as('bob', { method: 'GET', url: '/v1/user', ...inLocale('en') });
    // Bob's English is saved: a client sending no cookie still reads English.
    const [notice] = (await t.current.as('bob', { method: 'GET', url: '/v1/user/notifications' })).json().data;
    expect(notice.data).toEqual({
      title: 'New friend request',
      description: 'alice wants to be your friend.',
      link: '/dashboard/social?tab=requests',
      key: 'friendRequest.received',
      params: { name: 'alice' },
    });
    // Back to French: the same stored notice reads in French.
    const [again] = (await t.current.as('bob', { method: 'GET', url: '/v1/user/notifications/unread', ...inLocale('fr') })).json().data;
    expect(again.data).toMatchObject({ title: "Nouvelle demande d'ami", description: 'alice veut devenir votre ami.', key: 'friendRequest.received' });
  });

  it('shows the same ledger lines in French to one reader and in English to another', async () => {
    const { gameId } = await buyGame(t.current, 'alice', 'Castle');
    await t.current.as('boss', { method: 'POST', url: '/v1/user/credit', roles: ['staff'], payload: { userId: await userId(t.current, 'alice'), amount: 7, reason: 'Prix du concours' } });
    const ledger = async (locale: 'fr' | 'en') => (await t.current.as('alice', { method: 'GET', url: '/v1/purchase/transactions', ...inLocale(locale) })).json().data;

    const fr = await ledger('fr');
    expect(fr.map((e: { reason: string }) => e.reason)).toEqual(['Prix du concours', 'Serveur « Castle » : Petit, 30 premiers jours', 'Test credits']);
    // The package's name is kept in both languages: each reader gets theirs.
    expect(fr[1]).toMatchObject({ kind: 'GAME_CHARGE', reasonKey: 'gameCharge', reasonParams: { name: 'Castle', package: { fr: 'Petit', en: 'Small' }, days: 30 } });
    // The staff's reason is their own words: kept as written, in every language.
    expect(fr[0]).toMatchObject({ reasonKey: 'adjustment', reasonParams: { reason: 'Prix du concours' } });
    const en = await ledger('en');
    expect(en.map((e: { reason: string }) => e.reason)).toEqual(['Prix du concours', 'Game "Castle": Small, first 30 days', 'Test credits']);

    const game = (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/transactions` })).json().data;
    expect(game).toEqual([expect.objectContaining({ reason: 'Game "Castle": Small, first 30 days', reasonKey: 'gameCharge' })]);
    // Staff read every ledger in their own language.
    const staff = (await t.current.as('boss', { method: 'GET', url: '/v1/staff/transactions?kind=GAME_CHARGE', roles: ['staff'], ...inLocale('fr') })).json().data;
    expect(staff).toEqual([expect.objectContaining({ reason: 'Serveur « Castle » : Petit, 30 premiers jours', reasonKey: 'gameCharge' })]);
  });

  it('still shows a ledger line written when package names had one language', async () => {
    const { gameId } = await buyGame(t.current, 'alice', 'Castle');
    await t.current.database.db
      .update(ledgerEntries)
      .set({ reasonParams: { name: 'Castle', package: 'Petit', days: 30 } })
      .where(eq(ledgerEntries.refId, gameId));
    const reason = async (locale: 'fr' | 'en') => (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/transactions`, ...inLocale(locale) })).json().data[0].reason;
    expect(await reason('en')).toBe('Game "Castle": Petit, first 30 days');
    expect(await reason('fr')).toBe('Serveur « Castle » : Petit, 30 premiers jours');
  });
});

describe('the notification stream in the user’s saved language', () => {
  let t: TestApp & { origin: string };
  beforeEach(async () => {
    t = await startListeningApp();
  });
  afterEach(() => t.close());

  it('sends a French reader French and an English reader English for the same event, with its message', async () => {
    const [bob, carol] = await Promise.all(['bob', 'carol'].map((name) => t.token(name)));
    // Bob read the site in English once; carol never chose.
    await t.as('bob', { method: 'GET', url: '/v1/user', ...inLocale('en') });
    await t.as('carol', { method: 'GET', url: '/v1/user' });
    const bobStream = await openStream(`${t.origin}/v1/user/notifications/stream`, bob!);
    const carolStream = await openStream(`${t.origin}/v1/user/notifications/stream`, carol!);
    const aliceId = (await t.as('alice', { method: 'GET', url: '/v1/user' })).json().id;
    for (const name of ['bob', 'carol']) await t.as(name, { method: 'POST', url: '/v1/friend', payload: { userId: aliceId } });
    const requests = (await t.as('alice', { method: 'GET', url: '/v1/friend/request' })).json().data as { id: string }[];
    for (const r of requests) await t.as('alice', { method: 'PUT', url: '/v1/friend/request', payload: { requestId: r.id, accept: true } });

    const [toBob] = await bobStream.waitFor('basic-link-event');
    const [toCarol] = await carolStream.waitFor('basic-link-event');
    expect(JSON.parse(toBob!.data)).toEqual({
      title: 'Friend request accepted',
      description: 'alice accepted your friend request.',
      link: '/dashboard/social',
      key: 'friendRequest.accepted',
      params: { name: 'alice' },
    });
    expect(JSON.parse(toCarol!.data)).toMatchObject({ title: "Demande d'ami acceptée", description: "alice a accepté votre demande d'ami.", key: 'friendRequest.accepted' });

    // A replay after Last-Event-ID is in the saved language too.
    const test = (await t.as('bob', { method: 'POST', url: '/v1/user/notification' })).json();
    expect(test.data).toMatchObject({ title: 'Test notification', key: 'test' });
    const replay = await openStream(`${t.origin}/v1/user/notifications/stream`, bob!, { 'last-event-id': toBob!.id! });
    const [replayed] = await replay.waitFor('basic-link-event');
    expect(JSON.parse(replayed!.data)).toMatchObject({ title: 'Test notification', description: 'Notifications arrive live.' });
    for (const s of [bobStream, carolStream, replay]) s.close();
  });
});
