import { useEffect, useMemo } from 'react';
import { AuthProvider, useAuth } from 'react-oidc-context';
import { UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import type { AppConfig } from './config.ts';
import { setAccessTokenSource } from './api.ts';
import { SESSION_REFRESH_MS } from './constants.ts';
import { logoutThenSignOut, type Session, type SessionStatus } from './session.ts';
import { profileName } from './storedSession.ts';

interface SignInState {
  returnTo?: string;
}

let manager: UserManager | undefined;

/**
 * Sign-in with the configured issuer (the embedded provider, or Keycloak in production):
 * authorization code + PKCE, the session kept in local storage so a reload keeps it.
 */
function userManager(config: AppConfig): UserManager {
  const provider = config.auth.providers[0]!;
  manager ??= new UserManager({
    authority: provider.issuer,
    client_id: provider.clientId,
    redirect_uri: `${location.origin}/auth/callback`,
    post_logout_redirect_uri: `${location.origin}/`,
    scope: 'openid profile email',
    response_type: 'code',
    userStore: new WebStorageStateStore({ store: window.localStorage }),
    // We refresh on our own schedule (docs/product.md, Sessions: every 60 s and when the window shows again).
    automaticSilentRenew: false,
    loadUserInfo: false,
  });
  return manager;
}

/** Starts sign-in at the provider, coming back to `returnTo`. */
export function signInRedirect(config: AppConfig, returnTo = '/dashboard'): Promise<void> {
  return userManager(config).signinRedirect({ state: { returnTo } satisfies SignInState });
}

/** Ends the session at the provider, which comes back to the home page. */
export function signOutRedirect(config: AppConfig): Promise<void> {
  return userManager(config).signoutRedirect();
}

const here = () => `${location.pathname}${location.search}`;

/**
 * The OpenID Connect session, reported up to AuthRoot whenever it changes. `refreshAtStart`: the
 * page ran on the stored session until a refresh came due, so the first one is now.
 */
export default function OidcSession({
  config,
  onSignedIn,
  onSession,
  refreshAtStart = false,
}: {
  config: AppConfig;
  onSignedIn: (returnTo: string) => void;
  onSession: (s: Session) => void;
  refreshAtStart?: boolean;
}) {
  const onSigninCallback = (user: User | undefined) => {
    onSignedIn((user?.state as SignInState | undefined)?.returnTo ?? '/dashboard');
  };
  return (
    <AuthProvider userManager={userManager(config)} onSigninCallback={onSigninCallback}>
      <SessionKeeper refreshAtStart={refreshAtStart} />
      <SessionReporter onSession={onSession} />
    </AuthProvider>
  );
}

function SessionReporter({ onSession }: { onSession: (s: Session) => void }) {
  const auth = useAuth();
  // A refresh also counts as loading for react-oidc-context: the user stays signed in meanwhile.
  const status: SessionStatus = auth.isAuthenticated ? 'authenticated' : auth.isLoading ? 'loading' : 'unauthenticated';
  const { user, error, signinRedirect, signoutRedirect } = auth;
  const session = useMemo<Session>(() => {
    const profile = user?.profile;
    return {
      status,
      user: profile ? { name: profileName(profile) } : null,
      accessToken: user?.access_token,
      error: error ?? undefined,
      signIn: (returnTo = '/dashboard') => signinRedirect({ state: { returnTo } satisfies SignInState }),
      logout: (goHome) => logoutThenSignOut(goHome, () => signoutRedirect()),
    };
  }, [status, user, error, signinRedirect, signoutRedirect]);
  useEffect(() => onSession(session), [session, onSession]);
  return null;
}

/** Refreshes the session every 60 s and when the window becomes visible; a failed refresh signs in again. */
function SessionKeeper({ refreshAtStart }: { refreshAtStart: boolean }) {
  const auth = useAuth();
  setAccessTokenSource(() => (auth.user && !auth.user.expired ? auth.user.access_token : undefined));
  const hasSession = Boolean(auth.user);

  useEffect(() => {
    if (!hasSession) return;
    let refreshing = false;
    const refresh = async () => {
      if (refreshing) return;
      refreshing = true;
      try {
        // react-oidc-context answers null for a failed refresh (and records the error) rather than throwing.
        if (!(await auth.signinSilent())) throw new Error('session refresh failed');
      } catch {
        await auth.removeUser();
        await auth.signinRedirect({ state: { returnTo: here() } satisfies SignInState });
      } finally {
        refreshing = false;
      }
    };
    // A session that expired while the app was closed, or whose refresh is due, is refreshed at once.
    if (auth.user?.expired || refreshAtStart) void refresh();
    const timer = setInterval(() => void refresh(), SESSION_REFRESH_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refresh();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one schedule per session, not per render
  }, [hasSession]);
  return null;
}
