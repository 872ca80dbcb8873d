import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { startListeningApp, type TestApp } from '../fixtures/app.ts';
import { OidcClient } from '../fixtures/oidc-client.ts';

/** The embedded provider used by a standard OpenID client, which reads the user's claims at userinfo. */
describe('the embedded provider’s userinfo endpoint', () => {
  let t: TestApp & { origin: string };
  beforeEach(async () => {
    t = await startListeningApp({ RATE_LIMIT_SIGNIN_PER_MINUTE: '100' });
  });
  afterEach(() => t.close());

  const userinfo = async (token: string) => {
    const discovery = (await (await fetch(`${t.origin}/oidc/.well-known/openid-configuration`)).json()) as { userinfo_endpoint: string };
    return fetch(discovery.userinfo_endpoint, { headers: { authorization: `Bearer ${token}` } });
  };

  it('answers the claims of the user the web client’s access token names, as Keycloak does', async () => {
    const { body } = await new OidcClient(t.origin).signUp('Ada_9', 'ada@example.com', 'correct-horse-9');
    const res = await userinfo(body.access_token!);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ sub: decodeJwt(body.access_token!).sub, name: 'Ada_9', preferred_username: 'Ada_9', email: 'ada@example.com' });

    // A token signed in again (not a fresh sign-up) is read the same way, and the API still takes it.
    const { body: again } = await new OidcClient(t.origin).signIn('ada@example.com', 'correct-horse-9');
    expect((await userinfo(again.access_token!)).status).toBe(200);
    expect((await fetch(`${t.origin}/v1/user`, { headers: { authorization: `Bearer ${again.access_token}` } })).status).toBe(200);
  });

  it('refuses a token it did not issue', async () => {
    const res = await userinfo('not-a-token');
    expect(res.status).toBe(401);
  });
});
