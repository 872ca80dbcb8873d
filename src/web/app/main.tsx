import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router';
import i18n from './i18n.ts';
import { AppConfigContext, loadAppConfig } from './config.ts';
import { AuthRoot } from './auth.tsx';
import { router } from './router.tsx';
import { ThemeModeProvider } from '../shell/theme.tsx';

const config = await loadAppConfig();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppConfigContext.Provider value={config}>
      <I18nextProvider i18n={i18n}>
        <ThemeModeProvider>
          <AuthRoot config={config} onSignedIn={(to) => void router.navigate(to, { replace: true })}>
            <RouterProvider router={router} />
          </AuthRoot>
        </ThemeModeProvider>
      </I18nextProvider>
    </AppConfigContext.Provider>
  </StrictMode>,
);
