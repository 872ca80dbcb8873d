import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOrCreateKeys } from '../../src/server/identity/keys.ts';
import { signAccessToken } from '../../src/server/identity/tokens.ts';
import { startListeningApp, startTestApp } from '../fixtures/app.ts';
import { OidcClient } from '../fixtures/oidc-client.ts';

/**
 * OIDC_ISSUER pointing elsewhere (Keycloak in production): the API finds the issuer's keys through
 * its discovery document and JWKS over HTTP. Here another instance's provider plays the issuer.
 */
describe('an external issuer', () => {
  it('is trusted through discovery and JWKS, with realm roles, and the embedded provider is off', async () => {
    const issuer = await startListeningApp();
    const api = await startTestApp({ OIDC_ISSUER: `${issuer.origin}/oidc`, PUBLIC_URL: 'http://app.example.test' });
    try {
      const tokens = await new OidcClient(issuer.origin).signUp('remote_user', 'remote@example.com', 'from-afar-2026');
      const me = await api.app.inject({ url: '/v1/user', headers: { authorization: `Bearer ${tokens.body.access_token}` } });
      expect(me.statusCode).toBe(200);
      expect(me.json().name).toBe('remote_user');

      const staffToken = await issuer.token('admin', { roles: ['staff'] });
      const staffMe = await api.app.inject({ url: '/v1/user', headers: { authorization: `Bearer ${staffToken}` } });
      expect(staffMe.json().roles).toEqual(['staff']);

      // A token with the issuer's name but signed by another key is refused.
      const otherKeys = await loadOrCreateKeys(path.join(api.config.dataDir, 'other-keys.json'));
      const local = await signAccessToken(api.config, otherKeys, { username: 'mallory' });
      expect((await api.app.inject({ url: '/v1/user', headers: { authorization: `Bearer ${local}` } })).statusCode).toBe(401);

      expect((await api.app.inject({ url: '/oidc/.well-known/openid-configuration' })).statusCode).toBe(404);
      // Accounts live at the issuer: no password, email or two-factor calls here (the web app links to its console).
      expect((await api.app.inject({ url: '/v1/account/security', headers: { authorization: `Bearer ${tokens.body.access_token}` } })).statusCode).toBe(404);
      expect((await api.app.inject({ url: '/oidc/ui/forgot' })).statusCode).toBe(404);
      const cfg = (await api.app.inject({ url: '/app-config.json', headers: { host: 'app.example.test' } })).json();
      expect(cfg.auth.providers).toEqual([{ id: 'keycloak', issuer: `${issuer.origin}/oidc`, clientId: 'web' }]);
    } finally {
      await api.close();
      await issuer.close();
    }
  });
});
