import { lazy, Suspense, type ReactNode } from 'react';
import { Outlet, useLocation, useRoutes, type RouteObject } from 'react-router';
import { localePrefixes } from '../../contract/routes.ts';
import { LocaleRoot } from './locale.tsx';
import { RouteGuards } from './guards.tsx';
import { SiteLayout } from '../shell/SiteLayout.tsx';
import { ErrorBoundary } from '../shell/ErrorBoundary.tsx';
import { PageLoader } from '../ui/PageLoader.tsx';
import { HomePage } from '../site/HomePage.tsx';
import { AuthCallbackPage } from '../site/AuthCallbackPage.tsx';
import { ContentPage } from '../content/ContentPage.tsx';

// Everything behind sign-in is its own chunk: the public site never downloads it.
const DashboardRoutes = lazy(() => import('../dashboard/DashboardRoutes.tsx'));
// Pages few visitors open load on demand.
const StyleGuidePage = lazy(() => import('../site/StyleGuidePage.tsx'));
const JwtPage = lazy(() => import('../site/JwtPage.tsx'));
const MumbleRedirectPage = lazy(() => import('../site/MumbleRedirectPage.tsx'));
// The catalogue pulls in its own components and strings: loaded when visited.
const StorePage = lazy(() => import('../site/store/StorePage.tsx').then((m) => ({ default: m.StorePage })));
const ProductPage = lazy(() => import('../site/store/ProductPage.tsx').then((m) => ({ default: m.ProductPage })));
// Buying credits, and coming back from Stripe: their own chunk, with their strings.
const CreditsPage = lazy(() => import('../money/credit-packs/CreditsPage.tsx').then((m) => ({ default: m.CreditsPage })));
// The competitions' page with the ladders' leaderboards.
const RankedSitePage = lazy(() => import('../site/ranked/RankedSitePage.tsx').then((m) => ({ default: m.RankedSitePage })));
// A tournament's page, with its live bracket.
const TournamentPage = lazy(() => import('../site/ranked/TournamentPage.tsx').then((m) => ({ default: m.TournamentPage })));
const StripeResultPage = lazy(() => import('../money/credit-packs/StripeResultPage.tsx').then((m) => ({ default: m.StripeResultPage })));

const suspended = (node: ReactNode) => <Suspense fallback={<PageLoader />}>{node}</Suspense>;

/** The public pages of docs/product.md (Routes) in the site layout; anything else goes to the content pages (or 404). */
const sitePages: RouteObject[] = [
  { index: true, element: <HomePage /> },
  { path: 'auth/callback', element: <AuthCallbackPage /> },
  { path: 'store', element: suspended(<StorePage />) },
  { path: 'products/:id', element: suspended(<ProductPage />) },
  { path: 'ranked', element: suspended(<RankedSitePage />) },
  { path: 'ranked/:slug', element: suspended(<TournamentPage />) },
  { path: 'credits', element: suspended(<CreditsPage />) },
  { path: 'stripe_result', element: suspended(<StripeResultPage />) },
  { path: 'jwt', element: suspended(<JwtPage />) },
  { path: 'lsg', element: suspended(<StyleGuidePage />) },
  { path: 'mumble-redirect/:serverIp', element: suspended(<MumbleRedirectPage />) },
  { path: '*', element: <ContentPage /> },
];

/** The routes, once per locale prefix: unprefixed (French or detected), /fr and /en. */
function localeTree(prefix: (typeof localePrefixes)[number]): RouteObject {
  return {
    path: prefix || '/',
    element: (
      <LocaleRoot prefix={prefix}>
        <RouteGuards />
        <Outlet />
      </LocaleRoot>
    ),
    children: [
      { path: 'dashboard/*', element: suspended(<DashboardRoutes />) },
      { element: <SiteLayout />, children: sitePages },
    ],
  };
}

const routes = localePrefixes.map(localeTree);

/**
 * Declarative routing (a BrowserRouter above): it is half the size of the data router, and the
 * public pages load no data through loaders. Errors of any page land on the error page.
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  const element = useRoutes(routes);
  return <ErrorBoundary resetKey={pathname}>{element}</ErrorBoundary>;
}
