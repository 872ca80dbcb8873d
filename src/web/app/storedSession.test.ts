import { describe, expect, it } from 'vitest';
import { msLeft, readStoredSession } from './storedSession.ts';

const provider = { issuer: 'http://localhost:8080/oidc', clientId: 'web' };
const key = 'oidc.user:http://localhost:8080/oidc:web';
const storage = (items: Record<string, string>) => ({ getItem: (k: string) => items[k] ?? null });

describe('the stored session, read without the sign-in client', () => {
  it('reads the name, token and lifetime oidc-client-ts stored for this issuer and client', () => {
    const stored = JSON.stringify({ access_token: 'abc', expires_at: 2_000, profile: { sub: 'u1', preferred_username: 'alice', name: 'Alice A.' } });
    expect(readStoredSession(storage({ [key]: stored }), provider)).toEqual({ name: 'alice', accessToken: 'abc', expiresAt: 2_000 });
    // Without a username the name, then the subject.
    expect(readStoredSession(storage({ [key]: JSON.stringify({ access_token: 'abc', profile: { sub: 'u1' } }) }), provider)).toEqual({ name: 'u1', accessToken: 'abc', expiresAt: undefined });
  });

  it('finds no session for another issuer or client, or in what it cannot read', () => {
    const stored = JSON.stringify({ access_token: 'abc', profile: { sub: 'u1' } });
    expect(readStoredSession(storage({ 'oidc.user:https://other/realm:web': stored }), provider)).toBeNull();
    expect(readStoredSession(storage({ [key]: '{not json' }), provider)).toBeNull();
    expect(readStoredSession(storage({ [key]: JSON.stringify({ profile: { sub: 'u1' } }) }), provider)).toBeNull();
    expect(readStoredSession(storage({ [key]: JSON.stringify({ access_token: 'abc' }) }), provider)).toBeNull();
    expect(readStoredSession(storage({}), provider)).toBeNull();
  });

  it('counts the time left from expires_at, in seconds since the epoch', () => {
    expect(msLeft({ name: 'a', accessToken: 't', expiresAt: 2_000 }, 1_999_000)).toBe(1_000);
    expect(msLeft({ name: 'a', accessToken: 't', expiresAt: 2_000 }, 2_000_500)).toBeLessThan(0);
    expect(msLeft({ name: 'a', accessToken: 't', expiresAt: undefined }, 0)).toBe(Infinity);
  });
});
