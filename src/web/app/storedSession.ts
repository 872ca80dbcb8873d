/** What a page needs of a stored sign-in before the OpenID Connect client has loaded. */
export interface StoredSession {
  name: string;
  accessToken: string;
  /** Seconds since the epoch; undefined when the provider gave no lifetime. */
  expiresAt: number | undefined;
}

/** The user name a session shows, from the ID token's claims (the same rule with or without the client). */
export function profileName(profile: { preferred_username?: unknown; name?: unknown; sub?: unknown }): string {
  return String(profile.preferred_username ?? profile.name ?? profile.sub);
}

/**
 * The session oidc-client-ts keeps in local storage (its key: `oidc.user:{issuer}:{client id}`),
 * read without the client so a returning player's page need not download it to show them signed in.
 * Anything unreadable counts as no session: the client, once loaded, decides.
 */
export function readStoredSession(storage: Pick<Storage, 'getItem'>, provider: { issuer: string; clientId: string }): StoredSession | null {
  try {
    const raw = storage.getItem(`oidc.user:${provider.issuer}:${provider.clientId}`);
    if (!raw) return null;
    const user = JSON.parse(raw) as { access_token?: unknown; expires_at?: unknown; profile?: { preferred_username?: unknown; name?: unknown; sub?: unknown } };
    if (typeof user.access_token !== 'string' || !user.access_token || !user.profile) return null;
    return {
      name: profileName(user.profile),
      accessToken: user.access_token,
      expiresAt: typeof user.expires_at === 'number' ? user.expires_at : undefined,
    };
  } catch {
    return null;
  }
}

/** Milliseconds the stored access token is still good for (Infinity without a lifetime), as oidc-client-ts counts. */
export function msLeft(session: StoredSession, nowMs: number): number {
  return session.expiresAt === undefined ? Infinity : session.expiresAt * 1000 - nowMs;
}
