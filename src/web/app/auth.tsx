import { useCallback, useEffect, useMemo, type ReactNode } from 'react';
import { AuthProvider, useAuth } from 'react-oidc-context';
import { UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import type { AppConfig } from './config.ts';
import { setAccessTokenSource } from './api.ts';
import { LOGOUT_DELAY_MS, SESSION_REFRESH_MS } from './constants.ts';

interface SignInState {
  returnTo?: string;
}

/**
 * Sign-in with the configured issuer (the embedded provider, or Keycloak in production):
 * authorization code + PKCE, the session kept in local storage so a reload keeps it.
 */
export function AuthRoot({ config, onSignedIn, children }: { config: AppConfig; onSignedIn: (returnTo: string) => void; children: ReactNode }) {
  const provider = config.auth.providers[0]!;
  const userManager = useMemo(
    () =>
      new UserManager({
        authority: provider.issuer,
        client_id: provider.clientId,
        redirect_uri: `${location.origin}/auth/callback`,
        post_logout_redirect_uri: `${location.origin}/`,
        scope: 'openid profile email',
        response_type: 'code',
        userStore: new WebStorageStateStore({ store: window.localStorage }),
        // We refresh on our own schedule (SPEC.md: every 60 s and when the window shows again).
        automaticSilentRenew: false,
        loadUserInfo: false,
      }),
    [provider.issuer, provider.clientId],
  );
  const onSigninCallback = (user: User | undefined) => {
    onSignedIn((user?.state as SignInState | undefined)?.returnTo ?? '/dashboard');
  };
  return (
    <AuthProvider userManager={userManager} onSigninCallback={onSigninCallback}>
      <SessionKeeper />
      {children}
    </AuthProvider>
  );
}

const here = () => `${location.pathname}${location.search}`;

/** Refreshes the session every 60 s and when the window becomes visible; a failed refresh signs in again. */
function SessionKeeper() {
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
        await auth.signinSilent();
      } catch {
        await auth.removeUser();
        await auth.signinRedirect({ state: { returnTo: here() } satisfies SignInState });
      } finally {
        refreshing = false;
      }
    };
    // A session that expired while the app was closed is refreshed at once.
    if (auth.user?.expired) void refresh();
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

export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated';

/** The session as the pages see it (SPEC.md §3): status, user name, sign-in and logout. */
export function useSession() {
  const auth = useAuth();
  const status: SessionStatus = auth.isLoading ? 'loading' : auth.isAuthenticated ? 'authenticated' : 'unauthenticated';
  const profile = auth.user?.profile;
  const signIn = useCallback((returnTo = '/dashboard') => auth.signinRedirect({ state: { returnTo } satisfies SignInState }), [auth]);
  /** SPEC.md: go home, then sign out 250 ms later; a failure is only logged. */
  const logout = useCallback(
    (goHome: () => void) => {
      goHome();
      setTimeout(() => {
        auth.signoutRedirect().catch((err: unknown) => console.error('logout failed', err));
      }, LOGOUT_DELAY_MS);
    },
    [auth],
  );
  return {
    status,
    user: profile ? { name: String(profile.preferred_username ?? profile.name ?? profile.sub) } : null,
    accessToken: auth.user?.access_token,
    signIn,
    logout,
  };
}
