import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter, useNavigate } from 'react-router';
import i18n, { ready as stringsReady } from './i18n.ts';
import { AppConfigContext, loadAppConfig, type AppConfig } from './config.ts';
import { AuthRoot } from './auth.tsx';
import { siteQueryClient } from './queries.ts';
import { CurrentUserProvider } from './currentUser.tsx';
import { NotificationsProvider } from './notifications.tsx';
import { reloadForChunkError } from './chunkReload.ts';
import { AppRoutes } from './router.tsx';
import { ThemeModeProvider } from '../shell/theme.tsx';
import { LoadingBar } from '../shell/LoadingBar.tsx';
import { NewVersionNotice } from '../shell/NewVersionNotice.tsx';
import { ErrorBoundary } from '../shell/ErrorBoundary.tsx';
import { ErrorPage } from '../shell/ErrorPage.tsx';

// A lazy chunk of an older build is gone after a deploy: reload once to get the new one.
window.addEventListener('vite:preloadError', (event) => {
  if (reloadForChunkError()) event.preventDefault();
});

function App({ config }: { config: AppConfig }) {
  const navigate = useNavigate();
  return (
    <AuthRoot config={config} onSignedIn={(to) => void navigate(to, { replace: true })}>
      <QueryClientProvider client={siteQueryClient}>
        <NotificationsProvider>
          <CurrentUserProvider>
            <LoadingBar />
            <AppRoutes />
            <NewVersionNotice />
          </CurrentUserProvider>
        </NotificationsProvider>
      </QueryClientProvider>
    </AuthRoot>
  );
}

const root = createRoot(document.getElementById('root')!);
const render = (page: ReactNode) =>
  root.render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <ThemeModeProvider>
          <BrowserRouter>
            {/* Pages have their own boundary; this one catches what fails around them (sign-in, user, notifications). */}
            <ErrorBoundary resetKey="app">{page}</ErrorBoundary>
          </BrowserRouter>
        </ThemeModeProvider>
      </I18nextProvider>
    </StrictMode>,
  );

try {
  // The strings of a language other than French load beside the settings, not after them.
  const [config] = await Promise.all([loadAppConfig(), stringsReady]);
  render(
    <AppConfigContext.Provider value={config}>
      <App config={config} />
    </AppConfigContext.Provider>,
  );
} catch {
  // Without its settings the app cannot sign anyone in: say so rather than show a blank page.
  render(<ErrorPage status={503} message={i18n.t('errors.unavailable')} />);
}
