import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

/** The embedded provider's signing keys and cookie secrets, kept in one file so restarts and replicas agree. */
export interface IdentityKeys {
  /** Private signing keys (JWK with `kid`, `alg`, `use`). */
  jwks: { keys: JWK[] };
  cookieKeys: string[];
}

export function publicJwks(keys: IdentityKeys): { keys: JWK[] } {
  return {
    keys: keys.jwks.keys.map(({ kty, n, e, crv, x, y, kid, alg, use }) => Object.fromEntries(Object.entries({ kty, n, e, crv, x, y, kid, alg, use }).filter(([, v]) => v !== undefined))),
  };
}

/** Reads the key file, or makes it on first start (readable by this user only). */
export async function loadOrCreateKeys(file: string): Promise<IdentityKeys> {
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as IdentityKeys;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' };
  const keys: IdentityKeys = { jwks: { keys: [jwk] }, cookieKeys: [randomBytes(32).toString('base64url')] };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Another replica may have written it meanwhile: 'wx' fails then, and we read theirs.
  try {
    fs.writeFileSync(file, JSON.stringify(keys, null, 2), { mode: 0o600, flag: 'wx' });
    return keys;
  } catch {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as IdentityKeys;
  }
}
