import { createContext, useContext } from 'react';
import { LOGOUT_DELAY_MS } from './constants.ts';

export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated';

/** The session as the pages see it (docs/product.md, Sessions): status, user name, token, sign-in and logout. */
export interface Session {
  status: SessionStatus;
  user: { name: string } | null;
  accessToken: string | undefined;
  /** Why the last sign-in failed, if it did. */
  error: Error | undefined;
  signIn: (returnTo?: string) => Promise<void>;
  /** docs/product.md, Sessions: go home, then sign out 250 ms later; a failure is only logged. */
  logout: (goHome: () => void) => void;
}

/** The window event sent when the provider's sign-out starts: a trace, or a test, sees it was not early. */
const LOGOUT_EVENT = 'blockhost:logout-redirect';

/** The logout of docs/product.md (Sessions), for either sign-in client: home at once, the provider's sign-out LOGOUT_DELAY_MS later. */
export function logoutThenSignOut(goHome: () => void, signOut: () => Promise<unknown>): void {
  goHome();
  setTimeout(() => {
    dispatchEvent(new Event(LOGOUT_EVENT));
    signOut().catch((err: unknown) => console.error('logout failed', err));
  }, LOGOUT_DELAY_MS);
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside AuthRoot');
  return session;
}
