import { lazy, Suspense, useMemo } from 'react';
import { Refine } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { Route, Routes } from 'react-router';
import { ApiError } from '../app/api.ts';
import { dataProvider } from '../app/dataProvider.ts';
import { liveProvider } from '../app/liveProvider.ts';
import { useNotifications } from '../app/notifications.tsx';
import { resources } from '../app/resources.ts';
import { useSession } from '../app/auth.tsx';
import { accessControlProvider, seesBackOffice, useRoles } from '../app/access.ts';
import { i18nProvider } from '../app/i18nProvider.ts';
import { notificationProvider } from '../app/notificationProvider.ts';
import { routerProvider } from '../app/routerProvider.tsx';
import { ErrorPage } from '../shell/ErrorPage.tsx';
import { PageLoader } from '../ui/PageLoader.tsx';
import { DashboardLayout } from './DashboardLayout.tsx';
import { DashboardHome } from './DashboardHome.tsx';
import { NotFound } from '../shell/NotFound.tsx';

// Each page but the dashboard's home is its own chunk, fetched when it opens: /dashboard does not
// download a game's tabs, the data grid, the forms or the store.
const SecurityPage = lazy(() => import('./account/SecurityPage.tsx').then((m) => ({ default: m.SecurityPage })));
const AccountPage = lazy(() => import('../money/account/AccountPage.tsx').then((m) => ({ default: m.AccountPage })));
const NotificationList = lazy(() => import('./notifications/list.tsx').then((m) => ({ default: m.NotificationList })));
const GameCreate = lazy(() => import('./games/create.tsx').then((m) => ({ default: m.GameCreate })));
const GameShow = lazy(() => import('./games/show.tsx').then((m) => ({ default: m.GameShow })));
const ProfilePage = lazy(() => import('./profile/ProfilePage.tsx').then((m) => ({ default: m.ProfilePage })));
const TournamentPage = lazy(() => import('../site/ranked/TournamentPage.tsx').then((m) => ({ default: m.TournamentPage })));
const RankedLadderPage = lazy(() => import('./ranked/RankedLadderPage.tsx').then((m) => ({ default: m.RankedLadderPage })));
const SocialPage = lazy(() => import('./social/SocialPage.tsx').then((m) => ({ default: m.SocialPage })));
const ProductShow = lazy(() => import('./store/show.tsx').then((m) => ({ default: m.ProductShow })));
const StoreList = lazy(() => import('./store/list.tsx').then((m) => ({ default: m.StoreList })));

// The back office (its pages and @refinedev/mui's views) is its own chunk: players never download it.
const StaffRoutes = lazy(() => import('../staff/StaffRoutes.tsx'));

/** /dashboard/staff/*: the back office for staff and support, a 403 page for anyone else. */
function StaffGate() {
  const { t } = useTranslation();
  if (!seesBackOffice(useRoles())) return <ErrorPage status={403} message={t('errors.forbidden')} />;
  return (
    <Suspense fallback={<PageLoader />}>
      <StaffRoutes />
    </Suspense>
  );
}

/**
 * A read the server refused (4xx: not found, not yours, bad input) answers the same the next time:
 * the page says so at once. A network failure or a 5xx is tried again, up to three times.
 */
function retryUnlessRefused(failures: number, error: unknown): boolean {
  const status = error instanceof ApiError ? error.status : 0;
  return !(status >= 400 && status < 500) && failures < 3;
}

/**
 * /dashboard/* (docs/product.md, Routes), in the dashboard layout; the route guards start sign-in when signed out.
 * Refine (its data provider over /v1, the resources it lists, the router, translations, access
 * control from the token's roles) lives in this lazy chunk only, so the public pages never download it.
 */
export default function DashboardRoutes() {
  const session = useSession();
  const roles = useRoles();
  const accessControl = useMemo(() => accessControlProvider(roles), [roles]);
  // Fed by the stream the bell already holds open: no second connection.
  const { changes } = useNotifications();
  const live = useMemo(() => liveProvider(changes), [changes]);
  if (session.status !== 'authenticated') return <PageLoader />;
  return (
    <Refine
      dataProvider={dataProvider}
      routerProvider={routerProvider}
      i18nProvider={i18nProvider}
      accessControlProvider={accessControl}
      notificationProvider={notificationProvider}
      liveProvider={live}
      resources={[...resources]}
      // Lists and records refetch when the server says their resource changed (src/contract/live.ts).
      options={{
        disableTelemetry: true,
        // Said once for every list: a list page's grid keeps its page, sorting and filters in the
        // address, so that a link or a reload opens it as it was. The grids that are one of several
        // on a page (a user's ledger, a game's tabs) say `syncWithLocation: false`.
        syncWithLocation: true,
        warnWhenUnsavedChanges: false,
        liveMode: 'auto',
        reactQuery: { clientConfig: { defaultOptions: { queries: { retry: retryUnlessRefused } } } },
      }}
    >
      <Routes>
        <Route element={<DashboardLayout />}>
          <Route index element={<DashboardHome />} />
          <Route path="account" element={<AccountPage />} />
          <Route path="account/security" element={<SecurityPage />} />
          <Route path="notifications" element={<NotificationList />} />
          <Route path="creategame/:id" element={<GameCreate />} />
          <Route path="game/:id/*" element={<GameShow />} />
          <Route path="products/:id" element={<ProductShow />} />
          <Route path="profil" element={<ProfilePage />} />
          <Route path="ranked" element={<RankedLadderPage />} />
          <Route path="ranked/:slug" element={<TournamentPage />} />
          <Route path="social" element={<SocialPage />} />
          <Route path="store" element={<StoreList />} />
          <Route path="staff/*" element={<StaffGate />} />
          <Route path="*" element={<NotFound />} />
        </Route>
      </Routes>
    </Refine>
  );
}
