import { useEffect } from 'react';
import { useAuth } from 'react-oidc-context';
import { useNavigate } from 'react-router';
import { PageLoader } from '../ui/PageLoader.tsx';
import { ErrorPage } from '../shell/ErrorPage.tsx';

/** Where the identity provider sends the browser back; the auth provider finishes sign-in and moves on. */
export function AuthCallbackPage() {
  const auth = useAuth();
  const navigate = useNavigate();
  const stray = !auth.isLoading && !auth.error && !new URLSearchParams(location.search).has('code');
  useEffect(() => {
    if (stray) navigate(auth.isAuthenticated ? '/dashboard' : '/', { replace: true });
  }, [stray, auth.isAuthenticated, navigate]);
  if (auth.error) return <ErrorPage status={401} message={auth.error.message} />;
  return <PageLoader />;
}
