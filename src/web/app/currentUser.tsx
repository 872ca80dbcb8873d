import { createContext, useContext, type ReactNode } from 'react';
import type { User } from '../../contract/user.ts';
import { useSession } from './auth.tsx';
import { useFetch, type FetchState } from './useFetch.ts';
import { useResourceChanges } from './notifications.tsx';

type CurrentUser = FetchState<User> & { reload: () => void };

const CurrentUserContext = createContext<CurrentUser>({ status: 'loading', reload: () => {} });

/** The signed-in user (name, balance, mcUuid), fetched once per session, again when the balance moves, and shared by every page. */
export const useCurrentUser = () => useContext(CurrentUserContext);

export function CurrentUserProvider({ children }: { children: ReactNode }) {
  const { status } = useSession();
  // A reload (after a purchase, say) keeps the last balance on screen until the new one arrives.
  const user = useFetch<User>(status === 'authenticated' ? '/v1/user' : null, { keep: true });
  // The stream says when the ledger, so the balance, changed (a purchase, a renewal, another tab).
  useResourceChanges('transactions', user.reload);
  return <CurrentUserContext.Provider value={user}>{children}</CurrentUserContext.Provider>;
}
