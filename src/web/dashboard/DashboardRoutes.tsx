import { useEffect } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { useSession } from '../app/auth.tsx';
import { PageLoader } from '../ui/PageLoader.tsx';
import { DashboardLayout } from './DashboardLayout.tsx';
import { DashboardHome } from './DashboardHome.tsx';

/** /dashboard/*: signed out, sign-in starts and comes back to the page asked for. */
export default function DashboardRoutes() {
  const session = useSession();
  const location = useLocation();
  const signedOut = session.status === 'unauthenticated';
  useEffect(() => {
    if (signedOut) void session.signIn(`${location.pathname}${location.search}`);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- start sign-in once per signed-out visit
  }, [signedOut]);
  if (session.status !== 'authenticated') return <PageLoader />;
  return (
    <Routes>
      <Route element={<DashboardLayout />}>
        <Route index element={<DashboardHome />} />
      </Route>
    </Routes>
  );
}
