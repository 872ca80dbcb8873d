import { lazy, Suspense, useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ContentDoc } from '../../contract/content.ts';
import { apiQuery, hasFailed } from '../app/queries.ts';
import { ApiError } from '../app/api.ts';
import { useBarePath, useLocalePath } from '../app/locale.tsx';
import { ErrorPage } from '../shell/ErrorPage.tsx';
import { PageLoader } from '../ui/PageLoader.tsx';

// Markdown rendering is its own chunk: the home page does not need it.
const ContentView = lazy(() => import('./ContentView.tsx'));

/**
 * The catch-all route: a content page from content/{fr,en} (the address's, or `path`), or the 404 error page.
 * `embedded`: a part of another page (the competitions under /dashboard/ranked's ladders), its title a heading of that page's.
 */
export function ContentPage({ path: asked, embedded = false }: { path?: string; embedded?: boolean }) {
  const { t, i18n } = useTranslation();
  const bare = useBarePath();
  const path = asked ?? bare;
  const to = useLocalePath();
  const navigate = useNavigate();
  const page = useQuery(apiQuery<ContentDoc>(`/_content/query/${i18n.language}${path}`));
  const redirect = page.isSuccess ? page.data.redirect : null;
  useEffect(() => {
    if (redirect) navigate(redirect.startsWith('/') ? to(redirect) : redirect, { replace: true });
  }, [redirect, navigate, to]);

  if (hasFailed(page) && page.error) {
    const status = page.error instanceof ApiError ? page.error.status : 500;
    return status === 404 ? <ErrorPage status={404} message={t('errors.notFound', { path })} /> : <ErrorPage status={status} message={page.error.message} />;
  }
  if (!page.isSuccess || redirect) return <PageLoader />;
  return (
    <Suspense fallback={<PageLoader />}>
      <ContentView doc={page.data} embedded={embedded} />
    </Suspense>
  );
}
