import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { localePrefixes } from '../../contract/routes.ts';
import { LocaleRoot } from './locale.tsx';
import { SiteLayout } from '../shell/SiteLayout.tsx';
import { RouteError } from '../shell/ErrorPage.tsx';
import { PageLoader } from '../ui/PageLoader.tsx';
import { HomePage } from '../site/HomePage.tsx';
import { AuthCallbackPage } from '../site/AuthCallbackPage.tsx';
import { ContentPage } from '../site/ContentPage.tsx';

// Everything behind sign-in is its own chunk: the public site never downloads it.
const DashboardRoutes = lazy(() => import('../dashboard/DashboardRoutes.tsx'));

const suspended = (node: ReactNode) => <Suspense fallback={<PageLoader />}>{node}</Suspense>;

/** The routes of SPEC.md §2, once per locale prefix: unprefixed (French), /fr and /en. */
function localeTree(prefix: (typeof localePrefixes)[number]): RouteObject {
  return {
    path: prefix || '/',
    element: (
      <LocaleRoot prefix={prefix}>
        <Outlet />
      </LocaleRoot>
    ),
    errorElement: <RouteError />,
    children: [
      { path: 'dashboard/*', element: suspended(<DashboardRoutes />) },
      {
        element: <SiteLayout />,
        children: [
          { index: true, element: <HomePage /> },
          { path: 'auth/callback', element: <AuthCallbackPage /> },
          { path: '*', element: <ContentPage /> },
        ],
      },
    ],
  };
}

export const router = createBrowserRouter(localePrefixes.map(localeTree));
