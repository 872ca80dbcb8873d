import { Refine } from '@refinedev/core';
import { Route, Routes } from 'react-router';
import { dataProvider } from '../app/dataProvider.ts';
import { resources } from '../app/resources.ts';
import { useSession } from '../app/auth.tsx';
import { PageLoader } from '../ui/PageLoader.tsx';
import { DashboardLayout } from './DashboardLayout.tsx';
import { DashboardHome } from './DashboardHome.tsx';
import { AccountPage } from './account/AccountPage.tsx';
import { CreateGamePage } from './games/CreateGamePage.tsx';
import { GamePage } from './games/GamePage.tsx';
import { ProductPage } from '../site/store/ProductPage.tsx';
import { ProfilePage } from './profile/ProfilePage.tsx';
import { RankedPage } from './RankedPage.tsx';
import { SocialPage } from './social/SocialPage.tsx';
import { StorePage } from '../site/store/StorePage.tsx';
import { NotFound } from '../shell/NotFound.tsx';

/**
 * /dashboard/* (SPEC.md §2), in the dashboard layout; the route guards start sign-in when signed out.
 * Refine (its data provider over /v1 and the resources it lists) lives in this lazy chunk only, so
 * the public pages never download it.
 */
export default function DashboardRoutes() {
  const session = useSession();
  if (session.status !== 'authenticated') return <PageLoader />;
  return (
    <Refine dataProvider={dataProvider} resources={[...resources]} options={{ disableTelemetry: true, syncWithLocation: false, warnWhenUnsavedChanges: false }}>
      <Routes>
        <Route element={<DashboardLayout />}>
          <Route index element={<DashboardHome />} />
          <Route path="account" element={<AccountPage />} />
          <Route path="creategame/:id" element={<CreateGamePage />} />
          <Route path="game/:id" element={<GamePage />} />
          <Route path="products/:id" element={<ProductPage inDashboard />} />
          <Route path="profil" element={<ProfilePage />} />
          <Route path="ranked/*" element={<RankedPage />} />
          <Route path="social" element={<SocialPage />} />
          <Route path="store" element={<StorePage inDashboard />} />
          <Route path="*" element={<NotFound />} />
        </Route>
      </Routes>
    </Refine>
  );
}
