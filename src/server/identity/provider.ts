import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { AccountsService } from './accounts.ts';
import { databaseAdapter } from './adapter.ts';
import type { IdentityKeys } from './keys.ts';
import { pickLang, renderLogout, renderMessage, strings } from './pages.ts';

const ACCESS_TOKEN_TTL = 300;
const DAY = 24 * 3600;

/** The resource indicator of our API; tokens for it carry the configured audience. */
const apiResource = (config: Config) => `${config.publicUrl}/v1`;

function langOf(ctx: KoaContextWithOIDC) {
  return pickLang(ctx.get('cookie'), ctx.get('accept-language'));
}

/**
 * The embedded OpenID Connect provider: authorization code + PKCE for the public web client,
 * rotating refresh tokens, RP-initiated logout, and JWT access tokens for the API carrying
 * Keycloak's `realm_access.roles`, so the API reads both issuers the same way.
 */
export function createProvider(config: Config, db: Db, keys: IdentityKeys, accounts: AccountsService): Provider {
  const resource = apiResource(config);
  const configuration: Configuration = {
    adapter: databaseAdapter(db),
    clients: [
      {
        client_id: config.oidc.clientId,
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [`${config.publicUrl}/auth/callback`],
        post_logout_redirect_uris: [`${config.publicUrl}/`],
      },
    ],
    jwks: keys.jwks as Configuration['jwks'],
    cookies: { keys: keys.cookieKeys, long: { signed: true, sameSite: 'lax' }, short: { signed: true, sameSite: 'lax' } },
    pkce: { required: () => true },
    // Authorization code only: the provider's default also offers implicit and hybrid responses
    // (tokens in the URL), which our web client never uses.
    responseTypes: ['code'],
    scopes: ['openid', 'profile', 'email', 'offline_access', 'api'],
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email', 'email_verified'] },
    async findAccount(_ctx, sub) {
      const account = await accounts.find(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, name: account.username, preferred_username: account.username, email: account.email, email_verified: true }),
      };
    },
    async extraTokenClaims(_ctx, token) {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const account = await accounts.find(token.accountId);
      if (!account) return undefined;
      return { preferred_username: account.username, name: account.username, email: account.email, realm_access: { roles: account.roles } };
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          return { scope: 'openid profile email api', audience: config.oidc.audience, accessTokenFormat: 'jwt', accessTokenTTL: ACCESS_TOKEN_TTL, jwt: { sign: { alg: 'RS256' } } };
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.type = 'html';
          ctx.body = renderLogout(langOf(ctx), form);
        },
        postLogoutSuccessSource: async (ctx) => {
          const lang = langOf(ctx);
          ctx.type = 'html';
          ctx.body = renderMessage(lang, strings[lang].signOut, strings[lang].signedOut, { href: '/', label: strings[lang].backHome });
        },
      },
    },
    // Our own web app is first-party: its grant is made without a consent screen.
    async loadExistingGrant(ctx) {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid profile email offline_access');
      grant.addOIDCClaims(['sub', 'name', 'preferred_username', 'email', 'email_verified']);
      grant.addResourceScope(resource, 'openid profile email api');
      await grant.save();
      session.grantIdFor(client.clientId, grant.jti);
      return grant;
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      Grant: 30 * DAY,
      Session: 30 * DAY,
      RefreshToken: 30 * DAY,
    },
    interactions: { url: (_ctx, interaction) => `/oidc/interaction/${interaction.uid}` },
    async renderError(ctx, out, error) {
      const lang = langOf(ctx);
      const t = strings[lang];
      ctx.type = 'html';
      ctx.body = renderMessage(lang, t.errorTitle, String(out.error_description ?? out.error ?? error.message), { href: '/dashboard', label: t.errorRetry });
    },
  };
  const provider = new Provider(config.oidc.issuer, configuration);
  provider.proxy = config.trustProxy;
  return provider;
}
