import type { FastifyReply, FastifyRequest } from 'fastify';
import { createLocalJWKSet, jwtVerify } from 'jose';
import type { Config } from '../config.ts';
import type { AccountsService } from './accounts.ts';
import { publicJwks, type IdentityKeys } from './keys.ts';

type OAuthError = 'invalid_request' | 'invalid_token' | 'insufficient_scope';

/** RFC 6750's answer: the error in WWW-Authenticate and in the JSON body, as oidc-provider writes it. */
function refuse(reply: FastifyReply, status: number, error: OAuthError, description: string) {
  return reply
    .status(status)
    .header('www-authenticate', `Bearer realm="userinfo", error="${error}", error_description="${description}"`)
    .header('cache-control', 'no-store')
    .send({ error, error_description: description });
}

/** The bearer token of a userinfo request: the Authorization header, or a POSTed form's `access_token` (RFC 6750). */
function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header) return /^Bearer ([\w.~+/-]+=*)$/i.exec(header)?.[1];
  const body = request.body as Record<string, string | undefined> | undefined;
  return typeof body?.access_token === 'string' ? body.access_token : undefined;
}

/**
 * The userinfo endpoint of the embedded provider (docs/decisions.md, Userinfo takes the API tokens).
 * Its access tokens are JWTs for the API (they carry its audience), and oidc-provider's own userinfo refuses every token with an
 * audience, so a standard OpenID client could not read the user's claims. Keycloak accepts its
 * access tokens there; this answers them the same way: the token is checked like the API checks it
 * (our keys, our issuer, the API's audience), must hold the `openid` scope, and the claims follow
 * its scopes (`profile`: name and username, `email`: email).
 */
export function userinfoHandler(config: Config, keys: IdentityKeys, accounts: AccountsService) {
  const jwks = createLocalJWKSet(publicJwks(keys));
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerOf(request);
    if (!token) return refuse(reply, 401, 'invalid_request', 'no access token provided');
    let sub: string | undefined;
    let scopes: Set<string>;
    try {
      const { payload } = await jwtVerify(token, jwks, { issuer: config.oidc.issuer, audience: config.oidc.audience, algorithms: ['RS256'] });
      sub = payload.sub;
      scopes = new Set(typeof payload.scope === 'string' ? payload.scope.split(' ') : []);
    } catch {
      return refuse(reply, 401, 'invalid_token', 'invalid token provided');
    }
    if (!scopes.has('openid')) return refuse(reply, 403, 'insufficient_scope', 'access token missing openid scope');
    const account = sub ? await accounts.find(sub) : undefined;
    if (!account) return refuse(reply, 401, 'invalid_token', 'associated account not found');
    return reply.header('cache-control', 'no-store').send({
      sub: account.id,
      ...(scopes.has('profile') ? { name: account.username, preferred_username: account.username } : {}),
      ...(scopes.has('email') ? { email: account.email, email_verified: true } : {}),
    });
  };
}
