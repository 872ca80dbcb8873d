import { randomUUID } from 'node:crypto';
import { importJWK, SignJWT } from 'jose';
import type { Config } from '../config.ts';
import { accountIdFor } from './account-id.ts';
import type { IdentityKeys } from './keys.ts';

export interface TokenSubject {
  username: string;
  roles?: string[];
  email?: string;
  /** Lifetime in seconds (default one hour). */
  ttl?: number;
  /** When it says it was issued (default now): a test's token of a later sign-in. */
  issuedAt?: Date;
}

/**
 * An access token exactly like the embedded provider's (same key, issuer, audience, subject and
 * claims), made offline: for scripts against a local instance, tests and benchmarks.
 */
export async function signAccessToken(config: Config, keys: IdentityKeys, subject: TokenSubject): Promise<string> {
  const jwk = keys.jwks.keys[0];
  if (!jwk?.kid) throw new Error('the identity key file has no signing key');
  const key = await importJWK(jwk, 'RS256');
  return new SignJWT({
    preferred_username: subject.username,
    name: subject.username,
    ...(subject.email ? { email: subject.email } : {}),
    realm_access: { roles: subject.roles ?? [] },
    scope: 'openid profile email api',
    client_id: config.oidc.clientId,
  })
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid, typ: 'at+jwt' })
    .setIssuer(config.oidc.issuer)
    .setAudience(config.oidc.audience)
    .setSubject(accountIdFor(subject.username))
    .setJti(randomUUID())
    .setIssuedAt(subject.issuedAt ?? new Date())
    .setExpirationTime(new Date((subject.issuedAt ?? new Date()).getTime() + (subject.ttl ?? 3600) * 1000))
    .sign(key);
}
