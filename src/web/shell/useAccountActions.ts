import { useNavigate } from 'react-router';
import { useSession } from '../app/auth.tsx';
import { seesBackOffice, useRoles } from '../app/access.ts';
import { useLocalePath } from '../app/locale.tsx';

export type AccountAction = { key: string; to: string } | { key: string; onClick: () => void };

/**
 * The account menu of docs/product.md (The shell) (Dashboard, Mon Compte, Deconnexion), shared by the header and the
 * drawer, with the friends and profile pages, which no other link leads to; staff and support also find the back
 * office there.
 */
export function useAccountActions(): AccountAction[] {
  const { logout } = useSession();
  const to = useLocalePath();
  const navigate = useNavigate();
  const roles = useRoles();
  return [
    { key: 'nav.dashboard', to: to('/dashboard') },
    { key: 'nav.account', to: to('/dashboard/account') },
    { key: 'nav.social', to: to('/dashboard/social') },
    { key: 'nav.profile', to: to('/dashboard/profil') },
    ...(seesBackOffice(roles) ? [{ key: 'nav.backOffice', to: to('/dashboard/staff') }] : []),
    { key: 'nav.logout', onClick: () => logout(() => navigate(to('/'))) },
  ];
}
