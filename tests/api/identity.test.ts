import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { buildApp } from '../../src/server/app.ts';
import { startListeningApp, type TestApp } from '../fixtures/app.ts';
import { OidcClient } from '../fixtures/oidc-client.ts';

describe('embedded OpenID provider', () => {
  let t: TestApp & { origin: string };
  beforeEach(async () => {
    t = await startListeningApp({ RATE_LIMIT_SIGNIN_PER_MINUTE: '100' });
  });
  afterEach(() => t.close());

  it('publishes its discovery document under /oidc on the app origin', async () => {
    const doc = await (await fetch(`${t.origin}/oidc/.well-known/openid-configuration`)).json();
    expect(doc.issuer).toBe(`${t.origin}/oidc`);
    expect(doc.authorization_endpoint).toBe(`${t.origin}/oidc/auth`);
    expect(doc.jwks_uri).toBe(`${t.origin}/oidc/jwks`);
    expect(doc.end_session_endpoint).toBe(`${t.origin}/oidc/session/end`);
    expect(doc.code_challenge_methods_supported).toEqual(['S256']);
    // The web app uses the authorization code flow only: no implicit grant is offered.
    expect(doc.response_types_supported).toEqual(['code']);
    expect(doc.grant_types_supported).not.toContain('implicit');
  });

  it('signs a new user up with code + PKCE and gives a JWT access token the API accepts', async () => {
    const client = new OidcClient(t.origin);
    const { status, body } = await client.signUp('Steve_42', 'steve@example.com', 'correct-horse-9');
    expect(status).toBe(200);
    const claims = decodeJwt(body.access_token!);
    expect(claims).toMatchObject({ iss: `${t.origin}/oidc`, aud: 'api', preferred_username: 'Steve_42', realm_access: { roles: [] } });
    expect(body.refresh_token).toBeTruthy();
    const me = await fetch(`${t.origin}/v1/user`, { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ name: 'Steve_42', email: 'steve@example.com', balance: 0 });
  });

  it('keeps the email of a signed-up account when a token without an email claim comes in between (a scripted token)', async () => {
    const client = new OidcClient(t.origin);
    const { body } = await client.signUp('Mira_7', 'mira@example.com', 'correct-horse-9');
    const me = async (token: string) => (await fetch(`${t.origin}/v1/user`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(await me(body.access_token!)).toMatchObject({ name: 'Mira_7', email: 'mira@example.com' });
    // `npm run token` names the same account, and its token carries no email claim.
    const scripted = await t.token('Mira_7');
    expect(decodeJwt(scripted).email).toBeUndefined();
    expect(await me(scripted)).toMatchObject({ name: 'Mira_7', email: 'mira@example.com' });
    const { body: again } = await new OidcClient(t.origin).signIn('mira@example.com', 'correct-horse-9');
    expect(await me(again.access_token!)).toMatchObject({ name: 'Mira_7', email: 'mira@example.com' });
    expect(await me(scripted)).toMatchObject({ email: 'mira@example.com' });
  });

  it('brings the user row back in step when a token comes back with the claims of an earlier one', async () => {
    const { users } = await import('../../src/server/db/schema/index.ts');
    const rolesOf = async () => (await t.database.db.select({ roles: users.roles }).from(users)).map((r) => r.roles);
    for (const roles of [['staff'], [], ['staff']]) {
      const res = await t.as('carol', { url: '/v1/user', roles });
      expect(res.json().roles).toEqual(roles);
      expect(await rolesOf()).toEqual([roles]);
    }
  });

  it('refuses a sign-in without PKCE', async () => {
    const params = new URLSearchParams({ client_id: 'web', response_type: 'code', redirect_uri: `${t.origin}/auth/callback`, scope: 'openid' });
    const res = await fetch(`${t.origin}/oidc/auth?${params}`, { redirect: 'manual' });
    const location = res.headers.get('location') ?? '';
    expect(location).toContain('error=invalid_request');
  });

  it('refuses a NUL character in the sign-up and sign-in forms with 400, creating nothing', async () => {
    // (A form cannot carry a lone surrogate: the browser's UTF-8 encoding already replaced it.)
    const client = new OidcClient(t.origin);
    const page = await client.startSignIn();
    expect((await client.postForm(`${page}/signup`, { username: 'nul_user', email: 'a\u0000b@example.com', password: 'correct-horse-9' })).status).toBe(400);
    expect((await client.postForm(`${page}/login`, { login: 'nul\u0000user', password: 'correct-horse-9' })).status).toBe(400);
    // The name is still free: nothing was written.
    const ok = await client.signUp('nul_user', 'nul@example.com', 'correct-horse-9');
    expect(ok.status).toBe(200);
  });

  it('explains a wrong password, a taken name and a weak password, in French by default and in English', async () => {
    const client = new OidcClient(t.origin);
    await client.signUp('alex', 'alex@example.com', 'long-enough-1');

    const other = new OidcClient(t.origin);
    const page = await other.startSignIn();
    const wrong = await other.postForm(`${page}/login`, { login: 'alex', password: 'not-the-one-1' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('Nom d&#39;utilisateur ou mot de passe incorrect.');

    const taken = await other.postForm(`${page}/signup?lang=en`, { username: 'ALEX', email: 'new@example.com', password: 'long-enough-2' });
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain('This username is already taken.');

    const weak = await other.postForm(`${page}/signup?lang=en`, { username: 'newbie', email: 'newbie@example.com', password: 'short' });
    expect(weak.status).toBe(400);
    expect(await weak.text()).toContain('Password too weak');

    // The right password still works after the failures.
    const done = await other.follow(await other.postForm(`${page}/login`, { login: 'alex@example.com', password: 'long-enough-1' }));
    expect(done).toBeInstanceOf(URL);
  });

  it('rotates refresh tokens: the new one works, the used one is refused', async () => {
    const client = new OidcClient(t.origin);
    const first = await client.signUp('rotor', 'rotor@example.com', 'spinning-top-7');
    const second = await client.token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token! });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect(decodeJwt(second.body.access_token!).realm_access).toEqual({ roles: [] });
    const replay = await client.token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token! });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
  });

  it('keeps sessions across a restart: another app on the same database and keys honours the refresh token', async () => {
    const client = new OidcClient(t.origin);
    const tokens = await client.signUp('keeper', 'keeper@example.com', 'stay-signed-in-3');
    // A second replica: same database, same key file, same public URL.
    const replica = await buildApp({ config: t.config, database: t.database, logger: false });
    try {
      const res = await replica.inject({
        method: 'POST',
        url: '/oidc/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ client_id: 'web', grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token! }).toString(),
      });
      expect(res.statusCode).toBe(200);
      const me = await replica.inject({ url: '/v1/user', headers: { authorization: `Bearer ${res.json().access_token}` } });
      expect(me.json().name).toBe('keeper');
    } finally {
      await replica.close();
    }
  });

  it('signs out through RP-initiated logout and returns to the app', async () => {
    const client = new OidcClient(t.origin);
    const tokens = await client.signUp('leaver', 'leaver@example.com', 'goodbye-now-5');
    const end = await client.request(`/oidc/session/end?${new URLSearchParams({ id_token_hint: tokens.body.id_token!, post_logout_redirect_uri: `${t.origin}/`, client_id: 'web' })}`);
    expect(end.status).toBe(200);
    const html = await end.text();
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
    const action = /action="([^"]+)"/.exec(html)?.[1];
    expect(xsrf && action).toBeTruthy();
    const confirm = await client.postForm(new URL(action!, t.origin).pathname, { xsrf: xsrf!, logout: 'yes' });
    const back = await client.follow(confirm);
    expect(back).toBeInstanceOf(URL);
    expect((back as URL).pathname).toBe('/');
    // Signed out: a new sign-in shows the form again instead of returning straight to the app.
    const page = await client.startSignIn();
    expect(page).toMatch(/^\/oidc\/interaction\//);
  });
});

describe('sign-in rate limit', () => {
  it('answers 429 after too many attempts from one address', async () => {
    const t = await startListeningApp({ RATE_LIMIT_SIGNIN_PER_MINUTE: '3' });
    try {
      const client = new OidcClient(t.origin);
      const page = await client.startSignIn();
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await client.postForm(`${page}/login`, { login: 'x', password: 'wrong-password-1' })).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await t.close();
    }
  });

  it('keys on the address, whatever Authorization header comes with the form', async () => {
    const t = await startListeningApp({ RATE_LIMIT_SIGNIN_PER_MINUTE: '3' });
    try {
      const client = new OidcClient(t.origin);
      const page = await client.startSignIn();
      const statuses = [];
      for (let i = 0; i < 5; i++) {
        const res = await client.request(`${page}/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${randomBytes(8).toString('hex')}` },
          body: new URLSearchParams({ login: 'x', password: 'wrong-password-1' }).toString(),
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await t.close();
    }
  });

  it('keys on the account tried too: guesses from many addresses stop after the limit, and say so', async () => {
    const t = await startListeningApp({ RATE_LIMIT_SIGNIN_PER_MINUTE: '3', TRUST_PROXY: 'true' });
    try {
      const client = new OidcClient(t.origin);
      const page = await client.startSignIn();
      const attempt = (login: string, address: string) =>
        client.request(`${page}/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
          body: new URLSearchParams({ login, password: 'wrong-password-1' }).toString(),
        });
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await attempt('Alice', `198.51.100.${i + 1}`)).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      const refused = await attempt('alice', '198.51.100.77');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(await refused.text()).toContain('Trop de tentatives');
      // Another account from a fresh address is not held back.
      expect((await attempt('bob', '198.51.100.99')).status).toBe(401);
    } finally {
      await t.close();
    }
  });
});
