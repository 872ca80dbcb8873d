import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useSession } from '../app/auth.tsx';
import { PageLoader } from '../ui/PageLoader.tsx';
import { ErrorPage } from '../shell/ErrorPage.tsx';

/** Where the identity provider sends the browser back; the session finishes sign-in and moves on. */
export function AuthCallbackPage() {
  const session = useSession();
  const navigate = useNavigate();
  // The router's address, not the window's: once sign-in has moved on, this page must not act on the new one.
  const { search } = useLocation();
  const stray = session.status !== 'loading' && !session.error && !new URLSearchParams(search).has('code');
  useEffect(() => {
    if (stray) navigate(session.status === 'authenticated' ? '/dashboard' : '/', { replace: true });
  }, [stray, session.status, navigate]);
  if (session.error) return <ErrorPage status={401} message={session.error.message} />;
  return <PageLoader />;
}
