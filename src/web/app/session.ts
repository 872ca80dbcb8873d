import { createContext, useContext } from 'react';

export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated';

/** The session as the pages see it (SPEC.md §3): status, user name, token, sign-in and logout. */
export interface Session {
  status: SessionStatus;
  user: { name: string } | null;
  accessToken: string | undefined;
  /** Why the last sign-in failed, if it did. */
  error: Error | undefined;
  signIn: (returnTo?: string) => Promise<void>;
  /** SPEC.md: go home, then sign out 250 ms later; a failure is only logged. */
  logout: (goHome: () => void) => void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside AuthRoot');
  return session;
}
