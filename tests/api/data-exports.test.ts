import { describe, expect, it } from 'vitest';
import { startTestApp, useTestApp } from '../fixtures/app.ts';
import { startSmtp } from '../fixtures/smtp.ts';
import { buyGame, userId } from '../fixtures/games.ts';
import { befriend } from '../fixtures/social.ts';

const DAY = 24 * 3600_000;

describe('data exports', () => {
  const t = useTestApp();
  const ask = (user: string) => t.current.as(user, { method: 'POST', url: '/v1/user/exports' });
  const list = async (user: string) => (await t.current.as(user, { method: 'GET', url: '/v1/user/exports' })).json().data;
  const download = (user: string, id: string) => t.current.as(user, { method: 'GET', url: `/v1/user/exports/${id}/download` });

  it('gathers everything the platform holds about the person, and nobody else’s data, into one JSON file to download', async () => {
    // Alice and Bob sign in with their emails first.
    for (const name of ['alice', 'bob']) {
      const token = await t.current.token(name, { email: `${name}@mail.test` });
      await t.current.app.inject({ method: 'GET', url: '/v1/user', headers: { authorization: `Bearer ${token}` } });
    }
    const { gameId, definitionId } = await buyGame(t.current);
    const bob = await userId(t.current, 'bob');
    await userId(t.current, 'carol');
    await befriend(t.current, 'alice', 'bob');
    const group = (await t.current.as('alice', { method: 'POST', url: '/v1/friend/group', payload: { name: 'Crew' } })).json().id;
    await t.current.as('alice', { method: 'POST', url: `/v1/friend/group/${group}/member`, payload: { userId: bob } });
    expect((await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/access`, payload: { friendId: bob, role: 'MODERATOR' } })).statusCode).toBe(201);
    expect((await t.current.as('alice', { method: 'POST', url: '/v1/game/review', payload: { definitionId, rating: 4, comment: 'Solid' } })).statusCode).toBe(201);
    await t.current.as('alice', { method: 'POST', url: '/v1/blocklist', payload: { userId: await userId(t.current, 'carol') } });

    const asked = await ask('alice');
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toMatchObject({ status: 'PENDING', readyAt: null, sizeBytes: null });
    // One at a time: a second ask while the first is built says so, in the caller's language.
    const again = await ask('alice');
    expect(again.json()).toMatchObject({ status: 409, code: 'dataExports.pending', detail: expect.stringContaining('déjà en préparation') });
    // Not ready yet: nothing to download.
    expect((await download('alice', asked.json().id)).json()).toMatchObject({ status: 409, code: 'dataExports.notReady' });

    expect(await t.current.app.services.dataExportRounds.tick()).toBe(1);
    const [ready] = await list('alice');
    expect(ready).toMatchObject({ id: asked.json().id, status: 'READY', readyAt: t.current.clock.now.toISOString(), expiresAt: new Date(t.current.clock.now.getTime() + 7 * DAY).toISOString() });
    const notices = (await t.current.as('alice', { method: 'GET', url: '/v1/user/notifications' })).json().data;
    expect(notices[0]).toMatchObject({ data: { title: 'Vos données sont prêtes', link: '/dashboard/account#data' } });

    const file = await download('alice', ready.id);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toMatch(/^application\/json/);
    expect(file.headers['content-disposition']).toMatch(/attachment; filename="blockhost-data-\d{4}-\d\d-\d\d\.json"/);
    expect(Number(file.headers['content-length'])).toBe(ready.sizeBytes);
    const data = file.json();
    expect(Object.keys(data)).toEqual(['exportedAt', ...t.current.app.services.personalData.names()]);
    expect(data.profile).toMatchObject({ name: 'alice', email: 'alice@mail.test' });
    expect(data.games).toMatchObject([{ id: gameId, name: 'My world' }]);
    expect(data.settings).toMatchObject([{ gameId }]);
    expect(data.credits.ledger.length).toBeGreaterThan(0);
    expect(data.friends.friends).toMatchObject([{ id: bob, name: 'bob' }]);
    expect(data.friendGroups.owned).toMatchObject([{ name: 'Crew', members: [{ userId: bob }] }]);
    expect(data.blocked).toMatchObject([{ name: 'carol' }]);
    expect(data.sharing.given).toMatchObject([{ gameId, grants: [{ role: 'MODERATOR' }] }]);
    expect(data.reviews).toMatchObject([{ definitionId, rating: 4, comment: 'Solid' }]);
    expect(data.backups).toMatchObject([{ gameId, backups: [] }]);
    expect(data.notifications.length).toBeGreaterThan(0);
    // Bob is there by his public name only: his email, his own games and notices are not.
    expect(file.body).not.toContain('bob@mail.test');

    // Another person's export is not found; theirs is their own.
    expect((await download('bob', ready.id)).json()).toMatchObject({ status: 404, code: 'notFound.dataExport' });
    expect(await list('bob')).toEqual([]);
    await ask('bob');
    await t.current.app.services.dataExportRounds.tick();
    const bobs = (await download('bob', (await list('bob'))[0].id)).json();
    expect(bobs.profile.name).toBe('bob');
    expect(bobs.games).toEqual([]);
    expect(bobs.sharing.received).toMatchObject([{ id: gameId, role: 'MODERATOR' }]);

    // After a week the file and its line are gone.
    t.current.clock.advance(7 * DAY + 1000);
    await t.current.app.services.dataExportRounds.tick();
    expect(await list('alice')).toEqual([]);
    expect((await download('alice', ready.id)).statusCode).toBe(404);
  });

  it('takes three a day, and an export whose builder died is built by the next round', async () => {
    const rounds = t.current.app.services.dataExportRounds;
    for (let i = 0; i < 3; i++) {
      expect((await ask('alice')).statusCode).toBe(202);
      await rounds.tick();
    }
    const fourth = await t.current.as('alice', { method: 'POST', url: '/v1/user/exports', headers: { cookie: 'locale=en' } });
    expect(fourth.json()).toMatchObject({ status: 429, code: 'dataExports.tooMany', detail: 'At most 3 exports a day: try again tomorrow' });
    expect(await list('alice')).toHaveLength(3);

    // A day later one more is taken. Its builder claims it and dies before writing anything.
    t.current.clock.advance(DAY + 1000);
    const asked = (await ask('alice')).json();
    const claimed = await (rounds as unknown as { claim(): Promise<{ id: string } | undefined> }).claim();
    expect(claimed?.id).toBe(asked.id);
    // While its claim holds, no other round takes it twice; once lapsed, the next round builds it.
    expect(await rounds.tick()).toBe(0);
    t.current.clock.advance(2 * 60_000 + 1000);
    expect(await rounds.tick()).toBe(1);
    expect((await list('alice'))[0]).toMatchObject({ id: asked.id, status: 'READY' });
  });

  it('takes one of several asks sent at the same instant, and answers the other that one is under way', async () => {
    await userId(t.current, 'alice');
    const answers = await Promise.all([ask('alice'), ask('alice'), ask('alice')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([202, 409, 409]);
    expect(await list('alice')).toHaveLength(1);
  });

  it('fails one that cannot be built, tells the person, and takes the next', async () => {
    const { personalData, dataExportRounds } = t.current.app.services;
    let broken = true;
    personalData.register('flaky', async () => {
      if (broken) throw new Error('the database went away');
      return 'fine';
    });
    // Every section says what becomes of it when its person deletes their account.
    personalData.erasure('flaky', { none: 'a test section' });
    const first = (await ask('alice')).json();
    await dataExportRounds.tick();
    expect((await list('alice'))[0]).toMatchObject({ id: first.id, status: 'FAILED', readyAt: null });
    const [notice] = (await t.current.as('alice', { method: 'GET', url: '/v1/user/notifications' })).json().data;
    expect(notice.data).toMatchObject({ title: 'L’export de vos données a échoué', link: '/dashboard/account#data' });
    broken = false;
    const second = (await ask('alice')).json();
    await dataExportRounds.tick();
    expect((await download('alice', second.id)).json().flaky).toBe('fine');
  });
});

describe('data exports by email', () => {
  it('emails the person, in their language, a link to their account once their export is ready', async () => {
    const smtp = await startSmtp();
    const t = await startTestApp({ SMTP_URL: smtp.url });
    try {
      const token = await t.token('alice', { email: 'alice@mail.test' });
      const ask = await t.app.inject({ method: 'POST', url: '/v1/user/exports', headers: { authorization: `Bearer ${token}` } });
      expect(ask.statusCode).toBe(202);
      await t.app.services.dataExportRounds.tick();
      const mail = await smtp.next('alice@mail.test');
      expect(mail.subject).toBe('Vos données BlockHost sont prêtes à télécharger');
      expect(mail.text).toContain('Bonjour alice,');
      expect(mail.links).toEqual(['http://localhost/dashboard/account#data']);
    } finally {
      await t.close();
      await smtp.close();
    }
  });
});
