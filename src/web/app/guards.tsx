import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { splitLocale } from '../../contract/routes.ts';
import { useSession } from './auth.tsx';

const under = (path: string, root: string) => path === root || path.startsWith(`${root}/`);

/**
 * The guards of docs/product.md (Routes, Guards). Signed out: /dashboard/store shows the public catalogue, any other
 * /dashboard path starts sign-in and comes back. Signed in: /store and /ranked move under /dashboard.
 */
export function RouteGuards() {
  const { status, signIn } = useSession();
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (status === 'loading') return;
    const { locale, path } = splitLocale(pathname);
    const prefix = locale ? `/${locale}` : '';
    if (status === 'unauthenticated' && under(path, '/dashboard/store')) {
      navigate(`${prefix}${path.slice('/dashboard'.length)}${search}${hash}`, { replace: true });
    } else if (status === 'unauthenticated' && under(path, '/dashboard')) {
      void signIn(`${pathname}${search}`);
    } else if (status === 'authenticated' && (under(path, '/store') || under(path, '/ranked'))) {
      navigate(`${prefix}/dashboard${path}${search}${hash}`, { replace: true });
    }
  }, [status, pathname, search, hash, navigate, signIn]);
  return null;
}
