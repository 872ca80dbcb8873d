import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { User } from '../../contract/user.ts';
import { useSession } from './auth.tsx';
import { apiFetch, type ApiError } from './api.ts';
import { useResourceChanges } from './notifications.tsx';

type CurrentUser = ({ status: 'loading' } | { status: 'error'; error: ApiError | Error } | { status: 'done'; data: User }) & { reload: () => void };

const CurrentUserContext = createContext<CurrentUser>({ status: 'loading', reload: () => {} });

/** The signed-in user (name, balance, mcUuid), fetched once per session, again when the balance moves, and shared by every page. */
export const useCurrentUser = () => useContext(CurrentUserContext);

export function CurrentUserProvider({ children }: { children: ReactNode }) {
  const { status, user: account } = useSession();
  // Keyed by who is signed in, so another account never sees the last one's balance. A reload
  // (after a purchase, say) keeps the last balance on screen until the new one arrives.
  const query = useQuery({ queryKey: ['/v1/user', account?.name], queryFn: () => apiFetch<User>('/v1/user'), enabled: status === 'authenticated' });
  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
  // The stream says when the ledger, so the balance, changed (a purchase, a renewal, another tab).
  useResourceChanges('transactions', reload);
  const { data, error, isFetching } = query;
  const user = useMemo<CurrentUser>(
    () => (data !== undefined ? { status: 'done', data, reload } : error && !isFetching ? { status: 'error', error, reload } : { status: 'loading', reload }),
    [data, error, isFetching, reload],
  );
  return <CurrentUserContext.Provider value={user}>{children}</CurrentUserContext.Provider>;
}
