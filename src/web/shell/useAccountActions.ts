import { useNavigate } from 'react-router';
import { useSession } from '../app/auth.tsx';
import { useLocalePath } from '../app/locale.tsx';

export type AccountAction = { key: string; to: string } | { key: string; onClick: () => void };

/** The account menu of SPEC.md §2 (Dashboard, Mon Compte, Deconnexion), shared by the header and the drawer. */
export function useAccountActions(): AccountAction[] {
  const { logout } = useSession();
  const to = useLocalePath();
  const navigate = useNavigate();
  return [
    { key: 'nav.dashboard', to: to('/dashboard') },
    { key: 'nav.account', to: to('/dashboard/account') },
    { key: 'nav.logout', onClick: () => logout(() => navigate(to('/'))) },
  ];
}
