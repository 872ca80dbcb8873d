import { lazy, Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import type { AppConfig } from './config.ts';
import { setAccessTokenSource } from './api.ts';
import { SESSION_REFRESH_MS } from './constants.ts';
import { logoutThenSignOut, SessionContext, type Session } from './session.ts';
import { msLeft, readStoredSession, type StoredSession } from './storedSession.ts';

export { useSession } from './session.ts';

// The OpenID Connect client is its own chunk, loaded only when a session needs it: a sign-in coming
// back, a stored session that expired or is due for its refresh, signing in or out.
const loadClient = () => import('./oidc.tsx');
const OidcSession = lazy(loadClient);

function signedOut(config: AppConfig): Session {
  return {
    status: 'unauthenticated',
    user: null,
    accessToken: undefined,
    error: undefined,
    signIn: async (returnTo) => (await loadClient()).signInRedirect(config, returnTo),
    logout: (goHome) => goHome(),
  };
}

/** A returning player, signed in from the stored session until the client takes over. */
function storedSession(config: AppConfig, stored: StoredSession): Session {
  return {
    status: 'authenticated',
    user: { name: stored.name },
    accessToken: stored.accessToken,
    error: undefined,
    signIn: async (returnTo) => (await loadClient()).signInRedirect(config, returnTo),
    logout: (goHome) => {
      // Fetched now, so the provider's sign-out can start when the delay is over.
      const client = loadClient();
      logoutThenSignOut(goHome, () => client.then((c) => c.signOutRedirect(config)));
    },
  };
}

type Start = { client: 'now'; session: Session } | { client: 'later'; stored: StoredSession; session: Session } | { client: 'none'; session: Session };

function start(config: AppConfig): Start {
  if (location.pathname === '/auth/callback') return { client: 'now', session: { ...signedOut(config), status: 'loading' } };
  let stored: StoredSession | null = null;
  try {
    stored = readStoredSession(localStorage, config.auth.providers[0]!);
  } catch {
    // Storage refused (privacy settings): nobody can be signed in.
  }
  if (!stored) return { client: 'none', session: signedOut(config) };
  // An expired session is refreshed by the client at once; until then the page waits.
  if (msLeft(stored, Date.now()) <= 0) return { client: 'now', session: { ...signedOut(config), status: 'loading' } };
  // Set before any page asks the API for anything; the client sets its own source once loaded.
  const token = stored;
  setAccessTokenSource(() => (msLeft(token, Date.now()) > 0 ? token.accessToken : undefined));
  return { client: 'later', stored, session: storedSession(config, stored) };
}

/**
 * Provides the session. The OIDC client loads at start only for a sign-in coming back or an
 * expired session; a valid stored session shows the player signed in at once and loads the client
 * when its first refresh is due (SESSION_REFRESH_MS, the window showing again, the token expiring).
 */
export function AuthRoot({ config, onSignedIn, children }: { config: AppConfig; onSignedIn: (returnTo: string) => void; children: ReactNode }) {
  const [first] = useState(() => start(config));
  const [client, setClient] = useState<'off' | 'on' | 'refreshing'>(first.client === 'now' ? 'on' : 'off');
  const [session, setSession] = useState<Session>(first.session);
  const stored = first.client === 'later' ? first.stored : null;

  useEffect(() => {
    if (!stored || client !== 'off') return;
    const due = () => setClient('refreshing');
    const timer = setTimeout(due, Math.min(SESSION_REFRESH_MS, msLeft(stored, Date.now())));
    const onVisible = () => {
      if (document.visibilityState === 'visible') due();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [stored, client]);

  // While the client reads the stored session it reports loading: the player stays signed in meanwhile.
  const onSession = useCallback((next: Session) => setSession((prev) => (next.status === 'loading' && prev.status === 'authenticated' ? prev : next)), []);
  return (
    <>
      {client !== 'off' && (
        <Suspense>
          <OidcSession config={config} onSignedIn={onSignedIn} onSession={onSession} refreshAtStart={client === 'refreshing'} />
        </Suspense>
      )}
      <SessionContext.Provider value={session}>{children}</SessionContext.Provider>
    </>
  );
}
