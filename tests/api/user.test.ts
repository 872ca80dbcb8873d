import { describe, expect, it } from 'vitest';
import { useTestApp } from '../fixtures/app.ts';

describe('GET /v1/user', () => {
  const t = useTestApp();

  it('answers 401 problem+json without a token or with a bad one', async () => {
    const none = await t.current.app.inject({ method: 'GET', url: '/v1/user' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['content-type']).toContain('application/problem+json');
    expect(none.json()).toMatchObject({ status: 401, title: 'Unauthorized' });

    const forged = await t.current.app.inject({ method: 'GET', url: '/v1/user', headers: { authorization: 'Bearer aaa.bbb.ccc' } });
    expect(forged.statusCode).toBe(401);
  });

  it('refuses a token for another audience or issuer', async () => {
    const { app, keys, config } = t.current;
    const { signAccessToken } = await import('../../src/server/identity/tokens.ts');
    const otherAudience = await signAccessToken({ ...config, oidc: { ...config.oidc, audience: 'other' } }, keys, { username: 'eve' });
    const otherIssuer = await signAccessToken({ ...config, oidc: { ...config.oidc, issuer: 'https://evil.example/realms/x' } }, keys, { username: 'eve' });
    for (const token of [otherAudience, otherIssuer]) {
      const res = await app.inject({ method: 'GET', url: '/v1/user', headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(401);
    }
  });

  it('refuses a token signed with the right key but without an expiry, or whose subject is not text, and makes no user', async () => {
    const { app, keys, config, database } = t.current;
    const { importJWK, SignJWT } = await import('jose');
    const jwk = keys.jwks.keys[0]!;
    const key = await importJWK(jwk, 'RS256');
    const sign = (claims: Record<string, unknown>, expires = true) => {
      const jwt = new SignJWT({ preferred_username: 'eve', realm_access: { roles: ['staff'] }, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: jwk.kid!, typ: 'at+jwt' })
        .setIssuer(config.oidc.issuer)
        .setAudience(config.oidc.audience)
        .setIssuedAt();
      return (expires ? jwt.setExpirationTime('1h') : jwt).sign(key);
    };
    const good = await sign({ sub: 'eve-subject' });
    expect((await app.inject({ url: '/v1/user', headers: { authorization: `Bearer ${good}` } })).statusCode).toBe(200);
    const { users } = await import('../../src/server/db/schema/index.ts');
    const before = (await database.db.select().from(users)).length;

    for (const token of [
      await sign({ sub: 'eve-forever' }, false),
      await sign({ sub: 42 }),
      await sign({ sub: { id: 'eve' } }),
      await sign({ sub: ['eve'] }),
      await sign({ sub: '' }),
      await sign({}),
    ]) {
      for (const url of ['/v1/user', '/v1/staff/users']) {
        const res = await app.inject({ url, headers: { authorization: `Bearer ${token}` } });
        expect(res.statusCode, url).toBe(401);
        expect(res.headers['content-type']).toContain('application/problem+json');
      }
    }
    expect((await database.db.select().from(users)).length).toBe(before);
  });

  it('makes the user from the token on the first call, then finds the same row', async () => {
    const first = await t.current.as('alice', { method: 'GET', url: '/v1/user', roles: [] });
    expect(first.statusCode).toBe(200);
    const me = first.json();
    expect(me).toMatchObject({ name: 'alice', email: null, mcUuid: null, balance: 0, roles: [] });
    expect(me.id).toMatch(/^[0-9a-f-]{36}$/);
    const again = await t.current.as('alice', { method: 'GET', url: '/v1/user', roles: ['staff'] });
    expect(again.json()).toMatchObject({ id: me.id, roles: ['staff'] });
    const bob = await t.current.as('bob', { method: 'GET', url: '/v1/user' });
    expect(bob.json().id).not.toBe(me.id);
  });
});

describe('platform', () => {
  const t = useTestApp();

  it('is alive and ready', async () => {
    expect((await t.current.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.current.app.inject({ url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });

  it('says the database is unreachable on /readyz once it is gone', async () => {
    await t.current.database.close();
    const res = await t.current.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('request.databaseUnreachable');
  });

  it('sends security headers', async () => {
    const res = await t.current.app.inject({ url: '/healthz' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('answers unknown API paths with a problem+json 404', async () => {
    const res = await t.current.app.inject({ url: '/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });

  it('publishes OpenAPI 3.1 with every body schema under its historical name', async () => {
    const doc = (await t.current.app.inject({ url: '/v1/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    const names = Object.keys(doc.components.schemas);
    for (const name of [
      'blockListAdd',
      'friendGroupCreateRequest',
      'friendGroupUpdate',
      'friendGroupMemberUpdate',
      'friendGroupMemberPseudoAdd',
      'friendGroupMemberImport',
      'friendAdd',
      'friendMinecraftAdd',
      'friendRequestUpdate',
      'gameCreate',
      'gameDefCreate',
      'gamePackageCreate',
      'playerRequest',
      'playerPatchRequest',
      'playerGroupIdPatchRequest',
      'gamePaymentRequestUpdate',
      'gameReviewCreate',
      'pricingRequest',
      'promoCodeCreateRequest',
      'stripePaymentCreate',
      'stripeSubscriptionRequest',
      'subscriptionCreateRequest',
      'userCreditAddRequest',
      'userMcUUIDRequest',
    ])
      expect(names).toContain(name);
    expect(doc.paths['/v1/user/credit'].post.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/userCreditAddRequest');
    const ui = await t.current.app.inject({ url: '/docs/' });
    expect(ui.statusCode).toBe(200);
  });

  it('serves the runtime settings of the web app', async () => {
    const cfg = (await t.current.app.inject({ url: '/app-config.json' })).json();
    expect(cfg.auth.providers).toEqual([{ id: 'embedded', issuer: t.current.config.oidc.issuer, clientId: 'web' }]);
    expect(cfg.stripe).toEqual({ mode: 'sandbox', publishableKey: null });
    expect(Object.keys(cfg.social).sort()).toEqual(['discord', 'instagram', 'twitter', 'youtube']);
    // No MUMBLE_HOST: no voice server, so the web app offers no voice chat.
    expect(cfg.mumble).toBeNull();
    const build = (await t.current.app.inject({ url: '/builds/latest.json' })).json();
    expect(build.version).toBe(cfg.version);
  });
});
