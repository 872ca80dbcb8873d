import { lazy, Suspense, useState, type ReactNode } from 'react';
import type { AppConfig } from './config.ts';
import { SessionContext, type Session } from './session.ts';

export { useSession } from './session.ts';

// The OpenID Connect client is its own chunk: a visitor who never signed in does not download it.
const OidcSession = lazy(() => import('./oidc.tsx'));

/** A stored session (oidc-client-ts keeps it under oidc.user:…) or a sign-in coming back needs the client now. */
function needsClientAtStart(): boolean {
  if (location.pathname === '/auth/callback') return true;
  try {
    return Object.keys(localStorage).some((k) => k.startsWith('oidc.user:'));
  } catch {
    return false;
  }
}

function signedOut(config: AppConfig): Session {
  return {
    status: 'unauthenticated',
    user: null,
    accessToken: undefined,
    error: undefined,
    signIn: async (returnTo) => (await import('./oidc.tsx')).signInRedirect(config, returnTo),
    logout: (goHome) => goHome(),
  };
}

/** Provides the session; the OIDC client loads at start only when a session may exist. */
export function AuthRoot({ config, onSignedIn, children }: { config: AppConfig; onSignedIn: (returnTo: string) => void; children: ReactNode }) {
  const [withClient] = useState(needsClientAtStart);
  const [session, setSession] = useState<Session>(() => (withClient ? { ...signedOut(config), status: 'loading' } : signedOut(config)));
  return (
    <>
      {withClient && (
        <Suspense>
          <OidcSession config={config} onSignedIn={onSignedIn} onSession={setSession} />
        </Suspense>
      )}
      <SessionContext.Provider value={session}>{children}</SessionContext.Provider>
    </>
  );
}
