import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter, useNavigate } from 'react-router';
import i18n from './i18n.ts';
import { AppConfigContext, loadAppConfig } from './config.ts';
import { AuthRoot } from './auth.tsx';
import { CurrentUserProvider } from './currentUser.tsx';
import { NotificationsProvider } from './notifications.tsx';
import { reloadForChunkError } from './chunkReload.ts';
import { AppRoutes } from './router.tsx';
import { ThemeModeProvider } from '../shell/theme.tsx';
import { LoadingBar } from '../shell/LoadingBar.tsx';
import { NewVersionNotice } from '../shell/NewVersionNotice.tsx';

// A lazy chunk of an older build is gone after a deploy: reload once to get the new one.
window.addEventListener('vite:preloadError', (event) => {
  if (reloadForChunkError()) event.preventDefault();
});

const config = await loadAppConfig();

function App() {
  const navigate = useNavigate();
  return (
    <AuthRoot config={config} onSignedIn={(to) => void navigate(to, { replace: true })}>
      <CurrentUserProvider>
        <NotificationsProvider>
          <LoadingBar />
          <AppRoutes />
          <NewVersionNotice />
        </NotificationsProvider>
      </CurrentUserProvider>
    </AuthRoot>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppConfigContext.Provider value={config}>
      <I18nextProvider i18n={i18n}>
        <ThemeModeProvider>
          <BrowserRouter>
            <App />
          </BrowserRouter>
        </ThemeModeProvider>
      </I18nextProvider>
    </AppConfigContext.Provider>
  </StrictMode>,
);
