import { createHash } from 'node:crypto';

/**
 * What names an account, apart from the accounts' table: `npm run token` needs only this, and
 * loads neither the ORM nor the schema (seconds of a short run).
 */
export const USERNAME = /^[A-Za-z0-9_.-]{3,32}$/;

/**
 * A UUID (v5-style, SHA-1 of a fixed namespace and the lower-cased username) that is the token
 * subject: tools that only know a username, like `npm run token`, name the same user as sign-in.
 */
export function accountIdFor(username: string): string {
  const hash = createHash('sha1').update('blockhost-identity:').update(username.toLowerCase()).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
