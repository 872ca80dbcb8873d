import { describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../fixtures/app.ts';
import { userId } from '../fixtures/games.ts';

const NOBODY = '00000000-0000-4000-8000-000000000000';

async function notices(t: TestApp, name: string): Promise<{ title: string; link: string }[]> {
  const res = await t.as(name, { method: 'GET', url: '/v1/user/notifications' });
  return res.json().data.map((n: { data: { title: string; link: string } }) => n.data);
}

describe('friends', () => {
  const t = useTestApp();
  const ask = (from: string, userId: string) => t.current.as(from, { method: 'POST', url: '/v1/friend', payload: { userId } });
  const answer = (who: string, requestId: string, accept: boolean) => t.current.as(who, { method: 'PUT', url: '/v1/friend/request', payload: { requestId, accept } });
  const friendsOf = async (who: string) => (await t.current.as(who, { method: 'GET', url: '/v1/friend' })).json();

  it('sends a request the other side sees and accepts; both are notified with a link to the social page', async () => {
    const [alice, bob] = [await userId(t.current, 'alice'), await userId(t.current, 'bob')];
    const sent = await ask('alice', bob);
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ status: 'PENDING', user: { id: bob, name: 'bob', mcUuid: null, mcName: null } });
    // French, bob's saved locale (no cookie has said otherwise), and the message for a reader in another language.
    expect(await notices(t.current, 'bob')).toEqual([
      expect.objectContaining({
        title: "Nouvelle demande d'ami",
        description: 'alice veut devenir votre ami.',
        link: '/dashboard/social?tab=requests',
        key: 'friendRequest.received',
        params: { name: 'alice' },
      }),
    ]);

    const incoming = (await t.current.as('bob', { method: 'GET', url: '/v1/friend/request' })).json();
    expect(incoming).toMatchObject({ totalElements: 1, page: 0, size: 20 });
    expect(incoming.data[0]).toMatchObject({ id: sent.json().requestId, direction: 'INCOMING', user: { id: alice, name: 'alice' } });
    const outgoing = (await t.current.as('alice', { method: 'GET', url: '/v1/friend/request' })).json();
    expect(outgoing.data[0]).toMatchObject({ direction: 'OUTGOING', user: { id: bob } });

    const accepted = await answer('bob', sent.json().requestId, true);
    expect(accepted.json()).toEqual({ status: 'ACCEPTED' });
    expect(await notices(t.current, 'alice')).toEqual([expect.objectContaining({ title: "Demande d'ami acceptée", link: '/dashboard/social', key: 'friendRequest.accepted' })]);
    expect((await friendsOf('alice')).data).toEqual([expect.objectContaining({ id: bob, name: 'bob', mcUuid: null, mcName: null })]);
    expect((await friendsOf('bob')).data[0].id).toBe(alice);
    expect((await t.current.as('bob', { method: 'GET', url: '/v1/friend/request' })).json().totalElements).toBe(0);
    expect(await t.current.app.services.friends.friendIds(alice)).toEqual([bob]);
  });

  it('shows linked Minecraft names and finds a friend by Minecraft name', async () => {
    const bob = await userId(t.current, 'bob');
    await t.current.as('bob', { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: 'Bobby_42' } });
    const sent = await t.current.as('alice', { method: 'POST', url: '/v1/friend/mcname', payload: { mcName: 'bobby_42' } });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().user).toMatchObject({ id: bob, mcName: 'Bobby_42', mcUuid: expect.any(String) });
    await answer('bob', sent.json().requestId, true);
    expect((await friendsOf('alice')).data[0]).toMatchObject({ id: bob, mcName: 'Bobby_42' });
    const nobody = await t.current.as('alice', { method: 'POST', url: '/v1/friend/mcname', payload: { mcName: 'NotLinked' } });
    expect(nobody.statusCode).toBe(404);
    const bad = await t.current.as('alice', { method: 'POST', url: '/v1/friend/mcname', payload: { mcName: 'no spaces!' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('mcName');
  });

  it('finds players by BlockHost name, exact or by a prefix of 3 characters, never by email, never blocked ones nor yourself', async () => {
    const search = async (who: string, q: string) => {
      const res = await t.current.as(who, { method: 'GET', url: `/v1/user/search?q=${encodeURIComponent(q)}` });
      expect(res.statusCode, q).toBe(200);
      return res.json().data as { id: string; name: string; mcName: string | null }[];
    };
    const signIn = async (username: string, email: string) => {
      const bearer = await t.current.token(username, { email });
      return (await t.current.app.inject({ url: '/v1/user', headers: { authorization: `Bearer ${bearer}` } })).json().id as string;
    };
    const alice = await userId(t.current, 'alice');
    const steve = await signIn('Steve', 'hidden.mail@example.com');
    const stevenson = await signIn('stevenson', 'stevenson@example.com');
    await signIn('st', 'st@example.com');
    await signIn('bo', 'bo@example.com');
    await t.current.as('stevenson', { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: 'Stevo' } });

    // Exact name first, then the other names with that prefix, with their Minecraft names; no email anywhere.
    const found = await search('alice', 'steve');
    expect(found.map((p) => [p.name, p.mcName])).toEqual([
      ['Steve', null],
      ['stevenson', 'Stevo'],
    ]);
    expect(JSON.stringify(found)).not.toContain('@');
    expect(Object.keys(found[0]!).sort()).toEqual(['id', 'mcName', 'mcUuid', 'name']);
    expect((await search('alice', 'STE')).map((p) => p.id)).toEqual([steve, stevenson]);
    // Under three characters, whole names only.
    expect((await search('alice', 'st')).map((p) => p.name)).toEqual(['st']);
    expect(await search('alice', 's')).toEqual([]);
    // Emails and wildcards do not match.
    expect(await search('alice', 'hidden.mail')).toEqual([]);
    expect(await search('alice', 'hidden.mail@example.com')).toEqual([]);
    expect(await search('alice', 'st%')).toEqual([]);
    expect(await search('alice', '___')).toEqual([]);
    // Not yourself.
    expect(await search('alice', 'alice')).toEqual([]);
    expect((await search('alice', 'ali')).map((p) => p.id)).not.toContain(alice);

    // A block hides both players from each other, exact or prefix.
    await t.current.as('Steve', { method: 'POST', url: '/v1/blocklist', payload: { userId: alice } });
    expect((await search('alice', 'steve')).map((p) => p.name)).toEqual(['stevenson']);
    expect(await search('Steve', 'alice')).toEqual([]);
    expect((await search('stevenson', 'alice')).map((p) => p.id)).toEqual([alice]);

    // The found player is asked by id.
    const sent = await ask('alice', stevenson);
    expect(sent.json()).toMatchObject({ status: 'PENDING', user: { name: 'stevenson' } });

    for (const q of ['', 'x'.repeat(101)]) {
      const bad = await t.current.as('alice', { method: 'GET', url: `/v1/user/search?q=${q}` });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors[0].field).toBe('querystring.q');
    }
    expect((await t.current.app.inject({ url: '/v1/user/search?q=steve' })).statusCode).toBe(401);
    const doc = (await t.current.app.inject({ url: '/v1/openapi.json' })).json();
    expect(doc.paths['/v1/user/search'].get).toMatchObject({ security: [{ bearer: [] }], parameters: [expect.objectContaining({ name: 'q', in: 'query', required: true })] });
  });

  it('accepts both when a request crosses one pending the other way', async () => {
    const [alice, bob] = [await userId(t.current, 'alice'), await userId(t.current, 'bob')];
    expect((await ask('alice', bob)).json().status).toBe('PENDING');
    const crossing = await ask('bob', alice);
    expect(crossing.statusCode).toBe(201);
    expect(crossing.json()).toMatchObject({ status: 'ACCEPTED', user: { id: alice } });
    expect((await friendsOf('alice')).totalElements).toBe(1);
    expect((await friendsOf('bob')).totalElements).toBe(1);
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/friend/request' })).json().totalElements).toBe(0);
    expect((await notices(t.current, 'alice')).map((n) => n.title)).toEqual(["Demande d'ami acceptée"]);
  });

  it('ends as one friendship when two requests cross at the same moment', async () => {
    const [alice, bob] = [await userId(t.current, 'alice'), await userId(t.current, 'bob')];
    const results = await Promise.all([ask('alice', bob), ask('bob', alice)]);
    expect(results.map((r) => r.json().status).sort()).toEqual(['ACCEPTED', 'PENDING']);
    expect((await friendsOf('alice')).totalElements).toBe(1);
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/friend/request' })).json().totalElements).toBe(0);
  });

  it('refuses a request to yourself (400), a duplicate and one between friends (409), an unknown user (404)', async () => {
    const [alice, bob] = [await userId(t.current, 'alice'), await userId(t.current, 'bob')];
    const self = await ask('alice', alice);
    expect(self.statusCode).toBe(400);
    expect(self.json().errors[0].field).toBe('userId');
    await ask('alice', bob);
    const again = await ask('alice', bob);
    expect(again.statusCode).toBe(409);
    expect(again.headers['content-type']).toContain('application/problem+json');
    await ask('bob', alice);
    expect((await ask('alice', bob)).statusCode).toBe(409);
    expect((await ask('alice', NOBODY)).statusCode).toBe(404);
  });

  it('lets the recipient decline, the sender withdraw but not accept, and nobody else see the request', async () => {
    const [, bob, carol] = [await userId(t.current, 'alice'), await userId(t.current, 'bob'), await userId(t.current, 'carol')];
    const first = (await ask('alice', bob)).json().requestId;
    expect((await answer('carol', first, true)).statusCode).toBe(404);
    expect((await answer('alice', first, true)).statusCode).toBe(409);
    expect((await answer('bob', first, false)).json()).toEqual({ status: 'DECLINED' });
    expect((await friendsOf('alice')).totalElements).toBe(0);
    expect((await answer('bob', first, true)).statusCode).toBe(404);
    const second = (await ask('alice', carol)).json().requestId;
    expect((await answer('alice', second, false)).json()).toEqual({ status: 'CANCELLED' });
    expect((await t.current.as('carol', { method: 'GET', url: '/v1/friend/request' })).json().totalElements).toBe(0);
  });

  it('removes a friend on both sides; a stranger is 404', async () => {
    const [alice, bob] = [await userId(t.current, 'alice'), await userId(t.current, 'bob')];
    await ask('alice', bob);
    await ask('bob', alice);
    expect((await t.current.as('bob', { method: 'DELETE', url: `/v1/friend/${alice}` })).statusCode).toBe(204);
    expect((await friendsOf('alice')).totalElements).toBe(0);
    expect((await t.current.as('bob', { method: 'DELETE', url: `/v1/friend/${alice}` })).statusCode).toBe(404);
  });

  it('pages friends with page, size and offset', async () => {
    const alice = await userId(t.current, 'alice');
    for (const name of ['u1', 'u2', 'u3']) {
      await userId(t.current, name);
      await t.current.as(name, { method: 'POST', url: '/v1/friend', payload: { userId: alice } });
    }
    const requests = (await t.current.as('alice', { method: 'GET', url: '/v1/friend/request?size=2' })).json();
    expect(requests).toMatchObject({ totalElements: 3, size: 2 });
    expect(requests.data).toHaveLength(2);
    for (const r of (await t.current.as('alice', { method: 'GET', url: '/v1/friend/request' })).json().data) await answer('alice', r.id, true);
    const page1 = (await t.current.as('alice', { method: 'GET', url: '/v1/friend?page=1&size=2' })).json();
    expect(page1).toMatchObject({ totalElements: 3, page: 1, size: 2 });
    expect(page1.data).toHaveLength(1);
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/friend?offset=2&size=2' })).json().data).toHaveLength(1);
  });

  it('checks bodies: unknown fields, bad ids and missing fields are 400 naming the field', async () => {
    const extra = await t.current.as('alice', { method: 'POST', url: '/v1/friend', payload: { userId: NOBODY, note: 'hi' } });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().errors[0]).toEqual({ field: 'note', code: 'validation.additionalProperties', message: expect.any(String) });
    const badId = await t.current.as('alice', { method: 'POST', url: '/v1/friend', payload: { userId: 'bob' } });
    expect(badId.json().errors[0].field).toBe('userId');
    const missing = await t.current.as('alice', { method: 'PUT', url: '/v1/friend/request', payload: { requestId: NOBODY } });
    expect(missing.json().errors[0].field).toBe('accept');
    expect((await t.current.as('alice', { method: 'DELETE', url: '/v1/friend/nope' })).json().errors[0].field).toBe('params.friendId');
  });

  it('needs a token on every call', async () => {
    for (const [method, url] of [
      ['POST', '/v1/friend'],
      ['POST', '/v1/friend/mcname'],
      ['GET', '/v1/friend'],
      ['DELETE', `/v1/friend/${NOBODY}`],
      ['GET', '/v1/friend/request'],
      ['PUT', '/v1/friend/request'],
    ] as const) {
      expect((await t.current.app.inject({ method, url })).statusCode, `${method} ${url}`).toBe(401);
    }
  });
});
